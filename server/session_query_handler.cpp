#include "server/session_query_handler.h"

#include "engine/common/ascii.h"
#include "engine/session/session.h"
#include "engine/sql/parser.h"
#include "engine/sql/query_text.h"
#include "engine/storage/database.h"

namespace granary::server
{

SessionQueryHandler::SessionQueryHandler(std::shared_ptr<Database> database)
    : database_(std::move(database))
{
}

QueryOutcome SessionQueryHandler::run(const QueryRequest& request, const QueryCallbacks& callbacks,
                                      const std::atomic<bool>& cancel)
{
    QueryOptions options;
    options.threads = request.threads;
    options.settings = request.settings;
    options.cancel = &cancel;
    options.insert_bytes = request.insert_data;
    options.insert_bytes_padded = request.insert_data_padded;
    std::vector<Block> insert_blocks;
    if (request.insert_blocks)
    {
        insert_blocks = *request.insert_blocks;
        options.insert_blocks = &insert_blocks;
    }
    options.on_progress = [&callbacks](const QueryProgress& progress)
    {
        ProgressCounters counters;
        counters.rows_read = progress.rows_read;
        counters.bytes_read = progress.bytes_read;
        counters.total_rows_to_read = progress.total_rows_to_read;
        callbacks.on_progress(counters);
    };
    Session session(database_);
    QueryResult result = session.execute(request.sql, options);

    QueryOutcome outcome;
    outcome.progress.rows_read = result.rows_read;
    outcome.progress.bytes_read = result.bytes_read;
    outcome.progress.rows_written = result.rows_written;
    outcome.profile_events.push_back({0, result.stats.profile_events});
    for (const Block::Entry& entry : result.block.columns)
    {
        outcome.header.columns.push_back({entry.name, entry.column.emptyLike()});
    }
    outcome.totals = std::move(result.totals);
    if (result.block.rows() > 0)
    {
        callbacks.on_block(std::move(result.block));
    }
    return outcome;
}

std::optional<Block> SessionQueryHandler::insertHeader(const QueryRequest& request)
{
    // Most queries are not inserts: the first word decides before the whole text is parsed.
    if (!equalsIgnoringCase(sql::leadingWord(request.sql), "INSERT"))
    {
        return std::nullopt;
    }
    const sql::Statement statement = sql::parseStatement(request.sql);
    const auto* insert = std::get_if<sql::InsertStatement>(&statement);
    if (insert == nullptr || insert->infile)
    {
        return std::nullopt;
    }
    const std::shared_ptr<Table> table = database_->table(insert->table);
    const TableSchema& schema = table->schema();
    Block header;
    for (const size_t index : schema.fieldColumns(insert->columns))
    {
        header.columns.push_back({schema.columns[index].name, Column(schema.columns[index].type)});
    }
    return header;
}

}  // namespace granary::server
