#pragma once

#include <cstdint>
#include <vector>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// A test of each value of one operand against constants (`x = 5`, `x IN (...)`, `x LIKE p`),
/// giving UInt8. When the operand is a bare column, a filter runs the test straight on the
/// column: over the whole range while most rows survive (vectorisable, SIMD for LIKE), row by
/// row on the survivors once an AND chain has dropped most of them.
class PredicateNode : public ExpressionNode
{
public:
    explicit PredicateNode(NodePtr operand);

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const final;
    void refineSelection(const BlockView& input, size_t begin, size_t count,
                         std::vector<uint32_t>& rows) const final;

protected:
    /// mask[i] = test(values row i), for every row of `values`.
    virtual void writeMask(const ColumnView& values, uint8_t* mask) const = 0;
    /// Keeps the offsets in `rows` whose value passes the test.
    virtual void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const = 0;
};

template <typename T, typename Test>
void writeMaskByTest(const ColumnView& values, uint8_t* mask, const Test& test)
{
    const T* in = static_cast<const T*>(values.data);
    for (size_t row = 0; row < values.rows; ++row)
    {
        mask[row] = test(in[row]);
    }
}

template <typename T, typename Test>
void keepRowsByTest(const ColumnView& values, std::vector<uint32_t>& rows, const Test& test)
{
    const T* in = static_cast<const T*>(values.data);
    size_t kept = 0;
    for (const uint32_t row : rows)
    {
        rows[kept] = row;
        kept += test(in[row]);
    }
    rows.resize(kept);
}

template <typename Test>
void writeStringMaskByTest(const ColumnView& values, uint8_t* mask, const Test& test)
{
    for (size_t row = 0; row < values.rows; ++row)
    {
        mask[row] = test(values.stringAt(row));
    }
}

template <typename Test>
void keepStringRowsByTest(const ColumnView& values, std::vector<uint32_t>& rows, const Test& test)
{
    size_t kept = 0;
    for (const uint32_t row : rows)
    {
        rows[kept] = row;
        kept += test(values.stringAt(row));
    }
    rows.resize(kept);
}

}  // namespace granary
