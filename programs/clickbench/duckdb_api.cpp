#include "programs/clickbench/duckdb_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <system_error>

#include "engine/common/exception.h"

namespace granary::clickbench
{

namespace
{

template <typename Function>
void resolve(void* library, const std::filesystem::path& path, const char* name,
             Function*& function)
{
    void* symbol = dlsym(library, name);
    if (symbol == nullptr)
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "DuckDB library " + path.string() + " lacks the C API function " + name);
    }
    function = reinterpret_cast<Function*>(symbol);
}

std::filesystem::path cacheRoot()
{
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache != '\0')
    {
        return std::filesystem::path(cache) / "granary" / "duckdb";
    }
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    {
        return std::filesystem::path(home) / ".cache" / "granary" / "duckdb";
    }
    return {};
}

}  // namespace

DuckDbApi DuckDbApi::load(const std::filesystem::path& library_path)
{
    void* handle = dlopen(library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr)
    {
        const char* reason = dlerror();
        throw Exception(ErrorCode::kCannotOpenFile, "cannot load DuckDB library " +
                                                        library_path.string() + ": " +
                                                        (reason != nullptr ? reason : "unknown"));
    }
    DuckDbApi api{};
    api.library_path = library_path;
    api.library = std::shared_ptr<void>(handle, [](void* library) { dlclose(library); });
    const auto bind = [&](const char* name, auto*& function)
    { resolve(handle, library_path, name, function); };
    bind("duckdb_library_version", api.library_version);
    bind("duckdb_open", api.open);
    bind("duckdb_close", api.close);
    bind("duckdb_connect", api.connect);
    bind("duckdb_disconnect", api.disconnect);
    bind("duckdb_query", api.query);
    bind("duckdb_result_error", api.result_error);
    bind("duckdb_destroy_result", api.destroy_result);
    bind("duckdb_column_count", api.column_count);
    bind("duckdb_column_name", api.column_name);
    bind("duckdb_column_type", api.column_type);
    bind("duckdb_column_logical_type", api.column_logical_type);
    bind("duckdb_get_type_id", api.get_type_id);
    bind("duckdb_list_type_child_type", api.list_type_child_type);
    bind("duckdb_fetch_chunk", api.fetch_chunk);
    bind("duckdb_data_chunk_get_size", api.data_chunk_get_size);
    bind("duckdb_data_chunk_get_vector", api.data_chunk_get_vector);
    bind("duckdb_data_chunk_set_size", api.data_chunk_set_size);
    bind("duckdb_destroy_data_chunk", api.destroy_data_chunk);
    bind("duckdb_create_data_chunk", api.create_data_chunk);
    bind("duckdb_create_logical_type", api.create_logical_type);
    bind("duckdb_create_list_type", api.create_list_type);
    bind("duckdb_create_map_type", api.create_map_type);
    bind("duckdb_destroy_logical_type", api.destroy_logical_type);
    bind("duckdb_vector_get_data", api.vector_get_data);
    bind("duckdb_vector_get_validity", api.vector_get_validity);
    bind("duckdb_vector_assign_string_element_len", api.vector_assign_string_element_len);
    bind("duckdb_vector_size", api.vector_size);
    bind("duckdb_list_vector_get_child", api.list_vector_get_child);
    bind("duckdb_list_vector_get_size", api.list_vector_get_size);
    bind("duckdb_list_vector_set_size", api.list_vector_set_size);
    bind("duckdb_list_vector_reserve", api.list_vector_reserve);
    bind("duckdb_struct_vector_get_child", api.struct_vector_get_child);
    bind("duckdb_appender_create", api.appender_create);
    bind("duckdb_appender_error", api.appender_error);
    bind("duckdb_append_data_chunk", api.append_data_chunk);
    bind("duckdb_appender_close", api.appender_close);
    bind("duckdb_appender_destroy", api.appender_destroy);
    return api;
}

void* DuckDbApi::symbol(const char* name) const
{
    void* function = nullptr;
    resolve(library.get(), library_path, name, function);
    return function;
}

std::filesystem::path DuckDbApi::findLibrary()
{
    if (const char* explicit_path = std::getenv("GRANARY_DUCKDB_LIB");
        explicit_path != nullptr && *explicit_path != '\0')
    {
        return explicit_path;
    }
    const std::filesystem::path root = cacheRoot();
    std::error_code error;
    if (root.empty() || !std::filesystem::is_directory(root, error))
    {
        return {};
    }
    std::filesystem::path newest;
    std::filesystem::file_time_type newest_time{};
    for (const auto& entry : std::filesystem::recursive_directory_iterator(
             root, std::filesystem::directory_options::skip_permission_denied, error))
    {
        if (entry.path().filename() == "libduckdb.so" && entry.is_regular_file(error))
        {
            const auto time = entry.last_write_time(error);
            if (newest.empty() || time > newest_time)
            {
                newest = entry.path();
                newest_time = time;
            }
        }
    }
    return newest;
}

}  // namespace granary::clickbench
