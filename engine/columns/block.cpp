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

}  // namespace granary
