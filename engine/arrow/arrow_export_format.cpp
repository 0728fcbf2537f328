#include "engine/arrow/arrow_export_format.h"

#include <optional>

#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_format.h"

namespace granary::arrow
{

namespace
{

constexpr std::string_view kDate32Format = "tdD";
constexpr std::string_view kSecondsTimestampPrefix = "tss:";

/// The conversion from `type` to `format`; nullopt when the format does not hold the type.
std::optional<ExportConversion> conversionTo(TypeId type, std::string_view format)
{
    if (type == TypeId::Array)
    {
        return format == kLargeListFormat ? std::optional(ExportConversion::kNone) : std::nullopt;
    }
    if (type == TypeId::Date)
    {
        return format == kDate32Format ? std::optional(ExportConversion::kWidenDate) : std::nullopt;
    }
    if (type == TypeId::DateTime)
    {
        return format.starts_with(kSecondsTimestampPrefix)
                   ? std::optional(ExportConversion::kWidenDateTime)
                   : std::nullopt;
    }
    const std::optional<ArrowFormat> parsed = parseArrowFormat(format);
    if (!parsed || parsed->type != type)
    {
        return std::nullopt;
    }
    switch (parsed->layout)
    {
        case ArrowLayout::kBoolean:
            return ExportConversion::kPackBits;
        case ArrowLayout::kUtf8:
            return ExportConversion::kNarrowOffsets;
        case ArrowLayout::kFixedWidth:
        case ArrowLayout::kLargeUtf8:
            return ExportConversion::kNone;
    }
    __builtin_unreachable();
}

}  // namespace

ExportFormat resolveExportFormat(TypeId type, std::string_view requested, std::string_view subject)
{
    const std::string_view format = requested.empty() ? defaultArrowFormat(type) : requested;
    const std::optional<ExportConversion> conversion = conversionTo(type, format);
    if (!conversion)
    {
        throwArrowError(ErrorCode::kTypeMismatch, subject,
                        "a " + std::string(typeName(type)) +
                            " column cannot be exported as Arrow format '" + std::string(format) +
                            "'");
    }
    return {std::string(format), *conversion};
}

}  // namespace granary::arrow
