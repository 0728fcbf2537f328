#include "engine/formats/dynamic_value.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "engine/common/var_uint.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"

namespace granary::dynamic
{
namespace
{

using ingest::BinaryCursor;
using ingest::BinaryLimits;

/// JSON's type encoding starts with this serialization version.
constexpr uint8_t kJsonEncodingVersion = 0;

/// Codes ClickHouse defines whose types Granary does not hold, by name for the message.
constexpr std::array<std::pair<uint8_t, std::string_view>, 21> kUnsupportedCodes = {{
    {0x05, "UInt128"},
    {0x06, "UInt256"},
    {0x0B, "Int128"},
    {0x0C, "Int256"},
    {0x10, "Date32"},
    {0x12, "DateTime with a time zone"},
    {0x14, "DateTime64 with a time zone"},
    {0x17, "Enum8"},
    {0x18, "Enum16"},
    {0x19, "Decimal32"},
    {0x1A, "Decimal64"},
    {0x1B, "Decimal128"},
    {0x1C, "Decimal256"},
    {0x1D, "UUID"},
    {0x20, "named Tuple"},
    {0x22, "Interval"},
    {0x28, "IPv4"},
    {0x29, "IPv6"},
    {0x2A, "Variant"},
    {0x2C, "a custom type"},
    {0x2F, "Nested"},
}};

/// The TypeId of a code whose value is one fixed-width number, or nothing.
std::optional<TypeId> fixedTypeOf(TypeCode code)
{
    switch (code)
    {
        case TypeCode::UInt8:
            return TypeId::UInt8;
        case TypeCode::UInt16:
            return TypeId::UInt16;
        case TypeCode::UInt32:
            return TypeId::UInt32;
        case TypeCode::UInt64:
            return TypeId::UInt64;
        case TypeCode::Int8:
            return TypeId::Int8;
        case TypeCode::Int16:
            return TypeId::Int16;
        case TypeCode::Int32:
            return TypeId::Int32;
        case TypeCode::Int64:
            return TypeId::Int64;
        case TypeCode::Float32:
            return TypeId::Float32;
        case TypeCode::Float64:
            return TypeId::Float64;
        case TypeCode::Date:
            return TypeId::Date;
        case TypeCode::DateTime:
            return TypeId::DateTime;
        case TypeCode::DateTime64:
            return TypeId::DateTime64;
        case TypeCode::Bool:
            return TypeId::Bool;
        default:
            return std::nullopt;
    }
}

void readJsonType(BinaryCursor& cursor, BinaryType& type, size_t depth)
{
    const auto version = cursor.readFixed<uint8_t>();
    if (version != kJsonEncodingVersion)
    {
        cursor.fail(ErrorCode::kIncorrectData, fmt::format("JSON type encoding version {}, not {}",
                                                           version, kJsonEncodingVersion));
    }
    cursor.readVarUInt();         // max_dynamic_paths: Granary keeps every path.
    cursor.readFixed<uint8_t>();  // max_dynamic_types
    const BinaryLimits limits;
    const uint64_t typed = cursor.readElementCount(limits);
    for (uint64_t i = 0; i < typed; ++i)
    {
        type.typed_paths.emplace_back(cursor.readString(limits));
        type.children.push_back(readType(cursor, depth + 1));
    }
    for (int list = 0; list < 2; ++list)  // SKIP paths, then SKIP REGEXP patterns: no effect here.
    {
        const uint64_t count = cursor.readElementCount(limits);
        for (uint64_t i = 0; i < count; ++i)
        {
            cursor.readString(limits);
        }
    }
}

/// A copy of the fixed-width value at `bytes`, as a one-row view (values in Dynamic bytes are
/// not aligned for their type).
struct FixedValue
{
    uint64_t storage = 0;
    ColumnView view;

    FixedValue(TypeId type, uint8_t precision, std::string_view bytes)
    {
        std::memcpy(&storage, bytes.data(), bytes.size());
        view = ColumnView::of(type, &storage, 1);
        view.precision = precision;
    }
};

class TextWriter
{
public:
    TextWriter(TextStyle style, std::string& out) : style_(style), out_(out) {}

    void tagged(BinaryCursor& cursor, bool inside, size_t depth)
    {
        const BinaryType type = readType(cursor, depth);
        value(cursor, type, inside, depth);
    }

