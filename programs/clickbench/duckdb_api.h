#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace granary::clickbench
{

/// The part of DuckDB's C API the comparison uses, declared here from DuckDB's public
/// documentation and bound at run time with dlopen, so that Granary neither builds nor links
/// against DuckDB. Handles are opaque pointers; values and layouts are DuckDB's ABI.
namespace duckdb_c
{
using idx_t = uint64_t;
using Handle = void*;  ///< duckdb_database, duckdb_connection, duckdb_appender, ...

enum State : int32_t
{
    kSuccess = 0,
    kError = 1,
};

/// DUCKDB_TYPE values.
enum Type : int32_t
{
    kBoolean = 1,
    kTinyInt = 2,
    kSmallInt = 3,
    kInteger = 4,
    kBigInt = 5,
    kUTinyInt = 6,
    kUSmallInt = 7,
    kUInteger = 8,
    kUBigInt = 9,
    kFloat = 10,
    kDouble = 11,
    kTimestamp = 12,  ///< int64 microseconds since the epoch.
    kDate = 13,       ///< int32 days since 1970-01-01.
    kHugeInt = 16,    ///< 128 bits: uint64 lower word, then int64 upper word.
    kVarchar = 17,
    kBlob = 18,
    kDecimal = 19,
    kTimestampSeconds = 20,
    kTimestampMillis = 21,
    kTimestampNanos = 22,
    kList = 24,
    kTimestampTz = 31,
    kUHugeInt = 32,
};

/// duckdb_result: filled by duckdb_query, read only through the API functions.
struct Result
{
    idx_t deprecated_column_count;
    idx_t deprecated_row_count;
    idx_t deprecated_rows_changed;
    void* deprecated_columns;
    char* deprecated_error_message;
    void* internal_data;
};

/// duckdb_string_t: 16 bytes, the length first; up to 12 bytes are stored inline after it,
/// longer strings keep a 4-byte prefix there and then a pointer.
union StringValue
{
    struct
    {
        uint32_t length;
        char prefix[4];
        const char* data;
    } pointer;
    struct
    {
        uint32_t length;
        char chars[12];
    } inlined;
};
static_assert(sizeof(StringValue) == 16);
constexpr uint32_t kStringInlineLength = 12;
}  // namespace duckdb_c

/// The C API functions, resolved from one libduckdb.so; the library stays loaded while any
/// DuckDbApi refers to it.
struct DuckDbApi
{
    using idx_t = duckdb_c::idx_t;
    using Handle = duckdb_c::Handle;
    using State = duckdb_c::State;
    using Result = duckdb_c::Result;

    const char* (*library_version)();
    State (*open)(const char* path, Handle* database);
    void (*close)(Handle* database);
    State (*connect)(Handle database, Handle* connection);
    void (*disconnect)(Handle* connection);
    State (*query)(Handle connection, const char* sql, Result* result);
    const char* (*result_error)(Result* result);
    void (*destroy_result)(Result* result);
    idx_t (*column_count)(Result* result);
    const char* (*column_name)(Result* result, idx_t column);
    duckdb_c::Type (*column_type)(Result* result, idx_t column);
    /// A result column's full type (a LIST's element type through list_type_child_type); the
    /// caller destroys it.
    Handle (*column_logical_type)(Result* result, idx_t column);
    duckdb_c::Type (*get_type_id)(Handle logical_type);
    Handle (*list_type_child_type)(Handle logical_type);
    Handle (*fetch_chunk)(Result result);
    idx_t (*data_chunk_get_size)(Handle chunk);
    Handle (*data_chunk_get_vector)(Handle chunk, idx_t column);
    void (*data_chunk_set_size)(Handle chunk, idx_t rows);
    void (*destroy_data_chunk)(Handle* chunk);
    Handle (*create_data_chunk)(Handle* logical_types, idx_t column_count);
    Handle (*create_logical_type)(duckdb_c::Type type);
    Handle (*create_list_type)(Handle element_type);
    Handle (*create_map_type)(Handle key_type, Handle value_type);
    void (*destroy_logical_type)(Handle* logical_type);
    void* (*vector_get_data)(Handle vector);
    uint64_t* (*vector_get_validity)(Handle vector);
    void (*vector_assign_string_element_len)(Handle vector, idx_t row, const char* text,
                                             idx_t length);
    idx_t (*vector_size)();
    /// LIST and MAP vectors: entries of {offset, length} into one child vector (for a MAP, a
    /// STRUCT of key and value vectors), whose size the caller reserves and sets.
    Handle (*list_vector_get_child)(Handle vector);
    idx_t (*list_vector_get_size)(Handle vector);
    State (*list_vector_set_size)(Handle vector, idx_t size);
    State (*list_vector_reserve)(Handle vector, idx_t capacity);
    Handle (*struct_vector_get_child)(Handle vector, idx_t index);
    State (*appender_create)(Handle connection, const char* schema, const char* table,
                             Handle* appender);
    const char* (*appender_error)(Handle appender);
    State (*append_data_chunk)(Handle appender, Handle chunk);
    State (*appender_close)(Handle appender);
    State (*appender_destroy)(Handle* appender);

    std::filesystem::path library_path;
    std::shared_ptr<void> library;  ///< The dlopen handle; dlclose when the last copy goes.

    /// Loads `library_path` and resolves every function; throws Exception(kCannotOpenFile)
    /// naming the file, or naming the first missing function.
    static DuckDbApi load(const std::filesystem::path& library_path);

    /// Where libduckdb.so is: $GRANARY_DUCKDB_LIB if set, else the newest install of
    /// tools/install_duckdb.sh under ${XDG_CACHE_HOME:-~/.cache}/granary/duckdb. Empty if none.
    static std::filesystem::path findLibrary();

    /// Resolves one more C API function from the loaded library, for callers that need more of
    /// the API than the functions above; throws Exception(kCannotOpenFile) naming a missing one.
    template <typename Function>
    void bindMore(const char* name, Function*& function) const
    {
        function = reinterpret_cast<Function*>(symbol(name));
    }
    void* symbol(const char* name) const;
};

}  // namespace granary::clickbench
