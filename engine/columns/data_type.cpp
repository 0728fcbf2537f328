#include "engine/columns/data_type.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>

#include "engine/common/exception.h"

namespace granary
{

DataType DataType::dateTime64(uint8_t precision)
{
    DataType type(TypeId::DateTime64);
    type.precision = precision;
    return type;
}

DataType DataType::array(DataType element)
{
    DataType type;
    type.id = TypeId::Array;
    type.children.push_back(std::move(element));
    return type;
}

DataType DataType::map(DataType key, DataType value)
{
    DataType type;
    type.id = TypeId::Map;
    type.children.push_back(std::move(key));
    type.children.push_back(std::move(value));
    return type;
}

DataType DataType::lowCardinality(DataType values)
{
    values.low_cardinality = true;
    return values;
}

DataType DataType::makeNullable(DataType values)
{
    values.nullable = true;
    return values;
}

DataType DataType::withoutNullable() const
{
    DataType type = *this;
    type.nullable = false;
    return type;
}

DataType DataType::json()
{
    DataType type;
    type.id = TypeId::Json;
    type.children = {DataType(TypeId::String), DataType(TypeId::String)};
    return type;
}

DataType DataType::aggregateState(std::string function, std::vector<double> parameters,
                                  std::vector<DataType> arguments)
{
    DataType type(TypeId::String);
    type.state_function = std::move(function);
    type.state_parameters = std::move(parameters);
    type.state_arguments = std::move(arguments);
    return type;
}

DataType DataType::of(const ColumnView& view)
{
    if (view.type == TypeId::Json)
    {
        return json();
    }
    DataType type(view.type);
    type.precision = view.precision;
    type.nullable = view.hasValidity();
    for (size_t i = 0; i < nestedChildCount(view.type); ++i)
    {
        type.children.push_back(of(view.children[i]));
    }
    return type;
}

DataType binaryFormatType(const DataType& type)
{
    return type.isAggregateState() ? DataType(TypeId::String) : type;
}

DataType DataType::valueType() const
{
    if (id == TypeId::Json)
    {
        return json();  // Typed and SKIP paths shape the input only: stored values are tagged.
    }
    if (isAggregateState())
    {
        return DataType(TypeId::String);
    }
    DataType type = *this;
    type.low_cardinality = false;
    for (DataType& child : type.children)
    {
        child = child.valueType();
    }
    return type;
}

namespace
{

/// A path as ClickHouse prints it in a type: backquoted unless letters, digits, '_' and '.'.
std::string pathName(const std::string& path)
{
    const bool plain =
        !path.empty() && std::all_of(path.begin(), path.end(),
                                     [](char c) {
                                         return std::isalnum(static_cast<unsigned char>(c)) ||
                                                c == '_' || c == '.';
                                     });
    return plain ? path : "`" + path + "`";
}

/// A parameter as written: the shortest text that reads back as the same double.
std::string parameterText(double value)
{
    char text[32];
    const auto printed = std::to_chars(text, text + sizeof(text), value);
    return std::string(text, printed.ptr);
}

std::string aggregateStateTypeName(const DataType& type)
{
    std::string name = "AggregateFunction(" + type.state_function;
    for (size_t i = 0; i < type.state_parameters.size(); ++i)
    {
        name += (i == 0 ? "(" : ", ") + parameterText(type.state_parameters[i]);
    }
    name += type.state_parameters.empty() ? "" : ")";
    for (const DataType& argument : type.state_arguments)
    {
        name += ", " + dataTypeName(argument);
    }
    return name + ")";
}

std::string jsonTypeName(const DataType& type)
{
    std::vector<std::string> parameters;
    for (size_t i = 0; i < type.typed_paths.size(); ++i)
    {
        parameters.push_back(pathName(type.typed_paths[i]) + " " +
                             dataTypeName(type.typed_path_types[i]));
    }
    for (const std::string& path : type.skipped_paths)
    {
        parameters.push_back("SKIP " + pathName(path));
    }
    std::string name = "JSON";
    for (size_t i = 0; i < parameters.size(); ++i)
    {
        name += (i == 0 ? "(" : ", ") + parameters[i];
    }
    return parameters.empty() ? name : name + ")";
}

}  // namespace

std::string dataTypeName(const DataType& type)
{
    if (type.isAggregateState())
    {
        return aggregateStateTypeName(type);
    }
    std::string name;
    switch (type.id)
    {
        case TypeId::DateTime64:
            name = "DateTime64(" + std::to_string(type.precision) + ")";
            break;
        case TypeId::Array:
            name = "Array(" + dataTypeName(type.element()) + ")";
            break;
        case TypeId::Map:
            name = "Map(" + dataTypeName(type.key()) + ", " + dataTypeName(type.value()) + ")";
            break;
        case TypeId::Json:
            name = jsonTypeName(type);
            break;
        default:
            name = std::string(typeName(type.id));
            break;
    }
    name = type.nullable ? "Nullable(" + name + ")" : name;
    return type.low_cardinality ? "LowCardinality(" + name + ")" : name;
}

namespace
{

/// Deeper type names are refused: names come from clients, and every level recurses.
constexpr size_t kMaxTypeNesting = 32;

/// Recursive descent over ClickHouse type names; `text_` is the whole name, for messages.
class TypeNameParser
{
public:
    explicit TypeNameParser(std::string_view text) : text_(text) {}

