#include "engine/expressions/string_functions.h"

#include <locale.h>
#include <wctype.h>

#include <algorithm>

#include "engine/common/exception.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/regexp_replace.h"
#include "engine/expressions/row_function_node.h"
#include "engine/expressions/type_rules.h"
#include "engine/formats/value_text.h"

namespace granary
{
namespace
{

class LengthNode final : public ExpressionNode
{
public:
    explicit LengthNode(NodePtr value) : ExpressionNode(TypeId::UInt64, {std::move(value)}) {}

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        holder = Column(TypeId::UInt64);
        holder.resizeFixed(count);
        uint64_t* out = holder.mutableData<uint64_t>();
        for (size_t row = 0; row < count; ++row)
        {
            out[row] = values.offsets[row + 1] - values.offsets[row];
        }
        return holder.view();
    }
};

class CaseConversionNode final : public ExpressionNode
{
public:
    CaseConversionNode(NodePtr value, bool to_upper)
        : ExpressionNode(TypeId::String, {std::move(value)}), to_upper_(to_upper)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        const uint64_t first = values.offsets[0];
        const uint64_t bytes = values.offsets[count] - first;
        holder = Column(TypeId::String);
        holder.resizeStringsUninitialized(count, bytes);
        uint64_t* offsets = holder.mutableOffsets();
        for (size_t row = 0; row <= count; ++row)
        {
            offsets[row] = values.offsets[row] - first;
        }
        const char from = to_upper_ ? 'a' : 'A';
        const char to = to_upper_ ? 'A' : 'a';
        char* out = holder.mutableChars();
        for (uint64_t i = 0; i < bytes; ++i)
        {
            const char c = values.chars[first + i];
            out[i] =
                static_cast<unsigned char>(c - from) < 26 ? static_cast<char>(c - from + to) : c;
        }
        return holder.view();
    }

private:
    bool to_upper_;
};

}  // namespace

NodePtr makeLength(NodePtr value)
{
    return std::make_shared<LengthNode>(std::move(value));
}

NodePtr makeCaseConversion(NodePtr value, bool to_upper)
{
    return std::make_shared<CaseConversionNode>(std::move(value), to_upper);
}

namespace
{

/// The code point of the UTF-8 sequence at text[i] and its length; an invalid byte is itself,
/// one byte long (kept as it is by the functions that count or convert characters).
std::pair<char32_t, size_t> decodeUtf8(std::string_view text, size_t i)
{
    const auto byte = static_cast<unsigned char>(text[i]);
    const size_t length = byte < 0x80           ? 1
                          : (byte >> 5) == 0x6  ? 2
                          : (byte >> 4) == 0xE  ? 3
                          : (byte >> 3) == 0x1E ? 4
                                                : 0;
    if (length <= 1 || i + length > text.size())
    {
        return {byte, 1};
    }
    char32_t code = byte & (0x7F >> length);
    for (size_t k = 1; k < length; ++k)
    {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next >> 6) != 0x2)
        {
            return {byte, 1};
        }
        code = (code << 6) | (next & 0x3F);
    }
    return {code, length};
}

void appendUtf8(char32_t code, std::string& out)
{
    if (code < 0x80)
    {
        out += static_cast<char>(code);
        return;
    }
    if (code < 0x800)
    {
        out += static_cast<char>(0xC0 | (code >> 6));
    }
    else if (code < 0x10000)
    {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    }
    else
    {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    }
    out += static_cast<char>(0x80 | (code & 0x3F));
}

/// Byte offsets of the first `count` characters of `text` (count past the end: its size).
size_t utf8Offset(std::string_view text, size_t characters)
{
    size_t i = 0;
    for (; i < text.size() && characters > 0; --characters)
    {
        i += decodeUtf8(text, i).second;
    }
    return i;
}

size_t utf8Length(std::string_view text)
{
    size_t characters = 0;
    for (size_t i = 0; i < text.size(); i += decodeUtf8(text, i).second)
    {
        ++characters;
    }
    return characters;
}

