#include "engine/storage/value_parser.h"

#include <charconv>
#include <limits>
#include <optional>
#include <type_traits>

#include "engine/common/civil_date.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

constexpr size_t kQuotedTextLimit = 64;

/// Exactly `digits` decimal digits at `text[position]`.
bool readDigits(std::string_view text, size_t position, size_t digits, unsigned& value)
{
    if (position + digits > text.size())
    {
        return false;
    }
    value = 0;
    for (size_t index = position; index < position + digits; ++index)
    {
        if (text[index] < '0' || text[index] > '9')
        {
            return false;
        }
        value = value * 10 + static_cast<unsigned>(text[index] - '0');
    }
    return true;
}

/// 'YYYY-MM-DD' at the start of text; days since the epoch, or nullopt. '0000-00-00' is 0.
std::optional<int64_t> readDate(std::string_view text)
{
    unsigned year, month, day;
    if (text.size() < 10 || !readDigits(text, 0, 4, year) || text[4] != '-' ||
        !readDigits(text, 5, 2, month) || text[7] != '-' || !readDigits(text, 8, 2, day))
    {
        return std::nullopt;
    }
    if (year == 0 && month == 0 && day == 0)
    {
        return 0;
    }
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    {
        return std::nullopt;
    }
    return daysFromCivil({year, month, day});
}

template <typename T>
ParseStatus parseFloatImpl(std::string_view text, T& value)
{
    if (!text.empty() && text.front() == '+')
    {
        text.remove_prefix(1);
    }
    if (text.empty())
    {
        return ParseStatus::kMalformed;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size())
    {
        return ParseStatus::kMalformed;
    }
    if (error == std::errc::result_out_of_range)
    {
        return ParseStatus::kOutOfRange;
    }
    return error == std::errc() ? ParseStatus::kOk : ParseStatus::kMalformed;
}

int hexDigit(char digit)
{
    if (digit >= '0' && digit <= '9')
    {
        return digit - '0';
    }
    if (digit >= 'a' && digit <= 'f')
    {
        return digit - 'a' + 10;
    }
    if (digit >= 'A' && digit <= 'F')
    {
        return digit - 'A' + 10;
    }
    return -1;
}

}  // namespace

template <typename T>
ParseStatus parseInteger(std::string_view text, T& value)
{
    if (!text.empty() && text.front() == '+')
    {
        text.remove_prefix(1);
    }
    if (text.empty())
    {
        return ParseStatus::kMalformed;
    }
    if constexpr (std::is_unsigned_v<T>)
    {
        if (text.front() == '-')
        {
            // "-5" into an unsigned type is a range error; "-x" stays malformed.
            int64_t negative;
            return parseInteger(text, negative) == ParseStatus::kMalformed
                       ? ParseStatus::kMalformed
                       : (negative == 0 ? (value = 0, ParseStatus::kOk) : ParseStatus::kOutOfRange);
        }
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size() || (error != std::errc() && end == text.data()))
    {
        return ParseStatus::kMalformed;
    }
    if (error == std::errc::result_out_of_range)
    {
        return ParseStatus::kOutOfRange;
    }
    return error == std::errc() ? ParseStatus::kOk : ParseStatus::kMalformed;
}

template ParseStatus parseInteger(std::string_view, uint8_t&);
template ParseStatus parseInteger(std::string_view, uint16_t&);
template ParseStatus parseInteger(std::string_view, uint32_t&);
template ParseStatus parseInteger(std::string_view, uint64_t&);
template ParseStatus parseInteger(std::string_view, int8_t&);
template ParseStatus parseInteger(std::string_view, int16_t&);
template ParseStatus parseInteger(std::string_view, int32_t&);
template ParseStatus parseInteger(std::string_view, int64_t&);

ParseStatus parseFloat(std::string_view text, float& value)
{
    return parseFloatImpl(text, value);
}

ParseStatus parseFloat(std::string_view text, double& value)
{
    return parseFloatImpl(text, value);
}

ParseStatus parseDate(std::string_view text, uint16_t& days)
{
    const std::optional<int64_t> parsed = readDate(text);
    if (!parsed || text.size() != 10)
    {
        return ParseStatus::kMalformed;
    }
    if (*parsed < 0 || *parsed > std::numeric_limits<uint16_t>::max())
    {
        return ParseStatus::kOutOfRange;
    }
    days = static_cast<uint16_t>(*parsed);
    return ParseStatus::kOk;
}

