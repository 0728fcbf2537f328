#include "tests/interop/duckdb_session.h"

#include <stdexcept>
#include <utility>

namespace granary::interop
{

namespace
{

/// Runs a clean-up when the scope ends, however it ends.
template <typename CleanUp>
class OnExit
{
public:
    explicit OnExit(CleanUp clean_up) : clean_up_(std::move(clean_up)) {}
    ~OnExit() { clean_up_(); }
    OnExit(const OnExit&) = delete;
    OnExit& operator=(const OnExit&) = delete;

private:
    CleanUp clean_up_;
};

}  // namespace

DuckDbSession::DuckDbSession(DuckDbArrowApi api) : api_(std::move(api))
{
    if (api_.core.open(nullptr, &database_) != clickbench::duckdb_c::kSuccess ||
        api_.core.connect(database_, &connection_) != clickbench::duckdb_c::kSuccess)
    {
        throw std::runtime_error("cannot open an in-memory DuckDB database");
    }
}

DuckDbSession::~DuckDbSession()
{
    api_.core.disconnect(&connection_);
    api_.core.close(&database_);
}

void DuckDbSession::withResult(const std::string& sql,
                               const std::function<void(DuckDbArrowApi::Result&)>& read)
{
    DuckDbArrowApi::Result result{};
    const OnExit destroy([&] { api_.core.destroy_result(&result); });
    if (api_.core.query(connection_, sql.c_str(), &result) != clickbench::duckdb_c::kSuccess)
    {
        throw std::runtime_error("DuckDB failed " + sql + ": " + api_.core.result_error(&result));
    }
    read(result);
}

void DuckDbSession::execute(const std::string& sql)
{
    withResult(sql, [](DuckDbArrowApi::Result&) {});
}

void DuckDbSession::forEachChunkOf(DuckDbArrowApi::Result& result,
                                   const std::function<void(const Chunk&)>& on_chunk)
{
    Chunk chunk;
    for (DuckDbArrowApi::idx_t column = 0; column < api_.core.column_count(&result); ++column)
    {
        chunk.types.push_back(api_.core.column_type(&result, column));
    }
    while ((chunk.chunk = api_.core.fetch_chunk(result)) != nullptr)
    {
        const OnExit destroy([&] { api_.core.destroy_data_chunk(&chunk.chunk); });
        chunk.rows = api_.core.data_chunk_get_size(chunk.chunk);
        on_chunk(chunk);
    }
}

void DuckDbSession::forEachChunk(const std::string& sql,
                                 const std::function<void(const Chunk&)>& on_chunk)
{
    withResult(sql, [&](DuckDbArrowApi::Result& result) { forEachChunkOf(result, on_chunk); });
}

void DuckDbSession::queryArrow(const std::string& sql,
                               const std::function<void(const ArrowSchema&)>& on_schema,
                               const std::function<void(const Chunk&, const ArrowArray&)>& on_chunk)
{
    withResult(
        sql,
        [&](DuckDbArrowApi::Result& result)
        {
            const DuckDbArrowApi::idx_t columns = api_.core.column_count(&result);
            std::vector<Handle> logical_types;
            std::vector<const char*> names;
            Handle options = api_.result_get_arrow_options(&result);
            const OnExit destroy(
                [&]
                {
                    api_.destroy_arrow_options(&options);
                    for (Handle& type : logical_types)
                    {
                        api_.core.destroy_logical_type(&type);
                    }
                });
            for (DuckDbArrowApi::idx_t column = 0; column < columns; ++column)
            {
                logical_types.push_back(api_.column_logical_type(&result, column));
                names.push_back(api_.core.column_name(&result, column));
            }
            ArrowSchema schema{};
            api_.check(
                api_.to_arrow_schema(options, logical_types.data(), names.data(), columns, &schema),
                "duckdb_to_arrow_schema");
            const OnExit release_schema([&] { schema.release(&schema); });
            on_schema(schema);
            forEachChunkOf(result,
                           [&](const Chunk& chunk)
                           {
                               ArrowArray array{};
                               api_.check(api_.data_chunk_to_arrow(options, chunk.chunk, &array),
                                          "duckdb_data_chunk_to_arrow");
                               const OnExit release_array([&] { array.release(&array); });
                               on_chunk(chunk, array);
                           });
        });
}

void DuckDbSession::appendArrow(const std::string& table, ArrowSchema& schema, ArrowArray& array)
{
    Handle converted = nullptr;
    api_.check(api_.schema_from_arrow(connection_, &schema, &converted),
               "duckdb_schema_from_arrow");
    const OnExit destroy_converted([&] { api_.destroy_arrow_converted_schema(&converted); });
    Handle chunk = nullptr;
    api_.check(api_.data_chunk_from_arrow(connection_, &array, converted, &chunk),
               "duckdb_data_chunk_from_arrow");
    const OnExit destroy_chunk([&] { api_.core.destroy_data_chunk(&chunk); });
    Handle appender = nullptr;
    const bool created = api_.core.appender_create(connection_, nullptr, table.c_str(),
                                                   &appender) == clickbench::duckdb_c::kSuccess;
    // A failed appender holds its error and is destroyed like any other.
    const OnExit destroy_appender([&] { api_.core.appender_destroy(&appender); });
    if (!created ||
        api_.core.append_data_chunk(appender, chunk) != clickbench::duckdb_c::kSuccess ||
        api_.core.appender_close(appender) != clickbench::duckdb_c::kSuccess)
    {
        throw std::runtime_error("DuckDB failed to append to " + table + ": " +
                                 api_.core.appender_error(appender));
    }
}

}  // namespace granary::interop
