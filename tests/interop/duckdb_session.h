#pragma once

// An in-memory DuckDB database for interop tests: SQL in, results out as DuckDB's own vectors
// and as Arrow, and Arrow batches appended to tables.

#include <functional>
#include <string>
#include <vector>

#include "tests/interop/duckdb_arrow_api.h"

namespace granary::interop
{

class DuckDbSession
{
public:
    using Handle = DuckDbArrowApi::Handle;
    using Type = clickbench::duckdb_c::Type;

    /// One result chunk: its DuckDB vectors (api().core.data_chunk_get_vector) and the result's
    /// column types.
    struct Chunk
    {
        Handle chunk = nullptr;
        size_t rows = 0;
        std::vector<Type> types;
    };

    /// Opens an in-memory database and connects to it.
    explicit DuckDbSession(DuckDbArrowApi api);
    ~DuckDbSession();
    DuckDbSession(const DuckDbSession&) = delete;
    DuckDbSession& operator=(const DuckDbSession&) = delete;

    const DuckDbArrowApi& api() const { return api_; }

    /// Runs a statement; throws std::runtime_error with DuckDB's message.
    void execute(const std::string& sql);
    /// Runs `sql` and calls on_chunk with each result chunk.
    void forEachChunk(const std::string& sql, const std::function<void(const Chunk&)>& on_chunk);
    /// Runs `sql`; calls on_schema with the result's Arrow schema (duckdb_to_arrow_schema), then
    /// on_chunk with each chunk and its Arrow export (duckdb_data_chunk_to_arrow), under the
    /// connection's Arrow settings. Releases what DuckDB exported once the callbacks return.
    void queryArrow(const std::string& sql,
                    const std::function<void(const ArrowSchema&)>& on_schema,
                    const std::function<void(const Chunk&, const ArrowArray&)>& on_chunk);
    /// Appends `array`, whose schema is `schema`, to `table` through duckdb_schema_from_arrow,
    /// duckdb_data_chunk_from_arrow and the appender. DuckDB takes the array over; the schema
    /// stays the caller's.
    void appendArrow(const std::string& table, ArrowSchema& schema, ArrowArray& array);

private:
    /// Runs `sql` and passes its result to `read`, destroying the result after.
    void withResult(const std::string& sql,
                    const std::function<void(DuckDbArrowApi::Result&)>& read);
    void forEachChunkOf(DuckDbArrowApi::Result& result,
                        const std::function<void(const Chunk&)>& on_chunk);

    DuckDbArrowApi api_;
    Handle database_ = nullptr;
    Handle connection_ = nullptr;
};

}  // namespace granary::interop
