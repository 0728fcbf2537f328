#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>
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
    /// A filter tests the whole range (writeMask) while at least one row in this many
    /// survives, and the survivors one by one (keepPassingRows) below: a streaming pass
    /// vectorises, so it beats visiting a quarter of the rows.
    virtual size_t wholeRangeRowsPerSurvivor() const { return 4; }
};

/// Row `row` of `values` as T: the element of a fixed-width column, or the string of a String
/// column (T = std::string_view).
template <typename T>
T valueAt(const ColumnView& values, size_t row)
{
    if constexpr (std::is_same_v<T, std::string_view>)
    {
        return values.stringAt(row);
    }
    else
    {
        return static_cast<const T*>(values.data)[row];
    }
}

template <typename T, typename Test>
void writeMaskByTest(const ColumnView& values, uint8_t* mask, const Test& test)
{
    // The bounds and the data pointer are read once: a store through uint8_t* may alias
    // `values`, which would otherwise reload them per row and keep the loop scalar.
    const size_t rows = values.rows;
    if constexpr (std::is_same_v<T, std::string_view>)
    {
        for (size_t row = 0; row < rows; ++row)
        {
            mask[row] = test(values.stringAt(row));
        }
    }
    else
    {
        const T* data = static_cast<const T*>(values.data);
        for (size_t row = 0; row < rows; ++row)
        {
            mask[row] = test(data[row]);
        }
    }
}

template <typename T, typename Test>
void keepRowsByTest(const ColumnView& values, std::vector<uint32_t>& rows, const Test& test)
{
    size_t kept = 0;
    for (const uint32_t row : rows)
    {
        rows[kept] = row;
        kept += test(valueAt<T>(values, row));
    }
    rows.resize(kept);
}

/// A predicate whose test is one callable on each value (T, or std::string_view for strings):
/// Derived::test() returns it, and both the mask and the row-selection forms run it.
template <typename Derived, typename T>
class ValueTestPredicateNode : public PredicateNode
{
public:
    using PredicateNode::PredicateNode;

protected:
    void writeMask(const ColumnView& values, uint8_t* mask) const final
    {
        writeMaskByTest<T>(values, mask, static_cast<const Derived&>(*this).test());
    }
    void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const final
    {
        keepRowsByTest<T>(values, rows, static_cast<const Derived&>(*this).test());
    }
};

}  // namespace granary
