#include "engine/ingest/json_values.h"

#include <fmt/format.h>

#include <cstring>
#include <type_traits>
#include <utility>

#include "engine/common/exception.h"
#include "engine/common/var_uint.h"
#include "engine/formats/format_writers.h"
#include "engine/storage/value_parser.h"

namespace granary::ingest
{
namespace
{

using Type = simdjson::dom::element_type;
using dynamic::TypeCode;

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

/// Appends a JSON number to a numeric column, range-checked (kCannotParseInput); Date and
/// DateTime take it as days or seconds, as ClickHouse does.
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

template <typename T>
void appendTaggedFixed(TypeCode code, T value, std::string& out)
{
    out += static_cast<char>(code);
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

void appendTaggedString(std::string_view text, std::string& out)
{
    out += static_cast<char>(TypeCode::String);
    appendVarUInt(text.size(), out);
    out += text;
}

/// Flattens objects into (path, tagged value) pairs and counts the paths against the limit.
class ObjectFlattener
{
public:
    /// Visits each non-null leaf of `object` as (dotted path, element).
    template <typename Visit>
    void flatten(simdjson::dom::object object, std::string& prefix, Visit&& visit)
    {
        for (const simdjson::dom::key_value_pair field : object)
        {
            const size_t mark = prefix.size();
            if (mark != 0)
            {
                prefix += '.';
            }
            prefix += field.key;
            if (field.value.type() == Type::OBJECT)
            {
                flatten(field.value.get_object().value_unsafe(), prefix, visit);
            }
            else if (field.value.type() != Type::NULL_VALUE)
            {
                if (++paths_ > dynamic::kMaxJsonPaths)
                {
                    throw Exception(
                        ErrorCode::kLimitExceeded,
                        fmt::format("JSON object of more than {} paths", dynamic::kMaxJsonPaths));
                }
                visit(std::string_view(prefix), field.value);
            }
            prefix.resize(mark);
        }
    }

private:
    uint64_t paths_ = 0;
};

void appendTagged(simdjson::dom::element value, std::string& out);

/// An object inside an array: JSON type code, then the object's paths, each tagged.
void appendTaggedObject(simdjson::dom::object object, std::string& out)
{
    dynamic::BinaryType json;
    json.code = TypeCode::Json;
    dynamic::appendTypeCode(json, out);
    std::vector<std::pair<std::string, std::string>> paths;
    std::string prefix;
    ObjectFlattener().flatten(object, prefix,
                              [&](std::string_view path, simdjson::dom::element leaf)
                              {
                                  paths.emplace_back(path, std::string());
                                  appendTagged(leaf, paths.back().second);
                              });
    appendVarUInt(paths.size(), out);
    for (const auto& [path, tagged] : paths)
    {
        appendVarUInt(path.size(), out);
        out += path;
        out += tagged;
    }
}

void appendTagged(simdjson::dom::element value, std::string& out)
{
    switch (value.type())
    {
        case Type::INT64:
            appendTaggedFixed(TypeCode::Int64, value.get_int64().value_unsafe(), out);
            return;
        case Type::UINT64:
            appendTaggedFixed(TypeCode::UInt64, value.get_uint64().value_unsafe(), out);
            return;
        case Type::DOUBLE:
            appendTaggedFixed(TypeCode::Float64, value.get_double().value_unsafe(), out);
            return;
        case Type::BOOL:
            appendTaggedFixed<uint8_t>(TypeCode::Bool, value.get_bool().value_unsafe() ? 1 : 0,
                                       out);
            return;
        case Type::STRING:
            appendTaggedString(value.get_string().value_unsafe(), out);
            return;
        case Type::NULL_VALUE:
            out += static_cast<char>(TypeCode::Nothing);
            return;
        case Type::ARRAY:
        {
            // Array(Dynamic(max_types = 32)), as ClickHouse infers arrays of mixed values.
            out += static_cast<char>(TypeCode::Array);
            out += static_cast<char>(TypeCode::Dynamic);
            out += static_cast<char>(32);
            const simdjson::dom::array array = value.get_array().value_unsafe();
            appendVarUInt(array.size(), out);
            for (const simdjson::dom::element element : array)
            {
                appendTagged(element, out);
            }
            return;
        }
        case Type::OBJECT:
            appendTaggedObject(value.get_object().value_unsafe(), out);
            return;
    }
}

/// A typed path's value: converted to its type, then written untagged in RowBinary.
void appendTyped(simdjson::dom::element value, const DataType& type, std::string& out)
{
    if (isNested(type.id))
    {
        throw Exception(ErrorCode::kTypeMismatch, "typed JSON paths of type " + dataTypeName(type) +
                                                      " are read from RowBinary only");
    }
    Column column(type.valueType());
    appendJsonScalar(value, column);
    format_writers::appendRowBinaryValue(column.view(), 0, out);
}

}  // namespace

void appendJsonScalar(simdjson::dom::element value, Column& column)
{
    const bool text_column = isString(column.type());
    switch (value.type())
    {
        case Type::NULL_VALUE:
            column.appendMissing(1);
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
    throw Exception(ErrorCode::kTypeMismatch, fmt::format("this JSON value cannot fill a {} column",
                                                          typeName(column.type())));
}

void appendJsonText(std::string_view text, const JsonColumnCodec& codec, Column& column)
{
    // One parser per thread keeps its buffers from value to value.
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element value;
    const simdjson::error_code error = parser.parse(text.data(), text.size()).get(value);
    if (error != simdjson::SUCCESS)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("JSON text: {}", simdjson::error_message(error)));
    }
    if (value.type() == Type::NULL_VALUE)
    {
        column.closeNestedRow();
        return;
    }
    if (value.type() != Type::OBJECT)
    {
        throw Exception(ErrorCode::kTypeMismatch, "JSON text of a JSON column is not an object");
    }
    appendJsonObject(value.get_object().value_unsafe(), codec, column);
}

void appendJsonObject(simdjson::dom::object object, const JsonColumnCodec& codec, Column& column)
{
    std::string prefix;
    std::string value;
    ObjectFlattener().flatten(object, prefix,
                              [&](std::string_view path, simdjson::dom::element leaf)
                              {
                                  value.clear();
                                  const size_t typed = codec.typedPathIndex(path);
                                  if (typed == dynamic::npos)
                                  {
                                      appendTagged(leaf, value);
                                  }
                                  else
                                  {
                                      appendTyped(leaf, codec.typedPathType(typed), value);
                                  }
                                  codec.appendPath(path, typed, value, column);
                              });
    column.closeNestedRow();
}

}  // namespace granary::ingest
