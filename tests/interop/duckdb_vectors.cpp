#include "tests/interop/duckdb_vectors.h"

#include <stdexcept>
#include <string_view>

#include "tests/arrow/column_rendering.h"

namespace granary::interop
{

namespace
{

using clickbench::duckdb_c::StringValue;
using clickbench::duckdb_c::Type;
constexpr size_t kValidityBitsPerWord = 64;

/// DuckDB's validity mask: bit row % 64 of word row / 64; no mask means every row is valid.
bool isValid(const uint64_t* validity, size_t row)
{
    return validity == nullptr ||
           ((validity[row / kValidityBitsPerWord] >> (row % kValidityBitsPerWord)) & 1) != 0;
}

std::string_view stringOf(const StringValue& value)
{
    if (value.inlined.length <= clickbench::duckdb_c::kStringInlineLength)
    {
        return {value.inlined.chars, value.inlined.length};
    }
    return {value.pointer.data, value.pointer.length};
}

/// Rows of a vector whose values are `Stored`, written as Granary writes `Rendered`.
template <typename Stored, typename Rendered = Stored>
std::vector<std::string> renderVector(const void* data, const uint64_t* validity, size_t rows)
{
    std::vector<std::string> rendered;
    const auto* values = static_cast<const Stored*>(data);
    for (size_t row = 0; row < rows; ++row)
    {
        if (!isValid(validity, row))
        {
            rendered.emplace_back(arrow::testing::kNullText);
        }
        else if constexpr (std::is_same_v<Stored, StringValue>)
        {
            rendered.push_back(arrow::testing::renderValue(stringOf(values[row])));
        }
        else
        {
            rendered.push_back(arrow::testing::renderValue(static_cast<Rendered>(values[row])));
        }
    }
    return rendered;
}

}  // namespace

std::vector<std::string> renderDuckDbColumn(const DuckDbArrowApi& api,
                                            const DuckDbSession::Chunk& chunk, size_t column)
{
    const DuckDbArrowApi::Handle vector = api.core.data_chunk_get_vector(chunk.chunk, column);
    const void* data = api.core.vector_get_data(vector);
    const uint64_t* validity = api.core.vector_get_validity(vector);
    switch (chunk.types[column])
    {
        case Type::kBoolean:
            return renderVector<bool, uint8_t>(data, validity, chunk.rows);
        case Type::kTinyInt:
            return renderVector<int8_t>(data, validity, chunk.rows);
        case Type::kSmallInt:
            return renderVector<int16_t>(data, validity, chunk.rows);
        case Type::kInteger:
        case Type::kDate:
            return renderVector<int32_t>(data, validity, chunk.rows);
        case Type::kBigInt:
        case Type::kTimestamp:
        case Type::kTimestampSeconds:
        case Type::kTimestampMillis:
        case Type::kTimestampNanos:
        case Type::kTimestampTz:
            return renderVector<int64_t>(data, validity, chunk.rows);
        case Type::kUTinyInt:
            return renderVector<uint8_t>(data, validity, chunk.rows);
        case Type::kUSmallInt:
            return renderVector<uint16_t>(data, validity, chunk.rows);
        case Type::kUInteger:
            return renderVector<uint32_t>(data, validity, chunk.rows);
        case Type::kUBigInt:
            return renderVector<uint64_t>(data, validity, chunk.rows);
        case Type::kFloat:
            return renderVector<float>(data, validity, chunk.rows);
        case Type::kDouble:
            return renderVector<double>(data, validity, chunk.rows);
        case Type::kVarchar:
            return renderVector<StringValue>(data, validity, chunk.rows);
        default:
            throw std::runtime_error("DuckDB type " + std::to_string(chunk.types[column]) +
                                     " of column " + std::to_string(column) +
                                     " is not read by the interop tests");
    }
}

}  // namespace granary::interop
