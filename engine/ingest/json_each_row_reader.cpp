#include "engine/ingest/json_each_row_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <unordered_map>

#include "engine/common/exception.h"
#include "engine/storage/value_parser.h"

namespace granary::ingest
{
namespace
{

/// Rows per block, as the binary reader.
constexpr size_t kBlockRows = 65536;

void appendDefault(Column& column)
{
    if (isString(column.type()))
    {
        column.appendString({});
    }
    else
    {
        column.resizeFixed(column.size() + 1);
    }
}

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

std::string_view trimmed(std::string_view token)
{
    const size_t end = token.find_last_not_of(" \t\r\n");
    return token.substr(0, end == std::string_view::npos ? 0 : end + 1);
}

/// Decodes one object per line with simdjson's On-Demand parser: values are read straight
/// from the text into the columns, with no document tree in between.
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

    /// `line` lies inside a buffer with at least `capacity` readable bytes from its start
    /// (simdjson reads past the end of what it parses).
    void decodeLine(const char* line, size_t length, size_t capacity, Block& block)
    {
        simdjson::ondemand::document document =
            parser_.iterate(simdjson::padded_string_view(line, length, capacity));
        simdjson::ondemand::object object;
        if (document.get_object().get(object) != simdjson::SUCCESS)
        {
            throw Exception(ErrorCode::kCannotParseInput, "a row is not a JSON object");
        }
        std::fill(seen_.begin(), seen_.end(), false);
        for (simdjson::ondemand::field field : object)
        {
            const std::string_view key = field.unescaped_key();
            const auto found = allowed_.find(key);
            if (found == allowed_.end())
            {
                throw Exception(ErrorCode::kIncorrectData, fmt::format("unknown field '{}'", key));
            }
            const size_t index = found->second;
            if (seen_[index])
            {
                throw Exception(ErrorCode::kIncorrectData,
                                fmt::format("field '{}' given twice", key));
            }
            seen_[index] = true;
            appendValue(field.value(), index, block.columns[index].column);
        }
        // Past the object, current_location() finds a token only where text follows.
        if (document.current_location().error() == simdjson::SUCCESS)
        {
            throw Exception(ErrorCode::kCannotParseInput, "text after the row's object");
        }
        for (size_t index = 0; index < seen_.size(); ++index)
        {
            if (!seen_[index])
            {
                appendDefault(block.columns[index].column);
            }
        }
    }

private:
    void appendValue(simdjson::ondemand::value value, size_t index, Column& column) const
    {
        try
        {
            switch (value.type())
            {
                case simdjson::ondemand::json_type::null:
                    appendDefault(column);
                    return;
                case simdjson::ondemand::json_type::string:
                {
                    const std::string_view text = value.get_string();
                    isString(column.type()) ? column.appendString(text) : appendText(text, column);
                    return;
                }
                case simdjson::ondemand::json_type::boolean:
                    if (!isString(column.type()))
                    {
                        appendText(value.get_bool() ? "1" : "0", column);
                        return;
                    }
                    break;
                case simdjson::ondemand::json_type::number:
                    if (!isString(column.type()))
                    {
                        appendText(trimmed(value.raw_json_token()), column);
                        return;
                    }
                    break;
                default:
                    break;
            }
            throw Exception(ErrorCode::kTypeMismatch,
                            fmt::format("this JSON value cannot fill a {} column",
                                        typeName(column.type())));
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
    simdjson::ondemand::parser parser_;
};

}  // namespace

std::vector<Block> readJsonEachRow(const TableSchema& schema,
                                   const std::vector<size_t>& field_columns,
                                   std::string_view text)
{
    // simdjson reads up to SIMDJSON_PADDING bytes past a document: one padded copy serves
    // every line.
    const simdjson::padded_string padded(text.data(), text.size());
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
            decoder.decodeLine(padded.data() + start, line.size(),
                               padded.size() + simdjson::SIMDJSON_PADDING - start, block);
        }
        catch (const simdjson::simdjson_error& error)
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            fmt::format("JSONEachRow line {}: {}", line_number, error.what()));
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