    DataType parseWhole()
    {
        DataType type = parseType();
        skipSpaces();
        if (at_ != text_.size())
        {
            fail("unexpected '" + std::string(text_.substr(at_)) + "' after the type");
        }
        return type;
    }

private:
    DataType parseType()
    {
        if (++depth_ > kMaxTypeNesting)
        {
            fail("nested deeper than " + std::to_string(kMaxTypeNesting) + " levels");
        }
        DataType type = parseFamily();
        --depth_;
        return type;
    }

    DataType parseFamily()
    {
        const std::string_view family = word();
        if (family == "Array")
        {
            expect('(');
            DataType element = parseType();
            expect(')');
            refuseNullableIn("an Array", element);
            return DataType::array(std::move(element));
        }
        if (family == "Map")
        {
            expect('(');
            DataType key = parseType();
            expect(',');
            DataType value = parseType();
            expect(')');
            if (isNested(key.id) || isFloat(key.id))
            {
                fail("a Map key cannot be " + dataTypeName(key));
            }
            refuseNullableIn("a Map", key);
            refuseNullableIn("a Map", value);
            return DataType::map(std::move(key), std::move(value));
        }
        if (family == "JSON")
        {
            return parseJson();
        }
        if (family == "LowCardinality")
        {
            expect('(');
            DataType values = parseType();
            expect(')');
            if (values.id != TypeId::String || values.low_cardinality)
            {
                fail("LowCardinality takes String (Granary keeps other types as they are), not " +
                     dataTypeName(values));
            }
            return DataType::lowCardinality(std::move(values));
        }
        if (family == "Nullable")
        {
            expect('(');
            DataType values = parseType();
            expect(')');
            if (values.nullable || values.low_cardinality || isNested(values.id) ||
                values.isAggregateState())
            {
                fail("Nullable takes a scalar type, not " + dataTypeName(values));
            }
            return DataType::makeNullable(std::move(values));
        }
        if (family == "DateTime64")
        {
            return parseDateTime64();
        }
        if (family == "AggregateFunction")
        {
            return parseAggregateState();
        }
        if (family == "DateTime" && accept('('))
        {
            timeZone();
            expect(')');
            return DataType(TypeId::DateTime);
        }
        if (family == "Boolean")
        {
            return DataType(TypeId::Bool);
        }
        if (const std::optional<TypeId> scalar = typeFromName(family))
        {
            return DataType(*scalar);
        }
        fail("unknown type '" + std::string(family) + "'");
    }

    /// Nested columns keep no validity for their elements (storage has no file for it).
    void refuseNullableIn(const std::string& outer, const DataType& inner)
    {
        if (inner.nullable)
        {
            fail(outer + " cannot hold " + dataTypeName(inner) +
                 " (Nullable elements are not "
                 "supported)");
        }
    }

    /// AggregateFunction(name[(parameters)][, T...]); the function itself is checked where
    /// the aggregation library is known (CREATE TABLE, fMerge).
    DataType parseAggregateState()
    {
        expect('(');
        std::string function(word());
        std::vector<double> parameters;
        if (accept('('))
        {
            do
            {
                parameters.push_back(parameter());
            } while (accept(','));
            expect(')');
        }
        std::vector<DataType> arguments;
        while (accept(','))
        {
            DataType argument = parseType();
            if (argument.isAggregateState() || isNested(argument.id))
            {
                fail("an aggregate state's argument cannot be " + dataTypeName(argument));
            }
            arguments.push_back(std::move(argument));
        }
        expect(')');
        return DataType::aggregateState(std::move(function), std::move(parameters),
                                        std::move(arguments));
    }

    /// A number parameter: what from_chars reads as a double ("0.5", "-1e3", "10").
    double parameter()
    {
        skipSpaces();
        double value = 0;
        const char* begin = text_.data() + at_;
        const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), value);
        if (error != std::errc() || end == begin)
        {
            fail("expected a number parameter at offset " + std::to_string(at_));
        }
        at_ += static_cast<size_t>(end - begin);
        return value;
    }

