#include "programs/clickbench/duckdb_client.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "engine/common/exception.h"
#include "engine/expressions/datetime64.h"

namespace granary::clickbench
{

namespace
{

namespace c = duckdb_c;
constexpr int64_t kMicrosecondsPerSecond = 1'000'000;

/// duckdb_result, destroyed on scope exit (DuckDB requires it even after a failed query).
class ResultHandle
{
public:
    explicit ResultHandle(const DuckDbApi& api) : api_(api) {}
    ~ResultHandle() { api_.destroy_result(&result_); }
    ResultHandle(const ResultHandle&) = delete;
    ResultHandle& operator=(const ResultHandle&) = delete;

    c::Result* get() { return &result_; }

private:
    const DuckDbApi& api_;
    c::Result result_{};
};

class ChunkHandle
{
public:
    ChunkHandle(const DuckDbApi& api, DuckDbApi::Handle chunk) : api_(api), chunk_(chunk) {}
    ~ChunkHandle()
    {
        if (chunk_ != nullptr)
        {
            api_.destroy_data_chunk(&chunk_);
        }
    }
    ChunkHandle(const ChunkHandle&) = delete;
    ChunkHandle& operator=(const ChunkHandle&) = delete;

    DuckDbApi::Handle get() const { return chunk_; }

private:
    const DuckDbApi& api_;
    DuckDbApi::Handle chunk_;
};

std::string quoteIdentifier(std::string_view name)
{
    std::string quoted = "\"";
    for (const char c : name)
    {
        quoted += c;
        if (c == '"')
        {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

c::Type duckDbType(TypeId type)
{
    switch (type)
    {
        case TypeId::UInt8:
            return c::kUTinyInt;
        case TypeId::UInt16:
            return c::kUSmallInt;
        case TypeId::UInt32:
            return c::kUInteger;
        case TypeId::UInt64:
            return c::kUBigInt;
        case TypeId::Int8:
            return c::kTinyInt;
        case TypeId::Int16:
            return c::kSmallInt;
        case TypeId::Int32:
            return c::kInteger;
        case TypeId::Int64:
            return c::kBigInt;
        case TypeId::Float32:
            return c::kFloat;
        case TypeId::Float64:
            return c::kDouble;
        case TypeId::Date:
            return c::kDate;
        case TypeId::DateTime:
            return c::kTimestamp;
        case TypeId::String:
            return c::kVarchar;
        case TypeId::Bool:
            return c::kBoolean;
        case TypeId::DateTime64:  // Scaled to nanoseconds whatever its precision.
            return c::kTimestampNanos;
        case TypeId::Array:
        case TypeId::Map:
        case TypeId::Json:
            break;
    }
    throw Exception(ErrorCode::kNotImplemented,
                    "the DuckDB comparison takes no " + std::string(typeName(type)) + " columns");
}

template <typename T>
T load(const void* data, size_t row)
{
    T value;
    std::memcpy(&value, static_cast<const char*>(data) + row * sizeof(T), sizeof(T));
    return value;
}

/// duckdb_list_entry: a LIST row's elements in its child vector.
struct ListEntry
{
    uint64_t offset;
    uint64_t length;
};

/// A result column's DuckDB type, and a LIST's element type.
struct ResultType
{
    c::Type type;
    c::Type element = c::kBoolean;
};

Value valueOf(c::Type type, const void* data, size_t row, std::string_view column)
{
    switch (type)
    {
        case c::kBoolean:
            return Value::ofInteger(load<uint8_t>(data, row) != 0);
        case c::kTinyInt:
            return Value::ofInteger(load<int8_t>(data, row));
        case c::kSmallInt:
            return Value::ofInteger(load<int16_t>(data, row));
        case c::kInteger:
            return Value::ofInteger(load<int32_t>(data, row));
        case c::kBigInt:
            return Value::ofInteger(load<int64_t>(data, row));
        case c::kUTinyInt:
            return Value::ofInteger(load<uint8_t>(data, row));
        case c::kUSmallInt:
            return Value::ofInteger(load<uint16_t>(data, row));
        case c::kUInteger:
            return Value::ofInteger(load<uint32_t>(data, row));
        case c::kUBigInt:
            return Value::ofInteger(load<uint64_t>(data, row));
        case c::kHugeInt:
        case c::kUHugeInt:
        {
            const auto lower = load<uint64_t>(data, row * 2);
            const auto upper = load<uint64_t>(data, row * 2 + 1);
            const unsigned __int128 bits = (static_cast<unsigned __int128>(upper) << 64) |
                                           static_cast<unsigned __int128>(lower);
            return Value::ofInteger(static_cast<__int128>(bits));
        }
        case c::kFloat:
            return Value::ofFloat(load<float>(data, row));
        case c::kDouble:
            return Value::ofFloat(load<double>(data, row));
        case c::kDate:
            return Value::ofDate(load<int32_t>(data, row));
        case c::kTimestamp:
        case c::kTimestampTz:
            return Value::ofTimestamp(load<int64_t>(data, row));
        case c::kTimestampSeconds:
            return Value::ofTimestamp(load<int64_t>(data, row) * kMicrosecondsPerSecond);
        case c::kTimestampMillis:
            return Value::ofTimestamp(load<int64_t>(data, row) * 1000);
        case c::kTimestampNanos:  // Rounded down, as Granary's DateTime64 results are read.
            return Value::ofTimestamp(microsecondsOf(load<int64_t>(data, row), 9));
        case c::kVarchar:
        case c::kBlob:
        {
            const auto string = load<c::StringValue>(data, row);
            const uint32_t length = string.inlined.length;
            const char* chars =
                length <= c::kStringInlineLength ? string.inlined.chars : string.pointer.data;
            return Value::ofString(std::string(chars, length));
        }
        default:
            throw Exception(ErrorCode::kNotImplemented,
                            "DuckDB result column " + std::string(column) + " has DuckDB type " +
                                std::to_string(static_cast<int>(type)) +
                                ", which the comparison does not read; cast it in the query");
    }
}

/// Row `row` of a result vector: NULL, a value, or a LIST's elements.
Value cellOf(const DuckDbApi& api, DuckDbApi::Handle vector, const ResultType& type, size_t row,
             std::string_view column)
{
    const uint64_t* validity = api.vector_get_validity(vector);
    if (validity != nullptr && ((validity[row / 64] >> (row % 64)) & 1) == 0)
    {
        return Value::null();
    }
    const void* data = api.vector_get_data(vector);
    if (type.type != c::kList)
    {
        return valueOf(type.type, data, row, column);
    }
    const ListEntry entry = load<ListEntry>(data, row);
    const DuckDbApi::Handle child = api.list_vector_get_child(vector);
    std::vector<Value> elements;
    for (uint64_t i = entry.offset; i < entry.offset + entry.length; ++i)
    {
        elements.push_back(cellOf(api, child, {type.element}, i, column));
    }
    return Value::ofList(std::move(elements));
}

/// DuckDB's logical type for `type`: LIST for Array, MAP for Map, else duckDbType's. The
/// caller destroys it.
DuckDbApi::Handle createLogicalType(const DuckDbApi& api, const DataType& type)
{
    if (type.id != TypeId::Array && type.id != TypeId::Map)
    {
        return api.create_logical_type(duckDbType(type.id));
    }
    std::vector<DuckDbApi::Handle> children;
    for (const DataType& child : type.children)
    {
        children.push_back(createLogicalType(api, child));
    }
    DuckDbApi::Handle nested = type.id == TypeId::Array
                                   ? api.create_list_type(children[0])
                                   : api.create_map_type(children[0], children[1]);
    for (DuckDbApi::Handle& child : children)
    {
        api.destroy_logical_type(&child);
    }
    return nested;
}

void fillVector(const DuckDbApi& api, DuckDbApi::Handle vector, const ColumnView& source,
                size_t begin, size_t count);

/// An Array's or Map's rows: DuckDB's list entries, then the elements (a Map's keys and
/// values are the STRUCT child's two vectors) appended to the list's child vector.
void fillListVector(const DuckDbApi& api, DuckDbApi::Handle vector, const ColumnView& source,
                    size_t begin, size_t count)
{
    auto* entries = static_cast<ListEntry*>(api.vector_get_data(vector));
    const uint64_t first = source.offsets[begin];
    const uint64_t elements = source.offsets[begin + count] - first;
    for (size_t row = 0; row < count; ++row)
    {
        entries[row] = {source.offsets[begin + row] - first,
                        source.offsets[begin + row + 1] - source.offsets[begin + row]};
    }
    if (api.list_vector_reserve(vector, elements) != c::kSuccess)
    {
        throw Exception(ErrorCode::kBadArguments, "DuckDB cannot reserve a list of " +
                                                      std::to_string(elements) + " elements");
    }
    const DuckDbApi::Handle child = api.list_vector_get_child(vector);
    if (source.type == TypeId::Array)
    {
        fillVector(api, child, source.children[0], first, elements);
    }
    else
    {
        for (size_t part = 0; part < 2; ++part)
        {
            fillVector(api, api.struct_vector_get_child(child, part), source.children[part], first,
                       elements);
        }
    }
    api.list_vector_set_size(vector, elements);
}

/// Fills column `column` of `chunk` with `count` rows of `source` from `begin`.
void fillVector(const DuckDbApi& api, DuckDbApi::Handle vector, const ColumnView& source,
                size_t begin, size_t count)
{
    if (source.type == TypeId::Array || source.type == TypeId::Map)
    {
        fillListVector(api, vector, source, begin, count);
        return;
    }
    void* target = api.vector_get_data(vector);
    switch (source.type)
    {
        case TypeId::DateTime64:
        {
            const int64_t scale = ticksPerSecond(static_cast<uint8_t>(9 - source.precision));
            for (size_t row = 0; row < count; ++row)
            {
                static_cast<int64_t*>(target)[row] = source.valueAt<int64_t>(begin + row) * scale;
            }
            return;
        }
        case TypeId::String:
            for (size_t row = 0; row < count; ++row)
            {
                const std::string_view text = source.stringAt(begin + row);
                api.vector_assign_string_element_len(vector, row, text.data(), text.size());
            }
            return;
        case TypeId::Date:
            for (size_t row = 0; row < count; ++row)
            {
                static_cast<int32_t*>(target)[row] = source.valueAt<uint16_t>(begin + row);
            }
            return;
        case TypeId::DateTime:
            for (size_t row = 0; row < count; ++row)
            {
                static_cast<int64_t*>(target)[row] =
                    int64_t{source.valueAt<uint32_t>(begin + row)} * kMicrosecondsPerSecond;
            }
            return;
        default:
        {
            const size_t width = fixedWidth(source.type);
            std::memcpy(target, static_cast<const char*>(source.data) + begin * width,
                        count * width);
        }
    }
}

/// An appender on one table, destroyed on scope exit. It takes all the blocks: with one
/// appender per part (a commit per 62k rows) DuckDB spent 7x the CPU, mostly recompressing in
/// the checkpoints after commits; appenders on parallel connections were slower than one.
class TableAppender
{
public:
    TableAppender(const DuckDbApi& api, DuckDbApi::Handle connection, std::string table)
        : api_(api), table_(std::move(table))
    {
        if (api_.appender_create(connection, nullptr, table_.c_str(), &appender_) != c::kSuccess)
        {
            const std::string message = errorMessage("cannot be created");
            api_.appender_destroy(&appender_);
            throw Exception(ErrorCode::kBadArguments, message);
        }
    }
    ~TableAppender()
    {
        for (DuckDbApi::Handle& type : types_)
        {
            api_.destroy_logical_type(&type);
        }
        api_.appender_destroy(&appender_);
    }
    TableAppender(const TableAppender&) = delete;
    TableAppender& operator=(const TableAppender&) = delete;

    /// Appends `block`'s rows one vector of rows per data chunk.
    void append(const BlockView& block)
    {
        block.checkEqualLengths();
        if (types_.empty())
        {
            for (const BlockView::Entry& entry : block.columns)
            {
                types_.push_back(createLogicalType(api_, DataType::of(entry.column)));
            }
        }
        const size_t chunk_rows = api_.vector_size();
        for (size_t begin = 0; begin < block.rows(); begin += chunk_rows)
        {
            const size_t count = std::min(chunk_rows, block.rows() - begin);
            ChunkHandle chunk(api_, api_.create_data_chunk(types_.data(), types_.size()));
            for (size_t column = 0; column < block.columns.size(); ++column)
            {
                fillVector(api_, api_.data_chunk_get_vector(chunk.get(), column),
                           block.columns[column].column, begin, count);
            }
            api_.data_chunk_set_size(chunk.get(), count);
            if (api_.append_data_chunk(appender_, chunk.get()) != c::kSuccess)
            {
                fail("rejected a chunk");
            }
        }
    }

    void close()
    {
        if (api_.appender_close(appender_) != c::kSuccess)
        {
            fail("failed to flush");
        }
    }

private:
    std::string errorMessage(std::string_view what) const
    {
        const char* reason = appender_ != nullptr ? api_.appender_error(appender_) : nullptr;
        return "DuckDB appender for table " + table_ + " " + std::string(what) + ": " +
               (reason != nullptr ? reason : "");
    }
    [[noreturn]] void fail(std::string_view what)
    {
        throw Exception(ErrorCode::kBadArguments, errorMessage(what));
    }

    const DuckDbApi& api_;
    std::string table_;
    DuckDbApi::Handle appender_ = nullptr;
    std::vector<DuckDbApi::Handle> types_;
};

}  // namespace

std::string_view duckDbTypeName(TypeId type)
{
    switch (duckDbType(type))
    {
        case c::kUTinyInt:
            return "UTINYINT";
        case c::kUSmallInt:
            return "USMALLINT";
        case c::kUInteger:
            return "UINTEGER";
        case c::kUBigInt:
            return "UBIGINT";
        case c::kTinyInt:
            return "TINYINT";
        case c::kSmallInt:
            return "SMALLINT";
        case c::kInteger:
            return "INTEGER";
        case c::kBigInt:
            return "BIGINT";
        case c::kFloat:
            return "FLOAT";
        case c::kDouble:
            return "DOUBLE";
        case c::kDate:
            return "DATE";
        case c::kTimestamp:
            return "TIMESTAMP";
        case c::kTimestampNanos:
            return "TIMESTAMP_NS";
        case c::kBoolean:
            return "BOOLEAN";
        default:
            return "VARCHAR";
    }
}

std::string duckDbTypeName(const DataType& type)
{
    switch (type.id)
    {
        case TypeId::Array:
            return duckDbTypeName(type.element()) + "[]";
        case TypeId::Map:
            return "MAP(" + duckDbTypeName(type.key()) + ", " + duckDbTypeName(type.value()) + ")";
        default:
            return std::string(duckDbTypeName(type.id));
    }
}

DuckDbClient::DuckDbClient(DuckDbApi api, const std::filesystem::path& database_file)
    : api_(std::move(api))
{
    const std::string path = database_file.string();
    if (api_.open(path.empty() ? nullptr : path.c_str(), &database_) != c::kSuccess)
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "DuckDB (" + api_.library_path.string() + ") cannot open " +
                            (path.empty() ? std::string("a database") : path));
    }
    if (api_.connect(database_, &connection_) != c::kSuccess)
    {
        api_.close(&database_);
        throw Exception(ErrorCode::kCannotOpenFile, "DuckDB cannot connect to its database");
    }
}

DuckDbClient::~DuckDbClient()
{
    api_.disconnect(&connection_);
    api_.close(&database_);
}

TimedResult DuckDbClient::query(std::string_view sql)
{
    const std::string text(sql);
    ResultHandle result(api_);
    const auto start = std::chrono::steady_clock::now();
    const c::State state = api_.query(connection_, text.c_str(), result.get());
    TimedResult timed;
    timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (state != c::kSuccess)
    {
        const char* message = api_.result_error(result.get());
        throw Exception(ErrorCode::kBadArguments,
                        "DuckDB: " + std::string(message != nullptr ? message : "query failed"));
    }
    const size_t columns = api_.column_count(result.get());
    std::vector<ResultType> types(columns);
    for (size_t column = 0; column < columns; ++column)
    {
        timed.table.column_names.emplace_back(api_.column_name(result.get(), column));
        types[column].type = api_.column_type(result.get(), column);
        if (types[column].type == c::kList)
        {
            DuckDbApi::Handle list = api_.column_logical_type(result.get(), column);
            DuckDbApi::Handle element = api_.list_type_child_type(list);
            types[column].element = api_.get_type_id(element);
            api_.destroy_logical_type(&element);
            api_.destroy_logical_type(&list);
        }
    }
    while (true)
    {
        ChunkHandle chunk(api_, api_.fetch_chunk(*result.get()));
        if (chunk.get() == nullptr)
        {
            break;
        }
        const size_t rows = api_.data_chunk_get_size(chunk.get());
        if (rows == 0)
        {
            break;
        }
        const size_t first_row = timed.table.rows.size();
        timed.table.rows.resize(first_row + rows, std::vector<Value>(columns));
        for (size_t column = 0; column < columns; ++column)
        {
            DuckDbApi::Handle vector = api_.data_chunk_get_vector(chunk.get(), column);
            for (size_t row = 0; row < rows; ++row)
            {
                timed.table.rows[first_row + row][column] =
                    cellOf(api_, vector, types[column], row, timed.table.column_names[column]);
            }
        }
    }
    return timed;
}

void DuckDbClient::execute(std::string_view sql)
{
    const std::string text(sql);
    ResultHandle result(api_);
    if (api_.query(connection_, text.c_str(), result.get()) != c::kSuccess)
    {
        const char* message = api_.result_error(result.get());
        throw Exception(
            ErrorCode::kBadArguments,
            "DuckDB: " + std::string(message != nullptr ? message : "statement failed") +
                " in: " + text);
    }
}

void DuckDbClient::createTable(std::string_view table, const BlockView& block)
{
    std::vector<std::pair<std::string, DataType>> columns;
    for (const BlockView::Entry& entry : block.columns)
    {
        columns.emplace_back(entry.name, DataType::of(entry.column));
    }
    createTable(table, columns);
}

void DuckDbClient::createTable(std::string_view table,
                               const std::vector<std::pair<std::string, DataType>>& columns)
{
    std::string sql = "CREATE TABLE " + quoteIdentifier(table) + " (";
    for (size_t i = 0; i < columns.size(); ++i)
    {
        sql += (i == 0 ? "" : ", ") + quoteIdentifier(columns[i].first) + " " +
               duckDbTypeName(columns[i].second.valueType()) + " NOT NULL";
    }
    execute(sql + ")");
}

void DuckDbClient::append(std::string_view table, const std::vector<BlockView>& blocks)
{
    append(table,
           [&](const std::function<void(const BlockView&)>& append_block)
           {
               for (const BlockView& block : blocks)
               {
                   append_block(block);
               }
           });
}

void DuckDbClient::append(
    std::string_view table,
    const std::function<void(const std::function<void(const BlockView&)>&)>& write_blocks)
{
    TableAppender appender(api_, connection_, std::string(table));
    write_blocks([&](const BlockView& block) { appender.append(block); });
    appender.close();
}

}  // namespace granary::clickbench
