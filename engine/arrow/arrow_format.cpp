#include "engine/arrow/arrow_format.h"

#include <array>

#include "engine/columns/types.h"
#include "engine/common/exception.h"

namespace granary::arrow
{

namespace
{

struct NamedFormat
{
    std::string_view format;
    ArrowFormat layout;
};

/// Formats that are one fixed string each (timestamps carry a time zone and are parsed apart).
constexpr std::array kExactFormats = {
    NamedFormat{"c", {TypeId::Int8, ArrowLayout::kFixedWidth, 1}},
    NamedFormat{"C", {TypeId::UInt8, ArrowLayout::kFixedWidth, 1}},
    NamedFormat{"s", {TypeId::Int16, ArrowLayout::kFixedWidth, 2}},
    NamedFormat{"S", {TypeId::UInt16, ArrowLayout::kFixedWidth, 2}},
    NamedFormat{"i", {TypeId::Int32, ArrowLayout::kFixedWidth, 4}},
    NamedFormat{"I", {TypeId::UInt32, ArrowLayout::kFixedWidth, 4}},
    NamedFormat{"l", {TypeId::Int64, ArrowLayout::kFixedWidth, 8}},
    NamedFormat{"L", {TypeId::UInt64, ArrowLayout::kFixedWidth, 8}},
    NamedFormat{"f", {TypeId::Float32, ArrowLayout::kFixedWidth, 4}},
    NamedFormat{"g", {TypeId::Float64, ArrowLayout::kFixedWidth, 8}},
    NamedFormat{"b", {TypeId::UInt8, ArrowLayout::kBoolean, 0}},
    NamedFormat{"tdD", {TypeId::Int32, ArrowLayout::kFixedWidth, 4}},
    NamedFormat{"tdm", {TypeId::Int64, ArrowLayout::kFixedWidth, 8}},
    NamedFormat{"u", {TypeId::String, ArrowLayout::kUtf8, 0}},
    NamedFormat{"U", {TypeId::String, ArrowLayout::kLargeUtf8, 0}},
    // Binary has utf8's layouts; Granary's String holds any bytes (partial states).
    NamedFormat{"z", {TypeId::String, ArrowLayout::kUtf8, 0}},
    NamedFormat{"Z", {TypeId::String, ArrowLayout::kLargeUtf8, 0}},
};

/// "ts" + unit (s, m, u, n) + ":" + an optional time zone.
bool isTimestampFormat(std::string_view format)
{
    constexpr std::string_view kPrefix = "ts";
    constexpr std::string_view kUnits = "smun";
    constexpr size_t kColonPosition = 3;
    return format.size() > kColonPosition && format.starts_with(kPrefix) &&
           kUnits.find(format[kPrefix.size()]) != std::string_view::npos &&
           format[kColonPosition] == ':';
}

}  // namespace

std::optional<ArrowFormat> parseArrowFormat(std::string_view format)
{
    for (const NamedFormat& known : kExactFormats)
    {
        if (known.format == format)
        {
            return known.layout;
        }
    }
    if (isTimestampFormat(format))
    {
        return ArrowFormat{TypeId::Int64, ArrowLayout::kFixedWidth, sizeof(int64_t)};
    }
    return std::nullopt;
}

bool isIntegerFormat(std::string_view format)
{
    // Dates and timestamps hold integers too, but are not index types: those are one letter.
    const std::optional<ArrowFormat> parsed = parseArrowFormat(format);
    return format.size() == 1 && parsed && parsed->layout == ArrowLayout::kFixedWidth &&
           isInteger(parsed->type);
}

int64_t bufferCount(ArrowLayout layout)
{
    constexpr int64_t kValidityAndValues = 2;
    constexpr int64_t kValidityOffsetsAndChars = 3;
    const bool is_string = layout == ArrowLayout::kUtf8 || layout == ArrowLayout::kLargeUtf8;
    return is_string ? kValidityOffsetsAndChars : kValidityAndValues;
}

std::string_view defaultArrowFormat(TypeId type)
{
    switch (type)
    {
        case TypeId::UInt8:
            return "C";
        case TypeId::UInt16:
            return "S";
        case TypeId::UInt32:
            return "I";
        case TypeId::UInt64:
            return "L";
        case TypeId::Int8:
            return "c";
        case TypeId::Int16:
            return "s";
        case TypeId::Int32:
            return "i";
        case TypeId::Int64:
            return "l";
        case TypeId::Float32:
            return "f";
        case TypeId::Float64:
            return "g";
        case TypeId::Date:
            return "tdD";
        case TypeId::DateTime:
            return "tss:";
        case TypeId::String:
            return "U";
        // Arrow's boolean is bit-packed and its timestamps carry a unit a TypeId lacks: the
        // values go out as their storage integers.
        case TypeId::Bool:
            return "C";
        case TypeId::DateTime64:
            return "l";
        case TypeId::Array:  // Granary's uint64 offsets are large_list's int64 ones.
            return kLargeListFormat;
        case TypeId::Map:
        case TypeId::Json:
            break;
    }
    throw Exception(ErrorCode::kNotImplemented,
                    "Arrow export of " + std::string(typeName(type)) + " columns");
}

}  // namespace granary::arrow
