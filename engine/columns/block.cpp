#include "engine/columns/block.h"

namespace granary
{

const Column* Block::find(std::string_view name) const
{
    for (const Entry& entry : columns)
    {
        if (entry.name == name)
        {
            return &entry.column;
        }
    }
    return nullptr;
}

BlockView BlockView::of(const Block& block)
{
    BlockView view;
    for (const Block::Entry& entry : block.columns)
    {
        view.add(entry.name, entry.column.view());
    }
    return view;
}

std::optional<ColumnView> BlockView::find(std::string_view name) const
{
    for (const Entry& entry : columns)
    {
        if (entry.name == name)
        {
            return entry.column;
        }
    }
    return std::nullopt;
}

void BlockView::checkEqualLengths() const
{
    for (const Entry& entry : columns)
    {
        if (entry.column.rows != rows())
        {
            throw std::invalid_argument("column '" + entry.name + "' has " +
                                        std::to_string(entry.column.rows) + " rows, expected " +
                                        std::to_string(rows()));
        }
    }
}

void appendBlock(Block& to, const Block& from)
{
    if (to.columns.empty())
    {
        for (const Block::Entry& entry : from.columns)
        {
            to.columns.push_back({entry.name, entry.column.emptyLike()});
        }
    }
    for (size_t c = 0; c < from.columns.size(); ++c)
    {
        to.columns[c].column.appendRange(from.columns[c].column.view(), 0, from.rows());
    }
}

}  // namespace granary