/// ClickHouse's substring window over `size` units: 1-based `offset` (negative counts from the
/// end, 0 gives nothing), `length` units (negative: up to that many before the end).
std::pair<size_t, size_t> substringWindow(size_t size, int64_t offset,
                                          std::optional<int64_t> length)
{
    const auto signed_size = static_cast<int64_t>(size);
    if (offset == 0)
    {
        return {0, 0};
    }
    const int64_t begin =
        std::clamp<int64_t>(offset > 0 ? offset - 1 : signed_size + offset, 0, signed_size);
    int64_t end = signed_size;
    if (length)
    {
        end = *length >= 0 ? std::min(signed_size, begin + std::min(*length, signed_size))
                           : signed_size + *length;
    }
    end = std::clamp<int64_t>(end, begin, signed_size);
    return {static_cast<size_t>(begin), static_cast<size_t>(end - begin)};
}

NodePtr buildSubstring(CallContext& call)
{
    call.stringArgument(0);
    for (size_t i = 1; i < call.argumentCount(); ++i)
    {
        if (!isInteger(call.argument(i)->type()) || isDateOrTime(call.argument(i)->type()))
        {
            call.failArgumentType(i, "an integer");
        }
    }
    std::vector<NodePtr> operands = call.arguments();
    const bool utf8 = call.lowerName() == "substringutf8";
    return makeRowFunction(
        TypeId::String, std::move(operands),
        [utf8](const std::vector<Operand>& values, size_t row, Column& out)
        {
            const std::string_view text = textAt(values[0], row);
            const std::optional<int64_t> length =
                values.size() == 3 ? std::optional(integerAt(values[2], row)) : std::nullopt;
            const size_t units = utf8 ? utf8Length(text) : text.size();
            const auto [begin, count] = substringWindow(units, integerAt(values[1], row), length);
            if (!utf8)
            {
                out.appendString(text.substr(begin, count));
                return;
            }
            const size_t first = utf8Offset(text, begin);
            out.appendString(text.substr(first, utf8Offset(text.substr(first), count)));
        });
}

/// Any non-nested value as concat and toString write it (value_text.h's text).
NodePtr buildConcat(CallContext& call)
{
    for (size_t i = 0; i < call.argumentCount(); ++i)
    {
        if (isNested(call.argument(i)->type()))
        {
            call.failArgumentType(i, "a String, number, Date or DateTime");
        }
    }
    return makeJoinedText(call.arguments(), appendValue);
}

NodePtr buildPosition(CallContext& call)
{
    return makeRowFunction(
        TypeId::UInt64, {call.stringArgument(0), call.stringArgument(1)},
        [](const std::vector<Operand>& values, size_t row, Column& out)
        {
            const size_t found = textAt(values[0], row).find(textAt(values[1], row));
            out.append<uint64_t>(found == std::string_view::npos ? 0 : found + 1);
        });
}

NodePtr buildReplace(CallContext& call)
{
    const bool all = call.lowerName() != "replaceone";
    return makeRowFunction(TypeId::String,
                           {call.stringArgument(0), call.stringArgument(1), call.stringArgument(2)},
                           [all](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               const std::string_view text = textAt(values[0], row);
                               const std::string_view from = textAt(values[1], row);
                               const std::string_view to = textAt(values[2], row);
                               if (from.empty())
                               {
                                   out.appendString(text);
                                   return;
                               }
                               std::string replaced;
                               size_t done = 0;
                               for (size_t found = text.find(from); found != std::string_view::npos;
                                    found = all ? text.find(from, done) : std::string_view::npos)
                               {
                                   replaced.append(text.substr(done, found - done)).append(to);
                                   done = found + from.size();
                               }
                               replaced.append(text.substr(done));
                               out.appendString(replaced);
                           });
}

/// The C.UTF-8 locale of the wide-character case functions, made once (thread-safe to use).
locale_t utf8Locale()
{
    static const locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nullptr);
    if (locale == static_cast<locale_t>(nullptr))
    {
        throw Exception(ErrorCode::kNotImplemented,
                        "lowerUTF8 and upperUTF8 need the C library's C.UTF-8 locale");
    }
    return locale;
}

