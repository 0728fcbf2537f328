#pragma once

// An in-memory DuckDB database (libduckdb.so through dlopen, as `granary clickbench` loads it)
// holding the benchmark's batches as a table `hits`, appended through DuckDB's Arrow C API.

#include <string>
#include <vector>

#include "bench/embedding/hits_batches.h"
#include "bench/embedding/result_rows.h"
#include "tests/interop/duckdb_arrow_api.h"

namespace granary::bench
{

class DuckDbTable
{
public:
    /// Loads the library (GRANARY_DUCKDB_LIB, else tools/install_duckdb.sh's install) and
    /// appends every batch. Throws std::runtime_error with DuckDB's message.
    explicit DuckDbTable(const HitsBatches& batches);
    ~DuckDbTable();
    DuckDbTable(const DuckDbTable&) = delete;
    DuckDbTable& operator=(const DuckDbTable&) = delete;

    std::string version() const { return api_.core.library_version(); }
    /// SET threads = `threads` (preserve_insertion_order stays off).
    void setThreads(size_t threads);
    /// Runs `sql` and fetches every result chunk; returns the result's row count, and its rows
    /// in `rows` when given.
    size_t query(const std::string& sql, std::vector<Row>* rows = nullptr);

private:
    using Handle = interop::DuckDbArrowApi::Handle;

    void execute(const std::string& sql);
    void append(const HitsBatches& batches);
    void readChunk(Handle chunk, const std::vector<clickbench::duckdb_c::Type>& types,
                   std::vector<Row>& rows) const;

    interop::DuckDbArrowApi api_;
    Handle database_ = nullptr;
    Handle connection_ = nullptr;
};

}  // namespace granary::bench