    DataType parseDateTime64()
    {
        uint8_t precision = DataType::kDefaultDateTime64Precision;
        if (accept('('))
        {
            skipSpaces();
            size_t digits = 0;
            unsigned value = 0;
            while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])))
            {
                value = value * 10 + static_cast<unsigned>(text_[at_++] - '0');
                if (++digits > 2)
                {
                    break;
                }
            }
            if (digits == 0 || value > DataType::kMaxDateTime64Precision)
            {
                fail("DateTime64 takes a precision from 0 to 9");
            }
            precision = static_cast<uint8_t>(value);
            if (accept(','))
            {
                timeZone();
            }
            expect(')');
        }
        return DataType::dateTime64(precision);
    }

    /// JSON's parameters: typed paths, SKIP paths, and the limits on dynamic paths and types
    /// ClickHouse keeps (accepted, with no effect here: every path is kept).
    DataType parseJson()
    {
        DataType type = DataType::json();
        if (!accept('(') || accept(')'))
        {
            return type;
        }
        if (depth_ > 1)
        {
            fail("a JSON inside another type takes no parameters");
        }
        do
        {
            const std::string path = jsonPath();
            if (path == "max_dynamic_paths" || path == "max_dynamic_types")
            {
                expect('=');
                number();
            }
            else if (path == "SKIP")
            {
                if (peekWord("REGEXP"))
                {
                    fail("SKIP REGEXP is not supported (SKIP takes paths)");
                }
                type.skipped_paths.push_back(jsonPath());
            }
            else
            {
                type.typed_paths.push_back(path);
                type.typed_path_types.push_back(parseType());
                if (type.typed_path_types.back().id == TypeId::Json)
                {
                    fail("typed path '" + path + "' cannot be JSON: its paths are the object's");
                }
            }
        } while (accept(','));
        expect(')');
        return type;
    }

    /// A path in JSON(...): `any text` or letters, digits, '_' and '.'.
    std::string jsonPath()
    {
        if (accept('`'))
        {
            const size_t end = text_.find('`', at_);
            if (end == std::string_view::npos)
            {
                fail("unclosed ` in a JSON path");
            }
            const std::string path(text_.substr(at_, end - at_));
            at_ = end + 1;
            return path;
        }
        skipSpaces();
        const size_t begin = at_;
        while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) ||
                                      text_[at_] == '_' || text_[at_] == '.'))
        {
            ++at_;
        }
        if (begin == at_)
        {
            fail("expected a JSON path at offset " + std::to_string(at_));
        }
        return std::string(text_.substr(begin, at_ - begin));
    }

    bool peekWord(std::string_view word)
    {
        skipSpaces();
        if (text_.substr(at_).starts_with(word))
        {
            at_ += word.size();
            return true;
        }
        return false;
    }

    void number()
    {
        skipSpaces();
        const size_t begin = at_;
        while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])))
        {
            ++at_;
        }
        if (begin == at_)
        {
            fail("expected a number at offset " + std::to_string(at_));
        }
    }

    /// 'UTC' only: values are kept and shown in UTC whatever the column says.
    void timeZone()
    {
        skipSpaces();
        const std::string_view rest = text_.substr(at_);
        for (const std::string_view zone : {"'UTC'", "'Etc/UTC'"})
        {
            if (rest.starts_with(zone))
            {
                at_ += zone.size();
                return;
            }
        }
        fail("only the time zone 'UTC' is supported");
    }

    std::string_view word()
    {
        skipSpaces();
        const size_t begin = at_;
        while (at_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
        {
            ++at_;
        }
        if (begin == at_)
        {
            fail("expected a type name at offset " + std::to_string(at_));
        }
        return text_.substr(begin, at_ - begin);
    }

    bool accept(char c)
    {
        skipSpaces();
        if (at_ < text_.size() && text_[at_] == c)
        {
            ++at_;
            return true;
        }
        return false;
    }

    void expect(char c)
    {
        if (!accept(c))
        {
            fail(std::string("expected '") + c + "' at offset " + std::to_string(at_));
        }
    }

    void skipSpaces()
    {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])))
        {
            ++at_;
        }
    }

    [[noreturn]] void fail(const std::string& message) const
    {
        throw Exception(ErrorCode::kUnknownType,
                        "Bad type '" + std::string(text_) + "': " + message);
    }

    std::string_view text_;
    size_t at_ = 0;
    size_t depth_ = 0;
};

}  // namespace

DataType parseDataType(std::string_view text)
{
    return TypeNameParser(text).parseWhole();
}

}  // namespace granary
