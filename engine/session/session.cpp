#include "engine/session/session.h"

#include <mutex>
#include <thread>
#include <variant>

#include "engine/aggregation/group_by_plan.h"
#include "engine/common/exception.h"
#include "engine/exec/phase_recorder.h"
#include "engine/ingest/insert_input.h"
#include "engine/planner/query_executor.h"
#include "engine/session/create_table.h"
#include "engine/session/insert_select.h"
#include "engine/session/query_settings.h"
#include "engine/sql/overloaded.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

/// Every AggregateFunction(f, T...) column must name a function that takes T...: its states
/// could not be made or merged otherwise. (Storage keeps the type as it is.)
void checkAggregateStateColumns(const sql::CreateTableStatement& create)
{
    for (const sql::ColumnDefinition& column : create.columns)
    {
        if (!column.type.isAggregateState())
        {
            continue;
        }
        try
        {
            createStateFunction(column.type);
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(), "column '" + column.name + "': " + error.what());
        }
    }
}

Block oneStringColumn(std::string name, const std::vector<std::string>& values)
{
    Column column(TypeId::String);
    for (const std::string& value : values)
    {
        column.appendString(value);
    }
    Block block;
    block.columns.push_back({std::move(name), std::move(column)});
    return block;
}

Block describeTable(const Table& table)
{
    Column names(TypeId::String);
    Column types(TypeId::String);
    for (const ColumnSchema& column : table.schema().columns)
    {
        names.appendString(column.name);
        types.appendString(dataTypeName(column.type));
    }
    Block block;
    block.columns.push_back({"name", std::move(names)});
    block.columns.push_back({"type", std::move(types)});
    return block;
}

}  // namespace

Session::Session(std::shared_ptr<Database> database)
    : database_(std::move(database)),
      condition_cache_(std::make_unique<QueryConditionCache>(kConditionCacheBytes))
{
}

Session::~Session() = default;

std::shared_ptr<Database> Session::openDatabase(const std::filesystem::path& data_dir)
{
    return Database::open(data_dir);
}

SelectOutcome Session::runQuery(const sql::SelectStatement& select, const QuerySettings& settings,
                                const QueryOptions& options, size_t threads, int64_t start_ns,
                                QueryStats& stats)
{
    QueryContext context(threads, settings.max_memory_usage);
    context.setProfiler(options.profiler);
    QueryEnvironment environment;
    environment.tables = [&](const std::string& name)
    { return std::shared_ptr<const Table>(database_->table(name)); };
    environment.settings = settings.select;
    environment.observer.cancel = options.cancel;
    if (options.on_progress)
    {
        environment.observer.on_progress = [&](size_t rows, size_t bytes, size_t total) {
            options.on_progress(QueryProgress{rows, bytes, total});
        };
    }
    environment.caches.condition =
        settings.use_query_condition_cache ? condition_cache_.get() : nullptr;
    environment.caches.decoded =
        settings.use_uncompressed_cache ? &database_->decodedCache() : nullptr;
    SelectOutcome outcome = executeQuery(select, context, environment);
    stats = context.stats();
    stats.accountQueryWall(start_ns, wallNanoseconds());
    return outcome;
}

void Session::dropCaches()
{
    condition_cache_ = std::make_unique<QueryConditionCache>(kConditionCacheBytes);
    database_->decodedCache().clear();
}

QueryResult Session::execute(std::string_view sql, const QueryOptions& options)
{
    const int64_t start_ns = wallNanoseconds();
    QuerySettings settings;
    settings.max_threads = options.threads;
    settings.max_memory_usage = options.memory_limit_bytes;
    applySettings(options.settings, settings);
    const size_t threads = settings.max_threads
                               ? settings.max_threads
                               : std::max<size_t>(1, std::thread::hardware_concurrency());

    const sql::Statement statement = sql::parseStatement(sql);
    QueryResult result;
    std::visit(
        sql::Overloaded{
            [&](const sql::SelectStatement& select)
            {
                SelectOutcome outcome =
                    runQuery(select, settings, options, threads, start_ns, result.stats);
                result.block = std::move(outcome.block);
                result.totals = std::move(outcome.totals);
                result.rows_read = outcome.rows_read;
                result.bytes_read = outcome.bytes_read;
            },
            [&](const sql::CreateTableStatement& create)
            {
                checkAggregateStateColumns(create);
                createTable(*database_, create);
            },
            [&](const sql::InsertStatement& insert)
            {
                ingest::InsertSource source;
                source.blocks = options.insert_blocks;
                std::vector<Block> selected;
                if (insert.select)
                {
                    SelectOutcome outcome = runQuery(*insert.select, settings, options, threads,
                                                     start_ns, result.stats);
                    result.rows_read = outcome.rows_read;
                    result.bytes_read = outcome.bytes_read;
                    selected = rowsToInsert(std::move(outcome.block),
                                            database_->table(insert.table)->schema(), insert);
                    source.blocks = &selected;
                }
                source.bytes = options.insert_bytes;
                source.bytes_padded = options.insert_bytes_padded;
                source.stream = options.insert_data;
                source.progress = true;
                source.binary_json_as_string = settings.binary_json_as_string;
                source.async = {settings.async_insert, settings.wait_for_async_insert,
                                settings.async_insert_limits};
                result.rows_written = ingest::executeInsert(*database_, insert, source, threads);
            },
            [&](const sql::DropTableStatement& drop)
            { database_->dropTable(drop.table, drop.if_exists); },
            [&](const sql::ShowTablesStatement&)
            { result.block = oneStringColumn("name", database_->tableNames()); },
            [&](const sql::DescribeTableStatement& describe)
            { result.block = describeTable(*database_->table(describe.table)); },
        },
        statement);
    result.elapsed_seconds = static_cast<double>(wallNanoseconds() - start_ns) * 1e-9;
    return result;
}

}  // namespace granary