    void value(BinaryCursor& cursor, const BinaryType& type, bool inside, size_t depth)
    {
        checkDepth(cursor, depth);
        switch (type.code)
        {
            case TypeCode::Nothing:
                null();
                return;
            case TypeCode::String:
                string(cursor.readString(kNoLimits), inside);
                return;
            case TypeCode::FixedString:
                string(cursor.readBytes(type.parameter), inside);
                return;
            case TypeCode::Array:
            case TypeCode::Map:
            case TypeCode::Tuple:
                sequence(cursor, type, depth);
                return;
            case TypeCode::Nullable:
                cursor.readFixed<uint8_t>() != 0
                    ? null()
                    : value(cursor, type.children[0], inside, depth + 1);
                return;
            case TypeCode::LowCardinality:
                value(cursor, type.children[0], inside, depth + 1);
                return;
            case TypeCode::Dynamic:
                tagged(cursor, inside, depth + 1);
                return;
            case TypeCode::Json:
                object(cursor, type, depth);
                return;
            default:
                fixed(cursor, type, inside);
                return;
        }
    }

private:
    static constexpr BinaryLimits kNoLimits{};  // The bytes were checked when they came in.

    void null() { out_ += style_ == TextStyle::kJson ? "null" : "NULL"; }

    void string(std::string_view text, bool inside)
    {
        if (style_ == TextStyle::kJson)
        {
            appendJsonString(text, out_);
        }
        else if (inside)
        {
            out_ += '\'';
            appendTsvEscaped(text, out_);
            out_ += '\'';
        }
        else
        {
            out_ += text;
        }
    }

    void fixed(BinaryCursor& cursor, const BinaryType& type, bool inside)
    {
        const TypeId id = *fixedTypeOf(type.code);
        const FixedValue fixed(id, static_cast<uint8_t>(type.parameter),
                               cursor.readBytes(fixedWidth(id)));
        const bool quoted =
            id == TypeId::Date || id == TypeId::DateTime || id == TypeId::DateTime64;
        if (quoted && (style_ == TextStyle::kJson || inside))
        {
            string(formatValue(fixed.view, 0), inside);
            return;
        }
        const size_t start = out_.size();
        appendValue(fixed.view, 0, out_);
        const std::string_view text = std::string_view(out_).substr(start);
        if (style_ == TextStyle::kJson && isFloat(id) &&
            (text == "nan" || text == "inf" || text == "-inf"))
        {
            out_.resize(start);
            out_ += "null";  // JSON has no NaN or infinity.
        }
    }

    /// Array [a,b], Tuple [a,b] in JSON and (a,b) in text, Map {k:v}.
    void sequence(BinaryCursor& cursor, const BinaryType& type, size_t depth)
    {
        const bool is_map = type.code == TypeCode::Map;
        const bool is_tuple = type.code == TypeCode::Tuple;
        const uint64_t count = is_tuple ? type.children.size() : cursor.readVarUInt();
        const bool text_tuple = is_tuple && style_ == TextStyle::kText;
        out_ += is_map ? '{' : text_tuple ? '(' : '[';
        for (uint64_t i = 0; i < count; ++i)
        {
            out_ += i == 0 ? "" : ",";
            if (is_map)
            {
                mapKey(cursor, type.children[0], depth);
                out_ += ':';
            }
            const BinaryType& element = is_tuple ? type.children[i] : type.children[is_map ? 1 : 0];
            value(cursor, element, true, depth + 1);
        }
        out_ += is_map ? '}' : text_tuple ? ')' : ']';
    }

    /// JSON object keys are strings whatever the key's type.
    void mapKey(BinaryCursor& cursor, const BinaryType& key, size_t depth)
    {
        if (style_ == TextStyle::kText)
        {
            value(cursor, key, true, depth + 1);
            return;
        }
        std::string text;
        TextWriter(TextStyle::kText, text).value(cursor, key, false, depth + 1);
        appendJsonString(text, out_);
    }

    void object(BinaryCursor& cursor, const BinaryType& type, size_t depth)
    {
        std::vector<PathValue> paths;
        readJsonObject(
            cursor, type.typed_paths, type.children, kNoLimits,
            [&](const PathValue& path) { paths.push_back(path); }, depth + 1);
        appendJsonObjectText(paths, out_);
    }

