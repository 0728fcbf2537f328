#include "engine/ingest/json_each_row_reader.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unordered_set>

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

/// The text a JSON scalar stands for in the column's type; nullopt for null.
std::optional<std::string> valueText(const nlohmann::json& value, TypeId type)
{
    switch (value.type())
    {
        case nlohmann::json::value_t::null:
            return std::nullopt;
        case nlohmann::json::value_t::string:
            return value.get<std::string>();
        case nlohmann::json::value_t::boolean:
            return std::string(value.get<bool>() ? "1" : "0");
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float:
            if (isString(type))
            {
                break;
            }
            return value.dump();
        default:
            break;
    }
    throw Exception(ErrorCode::kTypeMismatch, fmt::format("a JSON {} cannot fill a {} column",
                                                          value.type_name(), typeName(type)));
}

class JsonRowDecoder
{
public:
    JsonRowDecoder(const TableSchema& schema, const std::vector<size_t>& field_columns)
        : schema_(schema), allowed_(schema.columns.size(), false), seen_(schema.columns.size())
    {
        for (const size_t column : field_columns)
        {
            allowed_[column] = true;
        }
    }

    void decodeLine(std::string_view line, Block& block)
    {
        // The DOM keeps one value per key: duplicates are caught while parsing.
        keys_.clear();
        const nlohmann::json row = nlohmann::json::parse(
            line,
            [this](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed)
            {
                if (depth == 1 && event == nlohmann::json::parse_event_t::key &&
                    !keys_.insert(parsed.get<std::string>()).second)
                {
                    throw Exception(
                        ErrorCode::kIncorrectData,
                        fmt::format("field '{}' given twice", parsed.get<std::string>()));
                }
                return true;
            });
        if (!row.is_object())
        {
            throw Exception(ErrorCode::kCannotParseInput, "a row is not a JSON object");
        }
        std::fill(seen_.begin(), seen_.end(), false);
        for (const auto& [key, value] : row.items())
        {
            const std::optional<size_t> index = schema_.indexOf(key);
            if (!index || !allowed_[*index])
            {
                throw Exception(ErrorCode::kIncorrectData, fmt::format("unknown field '{}'", key));
            }
            seen_[*index] = true;
            appendValue(value, *index, block.columns[*index].column);
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
    void appendValue(const nlohmann::json& value, size_t index, Column& column) const
    {
        try
        {
            const std::optional<std::string> text = valueText(value, column.type());
            if (!text)
            {
                appendDefault(column);
                return;
            }
            const ParseStatus status = appendParsedValue(*text, column);
            if (status != ParseStatus::kOk)
            {
                throw Exception(ErrorCode::kCannotParseInput,
                                parseFailureMessage(*text, column.type(), status));
            }
        }
        catch (const Exception& error)
        {
            throw Exception(error.code(), fmt::format("column '{}': {}",
                                                      schema_.columns[index].name, error.what()));
        }
    }

    const TableSchema& schema_;
    std::vector<bool> allowed_;
    std::vector<bool> seen_;
    std::unordered_set<std::string> keys_;
};

}  // namespace

std::vector<Block> readJsonEachRow(const TableSchema& schema,
                                   const std::vector<size_t>& field_columns, std::string_view text)
{
    JsonRowDecoder decoder(schema, field_columns);
    std::vector<Block> blocks;
    Block block = schema.emptyBlock();
    size_t line_number = 0;
    size_t position = 0;
    while (position < text.size())
    {
        const size_t end = std::min(text.find('\n', position), text.size());
        const std::string_view line = text.substr(position, end - position);
        position = end + 1;
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
        {
            continue;
        }
        try
        {
            decoder.decodeLine(line, block);
        }
        catch (const nlohmann::json::exception& error)
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
