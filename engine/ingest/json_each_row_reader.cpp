#include "engine/ingest/json_each_row_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "engine/common/exception.h"
#include "engine/ingest/insert_input.h"
#include "engine/storage/value_parser.h"

namespace granary::ingest
{
namespace
{

/// Rows per block, as the binary reader.
constexpr size_t kBlockRows = 65536;

/// Appends `text` parsed as the column's type (range-checked), or kCannotParseInput.
void appendText(std::string_view text, Column& column)
{
    const ParseStatus status = appendParsedValue(text, column);
    if (status != ParseStatus::kOk)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        parseFailureMessage(text, column.type(), status));
    }
}

/// Appends a JSON number to a numeric column, range-checked (kValueOutOfRangeOfDataType);
/// Date and DateTime take it as days or seconds, as ClickHouse does.
template <typename Number>
void appendNumber(Number number, Column& column)
{
    dispatchFixedType(
        column.type(),
        [&]<typename T>(TypeTag<T>)
        {
            if constexpr (std::is_floating_point_v<T>)
            {
                column.append<T>(static_cast<T>(number));
            }
            else if constexpr (std::is_floating_point_v<Number>)
            {
                const T value = static_cast<T>(number);
                if (static_cast<Number>(value) != number)
                {
                    throw Exception(ErrorCode::kCannotParseInput,
                                    fmt::format("{} is not a {}", number, typeName(column.type())));
                }
                column.append<T>(value);
            }
            else
            {
                if (!std::in_range<T>(number))
                {
                    throw Exception(ErrorCode::kCannotParseInput,
                                    fmt::format("{} is out of the range of {}", number,
                                                typeName(column.type())));
                }
                column.append<T>(static_cast<T>(number));
            }
        });
}

/// Decodes one object per line with simdjson's DOM parser (SIMD kernels chosen at run time by
/// the library): values go straight from the parsed tape into the columns.
class JsonRowDecoder
{
public:
    JsonRowDecoder(const TableSchema& schema, const std::vector<size_t>& field_columns)
        : schema_(schema), seen_(schema.columns.size())
    {
        for (const size_t column : field_columns)
        {
            allowed_.emplace(schema.columns[column].name, column);
        }
    }

    /// `line` lies inside a buffer with at least SIMDJSON_PADDING readable bytes past its end.
    void decodeLine(const char* line, size_t length, Block& block)
    {
        simdjson::dom::element row;
        const simdjson::error_code error = parser_.parse(line, length, false).get(row);
        if (error != simdjson::SUCCESS)
        {
            throw Exception(ErrorCode::kCannotParseInput, simdjson::error_message(error));
        }
        simdjson::dom::object object;
        if (row.get_object().get(object) != simdjson::SUCCESS)
        {
            throw Exception(ErrorCode::kCannotParseInput, "a row is not a JSON object");
        }
        std::fill(seen_.begin(), seen_.end(), false);
        size_t position = 0;
        for (const simdjson::dom::key_value_pair field : object)
        {
            const size_t index = columnOf(field.key, position++);
            if (seen_[index])
            {
                throw Exception(ErrorCode::kIncorrectData,
                                fmt::format("field '{}' given twice", field.key));
            }
            seen_[index] = true;
            appendValue(field.value, index, block.columns[index].column);
        }
        for (size_t index = 0; index < seen_.size(); ++index)
        {
            if (!seen_[index])
            {
                block.columns[index].column.appendDefaults(1);
            }
        }
    }

private:
    /// The column of the `position`-th key of a row. Rows of one writer list their keys in
    /// the same order: the previous row's column at this position is tried before the hash.
    size_t columnOf(std::string_view key, size_t position)
    {
        if (position < key_order_.size() && schema_.columns[key_order_[position]].name == key)
        {
            return key_order_[position];
        }
        const auto found = allowed_.find(key);
        if (found == allowed_.end())
        {
            throw Exception(ErrorCode::kIncorrectData, fmt::format("unknown field '{}'", key));
        }
        key_order_.resize(std::max(key_order_.size(), position + 1));
        key_order_[position] = found->second;
        return found->second;
    }

    void appendValue(simdjson::dom::element value, size_t index, Column& column) const
    {
        using Type = simdjson::dom::element_type;
        try
        {
            const bool text_column = isString(column.type());
            switch (value.type())
            {
                case Type::NULL_VALUE:
                    column.appendDefaults(1);
                    return;
                case Type::STRING:
                {
                    const std::string_view text = value.get_string().value_unsafe();
                    text_column ? column.appendString(text) : appendText(text, column);
                    return;
                }
                case Type::BOOL:
                    if (!text_column)
                    {
                        appendNumber<int64_t>(value.get_bool().value_unsafe() ? 1 : 0, column);
                        return;
                    }
                    break;
                case Type::INT64:
                    if (!text_column)
                    {
                        appendNumber(value.get_int64().value_unsafe(), column);
                        return;
                    }
                    break;
                case Type::UINT64:
                    if (!text_column)
                    {
                        appendNumber(value.get_uint64().value_unsafe(), column);
                        return;
                    }
                    break;
                case Type::DOUBLE:
                    if (!text_column)
                    {
                        appendNumber(value.get_double().value_unsafe(), column);
                        return;
                    }
                    break;
                default:
                    break;
            }
            throw Exception(
                ErrorCode::kTypeMismatch,
                fmt::format("this JSON value cannot fill a {} column", typeName(column.type())));
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(), fmt::format("column '{}': {}",
                                                      schema_.columns[index].name, error.what()));
        }
    }

    const TableSchema& schema_;
    std::unordered_map<std::string_view, size_t> allowed_;
    std::vector<bool> seen_;
    std::vector<size_t> key_order_;
    simdjson::dom::parser parser_;
};

}  // namespace

std::vector<Block> readJsonEachRow(const TableSchema& schema,
                                   const std::vector<size_t>& field_columns, std::string_view text,
                                   bool padded)
{
    // simdjson reads up to SIMDJSON_PADDING bytes past a document: the text itself when the
    // caller left that much room after it, else one padded copy serves every line.
    static_assert(kInputPaddingBytes >= simdjson::SIMDJSON_PADDING);
    std::optional<simdjson::padded_string> copy;
    if (!padded)
    {
        copy.emplace(text.data(), text.size());
    }
    const char* base = padded ? text.data() : copy->data();
    JsonRowDecoder decoder(schema, field_columns);
    std::vector<Block> blocks;
    Block block = schema.emptyBlock();
    size_t line_number = 0;
    size_t position = 0;
    while (position < text.size())
    {
        const size_t end = std::min(text.find('\n', position), text.size());
        const std::string_view line = text.substr(position, end - position);
        const size_t start = position;
        position = end + 1;
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
        {
            continue;
        }
        try
        {
            decoder.decodeLine(base + start, line.size(), block);
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(),
                            fmt::format("JSONEachRow line {}: {}", line_number, error.what()));
        }
        if (block.rows() == kBlockRows)
        {
            blocks.push_back(std::exchange(block, schema.emptyBlock()));
        }
    }
    if (block.rows() > 0)
    {
        blocks.push_back(std::move(block));
    }
    return blocks;
}

}  // namespace granary::ingest