    TextStyle style_;
    std::string& out_;
};

/// Appends one path's value as JSON.
void appendPathValue(const PathValue& path, std::string& out)
{
    BinaryCursor cursor(path.value);
    TextWriter writer(TextStyle::kJson, out);
    path.type ? writer.value(cursor, *path.type, true, 0) : writer.tagged(cursor, true, 0);
}

std::vector<std::string_view> splitPath(std::string_view path)
{
    std::vector<std::string_view> parts;
    size_t begin = 0;
    while (true)
    {
        const size_t dot = path.find('.', begin);
        parts.push_back(path.substr(begin, dot - begin));
        if (dot == std::string_view::npos)
        {
            return parts;
        }
        begin = dot + 1;
    }
}

}  // namespace

void checkDepth(const BinaryCursor& cursor, size_t depth)
{
    if (depth > kMaxDepth)
    {
        cursor.fail(ErrorCode::kIncorrectData,
                    fmt::format("value nested deeper than {} levels", kMaxDepth));
    }
}

BinaryType readType(BinaryCursor& cursor, size_t depth)
{
    checkDepth(cursor, depth);
    const auto byte = cursor.readFixed<uint8_t>();
    BinaryType type;
    type.code = static_cast<TypeCode>(byte);
    switch (type.code)
    {
        case TypeCode::DateTime64:
            type.parameter = cursor.readFixed<uint8_t>();
            if (type.parameter > DataType::kMaxDateTime64Precision)
            {
                cursor.fail(ErrorCode::kIncorrectData,
                            fmt::format("DateTime64 precision {}", type.parameter));
            }
            return type;
        case TypeCode::FixedString:
            type.parameter = cursor.readVarUInt();
            cursor.require(type.parameter);  // A FixedString value is that many bytes.
            return type;
        case TypeCode::Array:
        case TypeCode::Nullable:
        case TypeCode::LowCardinality:
            type.children.push_back(readType(cursor, depth + 1));
            return type;
        case TypeCode::Map:
            type.children.push_back(readType(cursor, depth + 1));
            type.children.push_back(readType(cursor, depth + 1));
            return type;
        case TypeCode::Tuple:
        {
            const uint64_t count = cursor.readElementCount(BinaryLimits{});
            for (uint64_t i = 0; i < count; ++i)
            {
                type.children.push_back(readType(cursor, depth + 1));
            }
            return type;
        }
        case TypeCode::Dynamic:
            cursor.readFixed<uint8_t>();  // max_types: Granary keeps every type.
            return type;
        case TypeCode::Json:
            readJsonType(cursor, type, depth);
            return type;
        case TypeCode::Nothing:
        case TypeCode::String:
            return type;
        default:
            if (fixedTypeOf(type.code))
            {
                return type;
            }
            for (const auto& [code, name] : kUnsupportedCodes)
            {
                if (code == byte)
                {
                    cursor.fail(
                        ErrorCode::kNotImplemented,
                        fmt::format("type code 0x{:02X} ({}) is not supported", byte, name));
                }
            }
            cursor.fail(ErrorCode::kIncorrectData,
                        fmt::format("Unknown type code: 0x{:02X}", byte));
    }
}

void skipValue(BinaryCursor& cursor, const BinaryType& type, const BinaryLimits& limits,
               size_t depth)
{
    checkDepth(cursor, depth);
    switch (type.code)
    {
        case TypeCode::Nothing:
            return;
        case TypeCode::String:
            cursor.readString(limits);
            return;
        case TypeCode::FixedString:
            cursor.readBytes(type.parameter);
            return;
        case TypeCode::Array:
        case TypeCode::Map:
        {
            const uint64_t count = cursor.readElementCount(limits);
            for (uint64_t i = 0; i < count; ++i)
            {
                for (const BinaryType& child : type.children)
                {
                    skipValue(cursor, child, limits, depth + 1);
                }
            }
            return;
        }
        case TypeCode::Tuple:
            for (const BinaryType& child : type.children)
            {
                skipValue(cursor, child, limits, depth + 1);
            }
            return;
        case TypeCode::Nullable:
            if (cursor.readZeroOrOne("Nullable flag") == 0)
            {
                skipValue(cursor, type.children[0], limits, depth + 1);
            }
            return;
        case TypeCode::LowCardinality:
            skipValue(cursor, type.children[0], limits, depth + 1);
            return;
        case TypeCode::Dynamic:
            skipValue(cursor, readType(cursor, depth + 1), limits, depth + 1);
            return;
        case TypeCode::Json:
            readJsonObject(
                cursor, type.typed_paths, type.children, limits, [](const PathValue&) {},
                depth + 1);
            return;
        case TypeCode::Bool:
            cursor.readZeroOrOne("Bool byte");
            return;
        default:
            cursor.readBytes(fixedWidth(*fixedTypeOf(type.code)));
            return;
    }
}

BinaryType binaryTypeOf(const DataType& type)
{
    BinaryType binary;
    switch (type.id)
    {
        case TypeId::UInt8:
            binary.code = TypeCode::UInt8;
            break;
        case TypeId::UInt16:
            binary.code = TypeCode::UInt16;
            break;
        case TypeId::UInt32:
            binary.code = TypeCode::UInt32;
            break;
        case TypeId::UInt64:
            binary.code = TypeCode::UInt64;
            break;
        case TypeId::Int8:
            binary.code = TypeCode::Int8;
            break;
        case TypeId::Int16:
            binary.code = TypeCode::Int16;
            break;
        case TypeId::Int32:
            binary.code = TypeCode::Int32;
            break;
        case TypeId::Int64:
            binary.code = TypeCode::Int64;
            break;
        case TypeId::Float32:
            binary.code = TypeCode::Float32;
            break;
        case TypeId::Float64:
            binary.code = TypeCode::Float64;
            break;
        case TypeId::Date:
            binary.code = TypeCode::Date;
            break;
        case TypeId::DateTime:
            binary.code = TypeCode::DateTime;
            break;
        case TypeId::String:
            binary.code = TypeCode::String;
            break;
        case TypeId::Bool:
            binary.code = TypeCode::Bool;
            break;
        case TypeId::DateTime64:
            binary.code = TypeCode::DateTime64;
            binary.parameter = type.precision;
            break;
        case TypeId::Array:
            binary.code = TypeCode::Array;
            binary.children.push_back(binaryTypeOf(type.element()));
            break;
        case TypeId::Map:
            binary.code = TypeCode::Map;
            binary.children.push_back(binaryTypeOf(type.key()));
            binary.children.push_back(binaryTypeOf(type.value()));
            break;
        case TypeId::Json:
            binary.code = TypeCode::Json;
            binary.typed_paths = type.typed_paths;
            for (const DataType& typed : type.typed_path_types)
            {
                binary.children.push_back(binaryTypeOf(typed));
            }
            break;
    }
    return binary;
}

void appendTypeCode(const BinaryType& type, std::string& out)
{
    out += static_cast<char>(type.code);
    switch (type.code)
    {
        case TypeCode::DateTime64:
            out += static_cast<char>(type.parameter);
            return;
        case TypeCode::FixedString:
            appendVarUInt(type.parameter, out);
            return;
        case TypeCode::Tuple:
            appendVarUInt(type.children.size(), out);
            break;
        case TypeCode::Dynamic:
            out += static_cast<char>(0);
            return;
        case TypeCode::Json:
            out += static_cast<char>(kJsonEncodingVersion);
            appendVarUInt(0, out);        // max_dynamic_paths
            out += static_cast<char>(0);  // max_dynamic_types
            appendVarUInt(type.typed_paths.size(), out);
            for (size_t i = 0; i < type.typed_paths.size(); ++i)
            {
                appendVarUInt(type.typed_paths[i].size(), out);
                out += type.typed_paths[i];
                appendTypeCode(type.children[i], out);
            }
            appendVarUInt(0, out);  // SKIP paths
            appendVarUInt(0, out);  // SKIP REGEXP patterns
            return;
        default:
            break;
    }
    for (const BinaryType& child : type.children)
    {
        appendTypeCode(child, out);
    }
}

void appendTaggedText(std::string_view tagged, TextStyle style, std::string& out)
{
    BinaryCursor cursor(tagged);
    TextWriter(style, out).tagged(cursor, false, 0);
}

void appendJsonObjectText(std::vector<PathValue>& paths, std::string& out)
{
    std::sort(paths.begin(), paths.end(),
              [](const PathValue& a, const PathValue& b) { return a.path < b.path; });
    std::vector<std::string_view> open;  // The objects open around the next path.
    out += '{';
    bool first = true;
    for (const PathValue& path : paths)
    {
        const std::vector<std::string_view> parts = splitPath(path.path);
        size_t common = 0;
        while (common < open.size() && common + 1 < parts.size() && open[common] == parts[common])
        {
            ++common;
        }
        for (; open.size() > common; open.pop_back())
        {
            out += '}';
            first = false;  // The closed object was an entry of its parent.
        }
        for (size_t i = common; i + 1 < parts.size(); ++i)
        {
            out += first ? "" : ",";
            appendJsonString(parts[i], out);
            out += ":{";
            open.push_back(parts[i]);
            first = true;
        }
        out += first ? "" : ",";
        first = false;
        appendJsonString(parts.back(), out);
        out += ':';
        appendPathValue(path, out);
    }
    out.append(open.size(), '}');
    out += '}';
}

size_t typedPathIndex(const std::vector<std::string>& typed_paths, std::string_view path)
{
    for (size_t i = 0; i < typed_paths.size(); ++i)
    {
        if (typed_paths[i] == path)
        {
            return i;
        }
    }
    return npos;
}

bool isSkippedPath(const std::vector<std::string>& skipped_paths, std::string_view path)
{
    return std::any_of(skipped_paths.begin(), skipped_paths.end(),
                       [&](const std::string& skipped)
                       {
                           return path.starts_with(skipped) &&
                                  (path.size() == skipped.size() || path[skipped.size()] == '.');
                       });
}

}  // namespace granary::dynamic
