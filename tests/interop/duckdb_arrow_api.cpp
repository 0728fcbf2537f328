#include "tests/interop/duckdb_arrow_api.h"

#include <stdexcept>

namespace granary::interop
{

DuckDbArrowApi DuckDbArrowApi::load()
{
    const std::filesystem::path path = clickbench::DuckDbApi::findLibrary();
    if (path.empty() || !std::filesystem::exists(path))
    {
        throw std::runtime_error(
            "libduckdb.so not found (" +
            (path.empty() ? std::string("GRANARY_DUCKDB_LIB is unset and no install was found")
                          : "no file at " + path.string()) +
            "): run tools/install_duckdb.sh, or set GRANARY_DUCKDB_LIB to the library");
    }
    DuckDbArrowApi api{};
    api.core = clickbench::DuckDbApi::load(path);
    api.core.bindMore("duckdb_column_logical_type", api.column_logical_type);
    api.core.bindMore("duckdb_result_get_arrow_options", api.result_get_arrow_options);
    api.core.bindMore("duckdb_destroy_arrow_options", api.destroy_arrow_options);
    api.core.bindMore("duckdb_to_arrow_schema", api.to_arrow_schema);
    api.core.bindMore("duckdb_data_chunk_to_arrow", api.data_chunk_to_arrow);
    api.core.bindMore("duckdb_schema_from_arrow", api.schema_from_arrow);
    api.core.bindMore("duckdb_data_chunk_from_arrow", api.data_chunk_from_arrow);
    api.core.bindMore("duckdb_destroy_arrow_converted_schema", api.destroy_arrow_converted_schema);
    api.core.bindMore("duckdb_error_data_message", api.error_data_message);
    api.core.bindMore("duckdb_destroy_error_data", api.destroy_error_data);
    return api;
}

void DuckDbArrowApi::check(Handle error, const std::string& what) const
{
    if (error == nullptr)
    {
        return;
    }
    const std::string message = error_data_message(error);
    destroy_error_data(&error);
    throw std::runtime_error(what + ": " + message);
}

}  // namespace granary::interop
