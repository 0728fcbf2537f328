#pragma once

// DuckDB's Arrow C API (1.5.6), bound at run time next to the calls the ClickBench comparison
// already binds, for tests that pass data between DuckDB and Granary as Arrow.

#include <string>

#include "granary/arrow_c_data.h"
#include "programs/clickbench/duckdb_api.h"

namespace granary::interop
{

/// The DuckDB C API functions of clickbench::DuckDbApi (`core`) plus those of its Arrow
/// interface. Handles (duckdb_arrow_options, duckdb_logical_type, duckdb_error_data,
/// duckdb_arrow_converted_schema, duckdb_data_chunk) are opaque pointers.
struct DuckDbArrowApi
{
    using idx_t = clickbench::duckdb_c::idx_t;
    using Handle = clickbench::duckdb_c::Handle;
    using Result = clickbench::duckdb_c::Result;

    clickbench::DuckDbApi core;
    Handle (*column_logical_type)(Result* result, idx_t column);
    Handle (*result_get_arrow_options)(Result* result);
    void (*destroy_arrow_options)(Handle* options);
    /// These return a duckdb_error_data, null on success.
    Handle (*to_arrow_schema)(Handle options, Handle* logical_types, const char** names,
                              idx_t column_count, ArrowSchema* out);
    Handle (*data_chunk_to_arrow)(Handle options, Handle chunk, ArrowArray* out);
    Handle (*schema_from_arrow)(Handle connection, ArrowSchema* schema, Handle* converted);
    /// Takes the array over (DuckDB releases it).
    Handle (*data_chunk_from_arrow)(Handle connection, ArrowArray* array, Handle converted,
                                    Handle* chunk);
    void (*destroy_arrow_converted_schema)(Handle* converted);
    const char* (*error_data_message)(Handle error);
    void (*destroy_error_data)(Handle* error);

    /// Loads the library clickbench::DuckDbApi::findLibrary() finds ($GRANARY_DUCKDB_LIB, else
    /// the install of tools/install_duckdb.sh). Throws std::runtime_error telling to run that
    /// script when there is none, or Exception(kCannotOpenFile) when it cannot be loaded.
    static DuckDbArrowApi load();

    /// Throws std::runtime_error with DuckDB's message (and `what`) if `error` is set; destroys
    /// it.
    void check(Handle error, const std::string& what) const;
};

}  // namespace granary::interop
