#include "engine/sql/syntax_error.h"

#include <algorithm>

namespace granary::sql
{
namespace
{

/// The excerpt shows at most this many bytes of the line on each side of the error, so that
/// a 3,000-character query line (ClickBench Q30) still gives a readable message.
constexpr size_t kExcerptContextBytes = 60;
constexpr std::string_view kEllipsis = "...";

/// Control bytes would garble a terminal; they show as '?' (one column, like the original).
char printable(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7F ? '?' : c;
}

/// The error's line (or a window of it) and a caret line pointing at `position`.
std::string excerpt(std::string_view text, const SourcePosition& position)
{
    const size_t offset = std::min(position.offset, text.size());
    size_t line_begin = 0;
    if (offset > 0)
    {
        const size_t previous_newline = text.rfind('\n', offset - 1);
        if (previous_newline != std::string_view::npos)
        {
            line_begin = previous_newline + 1;
        }
    }
    size_t line_end = text.find('\n', offset);
    if (line_end == std::string_view::npos)
    {
        line_end = text.size();
    }
    if (line_end > offset && text[line_end - 1] == '\r')
    {
        --line_end;
    }

    size_t begin = offset - std::min(offset - line_begin, kExcerptContextBytes);
    while (begin < offset && isUtf8ContinuationByte(text[begin]))
    {
        ++begin;
    }
    size_t end = std::max(offset, std::min(line_end, offset + kExcerptContextBytes));
    while (end < line_end && isUtf8ContinuationByte(text[end]))
    {
        ++end;
    }

    std::string shown;
    std::string caret;
    if (begin > line_begin)
    {
        shown += kEllipsis;
        caret.append(kEllipsis.size(), ' ');
    }
    for (size_t i = begin; i < end; ++i)
    {
        shown += printable(text[i]);
        if (i < offset && !isUtf8ContinuationByte(text[i]))
        {
            caret += text[i] == '\t' ? '\t' : ' ';
        }
    }
    if (end < line_end)
    {
        shown += kEllipsis;
    }
    caret += '^';
    return shown + "\n" + caret;
}

std::string message(std::string_view text, const SourcePosition& position,
                    const std::string& reason)
{
    return "Syntax error at line " + std::to_string(position.line) + ", column " +
           std::to_string(position.column) + ": " + reason + "\n" + excerpt(text, position);
}

}  // namespace

SyntaxError::SyntaxError(std::string_view text, SourcePosition position, const std::string& reason)
    : Exception(ErrorCode::kSyntaxError, message(text, position, reason)),
      position_(position),
      reason_(reason)
{
}

}  // namespace granary::sql
