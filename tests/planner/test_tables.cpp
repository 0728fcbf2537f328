#include "tests/planner/test_tables.h"

#include <variant>

#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/planner/hits_generator.h"
#include "tests/planner/table_conversion.h"
#include "tests/sql/clickbench_files.h"

namespace granary::oracle
{

void createAndFill(Session& session, std::string_view create_sql, const RowTable& table)
{
    session.execute(create_sql);
    const sql::Statement statement = sql::parseStatement(create_sql);
    std::vector<Block> blocks;
    blocks.push_back(toBlock(table));
    session.database().insert(std::get<sql::CreateTableStatement>(statement).table,
                              std::move(blocks));
}

QueryOptions threadOptions(size_t threads, bool force_two_level)
{
    QueryOptions options;
    options.threads = threads;
    if (force_two_level)
    {
        options.settings["group_by_two_level_threshold"] = "1";
        options.settings["group_by_two_level_threshold_bytes"] = "1";
    }
    return options;
}

std::string threadOptionsName(size_t threads, bool force_two_level)
{
    return std::to_string(threads) + "Threads" + (force_two_level ? "TwoLevel" : "");
}

const VisitsFixture& sharedVisits()
{
    static const VisitsFixture fixture = []
    {
        VisitsFixture built;
        built.table = emptyTableFor(kVisitsCreate);
        appendHitsRows(built.table, 80000, 4242);
        built.session = std::make_unique<Session>(Database::openInMemory());
        createAndFill(*built.session, kVisitsCreate, built.table);
        return built;
    }();
    return fixture;
}

const HitsFixture* sharedHits()
{
    static const std::unique_ptr<HitsFixture> fixture = []() -> std::unique_ptr<HitsFixture>
    {
        const std::optional<std::string> create = sql::readClickBenchFile("clickhouse-create.sql");
        std::optional<std::vector<std::string>> queries = sql::readClickBenchQueries();
        if (!create || !queries)
        {
            return nullptr;
        }
        auto hits = std::make_unique<HitsFixture>();
        hits->queries = std::move(*queries);
        hits->table = emptyTableFor(*create);
        appendHitsRows(hits->table, 50000, 20130714);
        hits->session = std::make_unique<Session>(Database::openInMemory());
        createAndFill(*hits->session, *create, hits->table);
        return hits;
    }();
    return fixture.get();
}

}  // namespace granary::oracle