NodePtr buildCaseConversionUtf8(CallContext& call)
{
    const bool to_upper = call.lowerName() == "upperutf8";
    const locale_t locale = utf8Locale();
    return makeRowFunction(
        TypeId::String, {call.stringArgument(0)},
        [to_upper, locale](const std::vector<Operand>& values, size_t row, Column& out)
        {
            const std::string_view text = textAt(values[0], row);
            std::string converted;
            for (size_t i = 0; i < text.size();)
            {
                const auto [code, length] = decodeUtf8(text, i);
                if (length == 1 && code >= 0x80)
                {
                    converted += text[i];  // An invalid byte stays as it is.
                }
                else
                {
                    const wint_t wide = static_cast<wint_t>(code);
                    appendUtf8(static_cast<char32_t>(to_upper ? towupper_l(wide, locale)
                                                              : towlower_l(wide, locale)),
                               converted);
                }
                i += length;
            }
            out.appendString(converted);
        });
}

/// splitByChar(separator, s) and splitByString(separator, s): the pieces between separators,
/// as ClickHouse splits them (an empty separator, for splitByString, splits into bytes).
NodePtr buildSplit(CallContext& call)
{
    const std::string separator = call.constantString(0, "separator");
    const bool by_char = call.lowerName() == "splitbychar";
    if (by_char && separator.size() != 1)
    {
        call.fail(ErrorCode::kBadArguments, "The separator of " + call.name() +
                                                " must be exactly one byte, not '" + separator +
                                                "'");
    }
    return makeRowFunction(DataType::array(TypeId::String), {call.stringArgument(1)},
                           [separator](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               const std::string_view text = textAt(values[0], row);
                               Column& pieces = out.child(0);
                               if (separator.empty())
                               {
                                   for (const char byte : text)
                                   {
                                       pieces.appendString(std::string_view(&byte, 1));
                                   }
                               }
                               else
                               {
                                   size_t begin = 0;
                                   for (size_t found = text.find(separator);
                                        found != std::string_view::npos;
                                        found = text.find(separator, begin))
                                   {
                                       pieces.appendString(text.substr(begin, found - begin));
                                       begin = found + separator.size();
                                   }
                                   pieces.appendString(text.substr(begin));
                               }
                               out.closeNestedRow();
                           });
}

/// arrayStringConcat(array[, separator]): the Array(String)'s elements joined.
NodePtr buildArrayStringConcat(CallContext& call)
{
    const DataType& type = call.argument(0)->dataType();
    if (type.id != TypeId::Array || !isString(type.element().id))
    {
        call.failArgumentType(0, "an Array(String)");
    }
    const std::string separator =
        call.argumentCount() == 2 ? call.constantString(1, "separator") : std::string();
    return makeRowFunction(TypeId::String, {call.argument(0)},
                           [separator](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               const ColumnView& array = values[0].view;
                               const size_t at = values[0].scalar ? 0 : row;
                               std::string joined;
                               for (uint64_t element = array.offsets[at];
                                    element < array.offsets[at + 1]; ++element)
                               {
                                   joined += element == array.offsets[at] ? "" : separator;
                                   joined += array.children[0].stringAt(element);
                               }
                               out.appendString(joined);
                           });
}

NodePtr buildLength(CallContext& call)
{
    const TypeId type = call.argument(0)->type();
    if (!isString(type) && type != TypeId::Array && type != TypeId::Map)
    {
        call.failArgumentType(0, "a String, Array or Map");
    }
    if (call.lowerName() == "lengthutf8")
    {
        return makeRowFunction(TypeId::UInt64, {call.stringArgument(0)},
                               [](const std::vector<Operand>& values, size_t row, Column& out)
                               { out.append<uint64_t>(utf8Length(textAt(values[0], row))); });
    }
    return makeLength(call.argument(0));
}

NodePtr buildCaseConversion(CallContext& call)
{
    const std::string& name = call.lowerName();
    return makeCaseConversion(call.stringArgument(0), name == "upper" || name == "ucase");
}

NodePtr buildRegexpReplace(CallContext& call)
{
    return makeRegexpReplace(call.stringArgument(0), call.constantString(1, "pattern"),
                             call.constantString(2, "replacement"),
                             call.lowerName() != "replaceregexpone");
}

}  // namespace

