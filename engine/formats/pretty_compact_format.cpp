#include <algorithm>

#include "engine/formats/format_writers.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"

namespace granary::format_writers
{
namespace
{

/// Values wider than this many code points are cut and end with an ellipsis, as ClickHouse's
/// output_format_pretty_max_value_width does with its default of 10000.
constexpr size_t kMaxValueWidth = 10000;

struct Cell
{
    std::string text;
    size_t width;
};

Cell makeCell(std::string text)
{
    size_t width = utf8Width(text);
    if (width > kMaxValueWidth)
    {
        size_t bytes = 0;
        for (size_t kept = 0; kept < kMaxValueWidth; ++kept)
        {
            const size_t length = validUtf8SequenceLength(std::string_view(text).substr(bytes));
            bytes += length == 0 ? 1 : length;
        }
        text.resize(bytes);
        text += "⋯";
        width = kMaxValueWidth + 1;
    }
    return {std::move(text), width};
}

void appendRepeated(std::string_view piece, size_t count, std::string& out)
{
    for (size_t i = 0; i < count; ++i)
    {
        out += piece;
    }
}

void appendPadded(const Cell& cell, size_t width, bool right_aligned, std::string_view fill,
                  std::string& out)
{
    if (right_aligned)
    {
        appendRepeated(fill, width - cell.width, out);
    }
    out += cell.text;
    if (!right_aligned)
    {
        appendRepeated(fill, width - cell.width, out);
    }
}

}  // namespace

/// How ClickHouse's Pretty formats show NULL, unlike any string a cell could hold unescaped.
constexpr std::string_view kPrettyNull = "ᴺᵁᴸᴸ";

void writePrettyCompact(const Block& block, std::ostream& out)
{
    const size_t rows = block.rows();
    if (rows == 0)
    {
        return;
    }
    const size_t columns = block.columns.size();
    std::vector<Cell> names;
    std::vector<std::vector<Cell>> cells(columns);
    std::vector<size_t> widths(columns);
    std::vector<bool> right_aligned(columns);
    for (size_t c = 0; c < columns; ++c)
    {
        const ColumnView view = block.columns[c].column.view();
        right_aligned[c] = isInteger(view.type) || isFloat(view.type);
        right_aligned[c] =
            right_aligned[c] && view.type != TypeId::Date && view.type != TypeId::DateTime;
        names.push_back(makeCell(block.columns[c].name));
        widths[c] = names[c].width;
        std::string text;
        for (size_t row = 0; row < rows; ++row)
        {
            if (!view.isValid(row))
            {
                cells[c].push_back(makeCell(std::string(kPrettyNull)));
                widths[c] = std::max(widths[c], cells[c].back().width);
                continue;
            }
            text.clear();
            appendValue(view, row, text);
            // Escaped like TSV so that a line break or tab inside a value keeps the box intact.
            std::string escaped;
            appendTsvEscaped(text, escaped);
            cells[c].push_back(makeCell(std::move(escaped)));
            widths[c] = std::max(widths[c], cells[c].back().width);
        }
    }
    std::string buffer = "┌─";
    for (size_t c = 0; c < columns; ++c)
    {
        buffer += c == 0 ? "" : "─┬─";
        appendPadded(names[c], widths[c], right_aligned[c], "─", buffer);
    }
    buffer += "─┐\n";
    for (size_t row = 0; row < rows; ++row)
    {
        buffer += "│ ";
        for (size_t c = 0; c < columns; ++c)
        {
            buffer += c == 0 ? "" : " │ ";
            appendPadded(cells[c][row], widths[c], right_aligned[c], " ", buffer);
        }
        buffer += " │\n";
        if (buffer.size() >= kFlushBytes)
        {
            out << buffer;
            buffer.clear();
        }
    }
    buffer += "└─";
    for (size_t c = 0; c < columns; ++c)
    {
        buffer += c == 0 ? "" : "─┴─";
        appendRepeated("─", widths[c], buffer);
    }
    buffer += "─┘\n";
    out << buffer;
}

}  // namespace granary::format_writers