ParseStatus parseDateTime(std::string_view text, uint32_t& seconds)
{
    const std::optional<int64_t> days = readDate(text);
    if (!days)
    {
        return ParseStatus::kMalformed;
    }
    int64_t total = *days * 86400;
    if (text.size() != 10)
    {
        unsigned hour, minute, second;
        if (text.size() != 19 || (text[10] != ' ' && text[10] != 'T') ||
            !readDigits(text, 11, 2, hour) || text[13] != ':' || !readDigits(text, 14, 2, minute) ||
            text[16] != ':' || !readDigits(text, 17, 2, second) || hour > 23 || minute > 59 ||
            second > 59)
        {
            return ParseStatus::kMalformed;
        }
        total += hour * 3600 + minute * 60 + second;
    }
    if (total < 0 || total > std::numeric_limits<uint32_t>::max())
    {
        return ParseStatus::kOutOfRange;
    }
    seconds = static_cast<uint32_t>(total);
    return ParseStatus::kOk;
}

ParseStatus parseDateTime64(std::string_view text, uint8_t precision, int64_t& ticks)
{
    if (text.find_first_of("-: ") == std::string_view::npos)
    {
        return parseInteger(text, ticks);
    }
    const size_t dot = text.find('.');
    uint32_t seconds = 0;
    const ParseStatus status = parseDateTime(text.substr(0, dot), seconds);
    if (status != ParseStatus::kOk)
    {
        return status;
    }
    const std::string_view fraction =
        dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    if (fraction.size() > precision || (dot != std::string_view::npos && fraction.empty()))
    {
        return ParseStatus::kMalformed;
    }
    int64_t value = seconds;
    for (size_t digit = 0; digit < precision; ++digit)
    {
        const char c = digit < fraction.size() ? fraction[digit] : '0';
        if (c < '0' || c > '9')
        {
            return ParseStatus::kMalformed;
        }
        value = value * 10 + (c - '0');
    }
    ticks = value;
    return ParseStatus::kOk;
}

ParseStatus appendParsedValue(std::string_view text, Column& column)
{
    const TypeId type = column.type();
    if (isNested(type))
    {
        throw Exception(ErrorCode::kNotImplemented,
                        std::string(typeName(type)) +
                            " columns take no text input: send RowBinary or native blocks");
    }
    if (type == TypeId::Bool)
    {
        const bool truth = text == "true" || text == "1";
        if (!truth && text != "false" && text != "0")
        {
            return ParseStatus::kMalformed;
        }
        column.append<uint8_t>(truth ? 1 : 0);
        return ParseStatus::kOk;
    }
    if (type == TypeId::DateTime64)
    {
        int64_t ticks = 0;
        const ParseStatus status = parseDateTime64(text, column.view().precision, ticks);
        if (status == ParseStatus::kOk)
        {
            column.append(ticks);
        }
        return status;
    }
    if (type == TypeId::Date)
    {
        uint16_t days;
        const ParseStatus status = parseDate(text, days);
        if (status == ParseStatus::kOk)
        {
            column.append(days);
        }
        return status;
    }
    if (type == TypeId::DateTime)
    {
        uint32_t seconds;
        const ParseStatus status = parseDateTime(text, seconds);
        if (status == ParseStatus::kOk)
        {
            column.append(seconds);
        }
        return status;
    }
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>)
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                column.appendString(text);
                                return ParseStatus::kOk;
                            }
                            else
                            {
                                T value;
                                ParseStatus status;
                                if constexpr (std::is_floating_point_v<T>)
                                {
                                    status = parseFloat(text, value);
                                }
                                else
                                {
                                    status = parseInteger(text, value);
                                }
                                if (status == ParseStatus::kOk)
                                {
                                    column.append(value);
                                }
                                return status;
                            }
                        });
}

std::string parseFailureMessage(std::string_view text, TypeId type, ParseStatus status)
{
    std::string quoted(text.substr(0, kQuotedTextLimit));
    if (text.size() > kQuotedTextLimit)
    {
        quoted += "...";
    }
    std::string message = "cannot parse '" + quoted + "' as " + std::string(typeName(type));
    if (status == ParseStatus::kOutOfRange)
    {
        message += ": out of range";
    }
    return message;
}

bool unescapeTsvField(std::string_view field, std::string& out)
{
    for (size_t index = 0; index < field.size(); ++index)
    {
        if (field[index] != '\\')
        {
            out += field[index];
            continue;
        }
        if (++index == field.size())
        {
            return false;
        }
        switch (field[index])
        {
            case 't':
                out += '\t';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'v':
                out += '\v';
                break;
            case 'a':
                out += '\a';
                break;
            case '0':
                out += '\0';
                break;
            case '\\':
            case '\'':
            case '"':
            case '/':
                out += field[index];
                break;
            case 'x':
            {
                if (index + 2 >= field.size())
                {
                    return false;
                }
                const int high = hexDigit(field[index + 1]);
                const int low = hexDigit(field[index + 2]);
                if (high < 0 || low < 0)
                {
                    return false;
                }
                out += static_cast<char>(high * 16 + low);
                index += 2;
                break;
            }
            default:
                return false;
        }
    }
    return true;
}

}  // namespace granary
