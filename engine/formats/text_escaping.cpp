#include "engine/formats/text_escaping.h"

#include <cstdint>

namespace granary
{

void appendTsvEscaped(std::string_view text, std::string& out)
{
    for (const char c : text)
    {
        switch (c)
        {
            case '\t':
                out += "\\t";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\0':
                out += "\\0";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\'':
                out += "\\'";
                break;
            default:
                out += c;
        }
    }
}

void appendCsvQuoted(std::string_view text, std::string& out)
{
    out += '"';
    for (const char c : text)
    {
        if (c == '"')
        {
            out += '"';
        }
        out += c;
    }
    out += '"';
}

size_t validUtf8SequenceLength(std::string_view text)
{
    const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
    const auto continuation = [&](size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
    const uint8_t lead = byte(0);
    if (lead < 0x80)
    {
        return 1;
    }
    size_t length = 0;
    uint32_t code_point = 0;
    if ((lead & 0xE0) == 0xC0)
    {
        length = 2;
        code_point = lead & 0x1F;
    }
    else if ((lead & 0xF0) == 0xE0)
    {
        length = 3;
        code_point = lead & 0x0F;
    }
    else if ((lead & 0xF8) == 0xF0)
    {
        length = 4;
        code_point = lead & 0x07;
    }
    else
    {
        return 0;
    }
    for (size_t i = 1; i < length; ++i)
    {
        if (!continuation(i))
        {
            return 0;
        }
        code_point = (code_point << 6) | (byte(i) & 0x3F);
    }
    static constexpr uint32_t kSmallestOfLength[] = {0, 0, 0x80, 0x800, 0x10000};
    const bool overlong = code_point < kSmallestOfLength[length];
    const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
    if (overlong || surrogate || code_point > 0x10FFFF)
    {
        return 0;
    }
    return length;
}

size_t utf8Width(std::string_view text)
{
    size_t width = 0;
    for (size_t i = 0; i < text.size(); ++width)
    {
        const size_t length = validUtf8SequenceLength(text.substr(i));
        i += length == 0 ? 1 : length;
    }
    return width;
}

void appendJsonString(std::string_view text, std::string& out)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < text.size();)
    {
        const auto c = static_cast<uint8_t>(text[i]);
        if (c >= 0x80)
        {
            const size_t length = validUtf8SequenceLength(text.substr(i));
            if (length == 0)
            {
                out += "\\ufffd";
                ++i;
            }
            else
            {
                out.append(text.substr(i, length));
                i += length;
            }
            continue;
        }
        switch (c)
        {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20 || c == 0x7F)
                {
                    out += "\\u00";
                    out += kHex[c >> 4];
                    out += kHex[c & 0xF];
                }
                else
                {
                    out += static_cast<char>(c);
                }
        }
        ++i;
    }
    out += '"';
}

}  // namespace granary
