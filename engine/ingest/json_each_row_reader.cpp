#include "engine/ingest/json_each_row_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "engine/common/exception.h"
#include "engine/ingest/insert_input.h"
#include "engine/ingest/json_values.h"

namespace granary::ingest
{
namespace
{

/// Rows per block, as the binary reader.
constexpr size_t kBlockRows = 65536;

/// Decodes one object per line with simdjson's DOM parser (SIMD kernels chosen at run time by
/// the library): values go straight from the parsed tape into the columns.
class JsonRowDecoder
{
public:
    JsonRowDecoder(const TableSchema& schema, const std::vector<size_t>& field_columns)
        : schema_(schema), json_codecs_(schema.columns.size()), seen_(schema.columns.size())
    {
        for (const size_t column : field_columns)
        {
            allowed_.emplace(schema.columns[column].name, column);
            if (schema.columns[column].type.id == TypeId::Json)
            {
                json_codecs_[column].emplace(schema.columns[column].type);
            }
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
                block.columns[index].column.appendMissing(1);
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
        try
        {
            const std::optional<JsonColumnCodec>& json = json_codecs_[index];
            if (!json)
            {
                appendJsonScalar(value, column);
            }
            else if (value.type() == simdjson::dom::element_type::OBJECT)
            {
                appendJsonObject(value.get_object().value_unsafe(), *json, column);
            }
            else if (value.type() == simdjson::dom::element_type::NULL_VALUE)
            {
                column.appendDefaults(1);
            }
            else
            {
                throw Exception(ErrorCode::kTypeMismatch, "a JSON column takes objects");
            }
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(), fmt::format("column '{}': {}",
                                                      schema_.columns[index].name, error.what()));
        }
    }

    const TableSchema& schema_;
    std::unordered_map<std::string_view, size_t> allowed_;
    std::vector<std::optional<JsonColumnCodec>> json_codecs_;  ///< Per schema column.
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
