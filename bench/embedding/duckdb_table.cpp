#include "bench/embedding/duckdb_table.h"

#include <stdexcept>

namespace granary::bench
{
namespace
{

namespace duckdb_c = clickbench::duckdb_c;

/// The table's columns: DuckDB's types for the batches' (batchFields()).
constexpr const char* kCreateTable =
    "CREATE TABLE hits (RegionID INTEGER, UserID BIGINT, SearchPhrase VARCHAR, "
    "AdvEngineID SMALLINT, ResolutionWidth SMALLINT)";

/// A HUGEINT (sum of integers) as int64: the benchmark's sums fit.
int64_t hugeIntAt(const void* data, size_t row)
{
    const auto* words = static_cast<const uint64_t*>(data) + 2 * row;
    return static_cast<int64_t>(words[0]);
}

std::string stringAt(const void* data, size_t row)
{
    const auto& value = static_cast<const duckdb_c::StringValue*>(data)[row];
    const uint32_t length = value.inlined.length;
    return length <= duckdb_c::kStringInlineLength ? std::string(value.inlined.chars, length)
                                                   : std::string(value.pointer.data, length);
}

Cell cellAt(duckdb_c::Type type, const void* data, size_t row)
{
    switch (type)
    {
        case duckdb_c::kSmallInt:
            return int64_t{static_cast<const int16_t*>(data)[row]};
        case duckdb_c::kInteger:
            return int64_t{static_cast<const int32_t*>(data)[row]};
        case duckdb_c::kBigInt:
            return static_cast<const int64_t*>(data)[row];
        case duckdb_c::kUBigInt:
            return static_cast<int64_t>(static_cast<const uint64_t*>(data)[row]);
        case duckdb_c::kHugeInt:
            return hugeIntAt(data, row);
        case duckdb_c::kDouble:
            return static_cast<const double*>(data)[row];
        case duckdb_c::kVarchar:
            return stringAt(data, row);
        default:
            throw std::runtime_error("a DuckDB result column of type " +
                                     std::to_string(static_cast<int>(type)));
    }
}

}  // namespace

DuckDbTable::DuckDbTable(const HitsBatches& batches) : api_(interop::DuckDbArrowApi::load())
{
    if (api_.core.open(nullptr, &database_) != duckdb_c::kSuccess ||
        api_.core.connect(database_, &connection_) != duckdb_c::kSuccess)
    {
        throw std::runtime_error("cannot open an in-memory DuckDB database");
    }
    // Granary gives its groups in no particular order either.
    execute("SET preserve_insertion_order = false");
    execute(kCreateTable);
    append(batches);
    std::vector<Row> count;
    query("SELECT count(*) FROM hits", &count);
    checkSameRows({{static_cast<int64_t>(batches.rows())}}, count, "rows appended to DuckDB");
}

DuckDbTable::~DuckDbTable()
{
    api_.core.disconnect(&connection_);
    api_.core.close(&database_);
}

void DuckDbTable::setThreads(size_t threads)
{
    execute("SET threads = " + std::to_string(threads));
}

void DuckDbTable::append(const HitsBatches& batches)
{
    ArrowSchema schema = batches.schema();
    Handle converted = nullptr;
    api_.check(api_.schema_from_arrow(connection_, &schema, &converted),
               "duckdb_schema_from_arrow");
    Handle appender = nullptr;
    if (api_.core.appender_create(connection_, nullptr, "hits", &appender) != duckdb_c::kSuccess)
    {
        throw std::runtime_error(std::string("DuckDB appender: ") +
                                 api_.core.appender_error(appender));
    }
    for (const ArrowArray& batch : batches.batches())
    {
        // DuckDB takes over (and releases) the array it converts: give it a borrowed one.
        ArrowArray borrowed = borrowBatch(batch);
        Handle chunk = nullptr;
        api_.check(api_.data_chunk_from_arrow(connection_, &borrowed, converted, &chunk),
                   "duckdb_data_chunk_from_arrow");
        const bool appended = api_.core.append_data_chunk(appender, chunk) == duckdb_c::kSuccess;
        api_.core.destroy_data_chunk(&chunk);
        if (!appended)
        {
            throw std::runtime_error(std::string("DuckDB append: ") +
                                     api_.core.appender_error(appender));
        }
    }
    api_.core.appender_close(appender);
    api_.core.appender_destroy(&appender);
    api_.destroy_arrow_converted_schema(&converted);
}

void DuckDbTable::execute(const std::string& sql)
{
    query(sql);
}

size_t DuckDbTable::query(const std::string& sql, std::vector<Row>* rows)
{
    interop::DuckDbArrowApi::Result result{};
    if (api_.core.query(connection_, sql.c_str(), &result) != duckdb_c::kSuccess)
    {
        const std::string message = api_.core.result_error(&result);
        api_.core.destroy_result(&result);
        throw std::runtime_error("DuckDB failed " + sql + ": " + message);
    }
    std::vector<duckdb_c::Type> types;
    for (size_t column = 0; column < api_.core.column_count(&result); ++column)
    {
        types.push_back(api_.core.column_type(&result, column));
    }
    size_t result_rows = 0;
    while (Handle chunk = api_.core.fetch_chunk(result))
    {
        result_rows += api_.core.data_chunk_get_size(chunk);
        if (rows != nullptr)
        {
            readChunk(chunk, types, *rows);
        }
        api_.core.destroy_data_chunk(&chunk);
    }
    api_.core.destroy_result(&result);
    return result_rows;
}

void DuckDbTable::readChunk(Handle chunk, const std::vector<duckdb_c::Type>& types,
                            std::vector<Row>& rows) const
{
    const size_t chunk_rows = api_.core.data_chunk_get_size(chunk);
    const size_t first = rows.size();
    rows.resize(first + chunk_rows);
    for (size_t column = 0; column < types.size(); ++column)
    {
        const void* data =
            api_.core.vector_get_data(api_.core.data_chunk_get_vector(chunk, column));
        for (size_t row = 0; row < chunk_rows; ++row)
        {
            rows[first + row].push_back(cellAt(types[column], data, row));
        }
    }
}

}  // namespace granary::bench
