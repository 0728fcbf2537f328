#include "engine/aggregation/aggregation_input.h"

#include <algorithm>

namespace granary
{

BlockViewInput::BlockViewInput(const BlockView& block, size_t morsel_rows)
    : block_(block), morsel_rows_(std::max<size_t>(morsel_rows, 1))
{
    block.checkEqualLengths();
    for (const BlockView::Entry& entry : block.columns)
    {
        // The view's whole type (Array elements, DateTime64's precision); NULLs are the
        // caller's to mask, as before.
        columns_.push_back({entry.name, DataType::of(entry.column).withoutNullable()});
    }
}

size_t BlockViewInput::morsels() const
{
    return (block_.rows() + morsel_rows_ - 1) / morsel_rows_;
}

size_t BlockViewInput::produce(size_t index, MorselBuffers*, std::vector<ColumnView>& out) const
{
    const size_t first = index * morsel_rows_;
    const size_t rows = std::min(morsel_rows_, block_.rows() - first);
    out.clear();
    for (const BlockView::Entry& entry : block_.columns)
    {
        out.push_back(entry.column.slice(first, rows));
    }
    return rows;
}

}  // namespace granary