std::vector<ScalarFunction> stringFunctionEntries()
{
    constexpr std::string_view kLengthText =
        "Bytes of a String (UInt64); elements of an Array, entries of a Map.";
    constexpr std::string_view kSubstringText =
        "The bytes from 1-based `offset` (negative: from the end; 0: empty), `length` of them "
        "(negative: up to that many before the end).";
    constexpr std::string_view kReplaceText =
        "`s` with every occurrence of `from` replaced by `to` (an empty `from` replaces nothing).";
    constexpr std::string_view kRegexpText =
        "`s` with the matches of a constant RE2 pattern replaced (\\\\1 names a group).";
    return {
        {"length", "length(x)", kLengthText, 1, 1, true, buildLength},
        {"strlen", "strlen(x)", kLengthText, 1, 1, true, buildLength},
        {"lengthUTF8", "lengthUTF8(s)", "Characters (UTF-8 code points) of a String.", 1, 1, false,
         buildLength},
        {"lower", "lower(s)", "ASCII letters in lower case; other bytes as they are.", 1, 1, false,
         buildCaseConversion},
        {"lcase", "lcase(s)", "lower(s).", 1, 1, false, buildCaseConversion},
        {"upper", "upper(s)", "ASCII letters in upper case; other bytes as they are.", 1, 1, false,
         buildCaseConversion},
        {"ucase", "ucase(s)", "upper(s).", 1, 1, false, buildCaseConversion},
        {"lowerUTF8", "lowerUTF8(s)",
         "Every letter in lower case (Unicode, C.UTF-8); invalid bytes as they are.", 1, 1, false,
         buildCaseConversionUtf8},
        {"upperUTF8", "upperUTF8(s)",
         "Every letter in upper case (Unicode, C.UTF-8); invalid bytes as they are.", 1, 1, false,
         buildCaseConversionUtf8},
        {"substring", "substring(s, offset[, length])", kSubstringText, 2, 3, false,
         buildSubstring},
        {"substr", "substr(s, offset[, length])", kSubstringText, 2, 3, false, buildSubstring},
        {"substringUTF8", "substringUTF8(s, offset[, length])",
         "substring counting characters (UTF-8 code points) instead of bytes.", 2, 3, false,
         buildSubstring},
        {"concat", "concat(a, b, ...)",
         "The arguments' text joined; numbers, dates and times as toString writes them.", 1,
         kAnyArgumentCount, false, buildConcat},
        {"position", "position(haystack, needle)",
         "The 1-based byte offset of the first `needle` in `haystack`, 0 when absent (1 for an "
         "empty needle).",
         2, 2, false, buildPosition},
        {"locate", "locate(haystack, needle)", "position(haystack, needle).", 2, 2, false,
         buildPosition},
        {"replaceAll", "replaceAll(s, from, to)", kReplaceText, 3, 3, false, buildReplace},
        {"replace", "replace(s, from, to)", kReplaceText, 3, 3, false, buildReplace},
        {"replaceOne", "replaceOne(s, from, to)",
         "`s` with the first occurrence of `from` replaced by `to`.", 3, 3, false, buildReplace},
        {"replaceRegexpAll", "replaceRegexpAll(s, pattern, replacement)", kRegexpText, 3, 3, false,
         buildRegexpReplace},
        {"regexp_replace", "regexp_replace(s, pattern, replacement)", kRegexpText, 3, 3, false,
         buildRegexpReplace},
        {"splitByChar", "splitByChar(separator, s)",
         "The pieces of `s` between the one-byte constant separator, as an Array(String).", 2, 2,
         false, buildSplit},
        {"splitByString", "splitByString(separator, s)",
         "The pieces of `s` between the constant separator (empty: every byte), as an "
         "Array(String).",
         2, 2, false, buildSplit},
        {"arrayStringConcat", "arrayStringConcat(array[, separator])",
         "The elements of an Array(String) joined, with the constant separator between them.", 1, 2,
         true, buildArrayStringConcat},
        {"replaceRegexpOne", "replaceRegexpOne(s, pattern, replacement)",
         "replaceRegexpAll for the first match only.", 3, 3, false, buildRegexpReplace},
    };
}

}  // namespace granary
