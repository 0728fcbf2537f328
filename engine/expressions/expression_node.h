#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/columns/data_type.h"
#include "engine/columns/types.h"

namespace granary
{

class ExpressionNode;
using NodePtr = std::shared_ptr<const ExpressionNode>;

/// One compiled operation. A node works a whole range of rows per call (typed loops inside), so
/// the virtual call is paid once per block, never per row. Nodes are immutable and shared by the
/// threads that evaluate them.
class ExpressionNode
{
public:
    /// Who decides where the node's value is NULL.
    enum class Nulls
    {
        kPropagate,  ///< NULL where an argument is: Nullable when a child is (most functions).
        kOwn,        ///< The node's own rule (isNull, coalesce, AND, CASE...): the type says.
    };

    ExpressionNode(DataType type, std::vector<NodePtr> children, Nulls nulls = Nulls::kPropagate);
    virtual ~ExpressionNode() = default;

    TypeId type() const { return type_.id; }
    /// The full type: DateTime64's precision, nested types' children.
    const DataType& dataType() const { return type_; }
    const std::vector<NodePtr>& children() const { return children_; }
    /// Names of the columns the node reads, each once, in order of first use.
    const std::vector<std::string>& columns() const { return columns_; }

    /// Values of rows [begin, begin + count) of `input`: `count` rows, viewing `input` itself or
    /// `holder` (which the node resets to its type and fills).
    virtual ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                                Column& holder) const = 0;

    /// Clears valid[i] for each row begin + i of the range where the value is NULL (valid
    /// holds `count` bytes, 1 = valid). evaluate() computes values only, NULL rows holding
    /// whatever their arguments' values give: consumers that care (outputs, filters, keys,
    /// aggregates, null-aware nodes) ask here. The default, for kPropagate nodes: the
    /// children's NULLs; nothing for a type that is not Nullable.
    virtual void andValidity(const BlockView& input, size_t begin, size_t count,
                             uint8_t* valid) const;
    /// False when no row of `input` can be NULL here (no column it reads has a bitmap, no
    /// constant is NULL): validity is then not computed at all. The default asks the
    /// children, which is right for every rule that makes NULLs only out of NULLs.
    virtual bool mayHoldNulls(const BlockView& input) const;

    /// For a node that reads no column: its value as a one-row column; null otherwise.
    virtual const Column* constantValue() const { return nullptr; }
    /// For a bare column reference: its name; null otherwise.
    virtual const std::string* columnName() const { return nullptr; }

    /// Keeps in `rows` (ascending offsets relative to begin, within [0, count)) the rows where
    /// the value is non-zero, evaluating the node on those rows only. The default gathers the
    /// columns of the surviving rows when some were already dropped.
    virtual void refineSelection(const BlockView& input, size_t begin, size_t count,
                                 std::vector<uint32_t>& rows) const;

protected:
    /// Adds a column name to columns() (a column reference has no children to inherit it from).
    void addColumn(const std::string& name);

private:
    DataType type_;
    std::vector<NodePtr> children_;
    std::vector<std::string> columns_;
};

/// A node's value over a range, either one value per row or one value for all rows (a
/// constant, never broadcast); typed loops read `view.valueAt<T>(scalar ? 0 : row)`.
struct Operand
{
    ColumnView view;
    bool scalar = false;
    Column storage;
};

/// Evaluates `node` over the range into `operand`; a constant node gives its one value.
void evaluateOperand(const ExpressionNode& node, const BlockView& input, size_t begin, size_t count,
                     Operand& operand);

/// The node's validity over the range as bytes (1 = valid) in `valid`; empty when the node's
/// type is not Nullable.
void validityBytes(const ExpressionNode& node, const BlockView& input, size_t begin, size_t count,
                   std::vector<uint8_t>& valid);

/// `values` (count rows) with the validity `valid` (bytes, 1 = valid; empty: all valid) as its
/// bitmap: the view itself when every row is valid, else a copy in `holder` (which may be
/// what `values` views) with its NULLs marked and holding the type's default.
ColumnView withValidityBytes(const ColumnView& values, const std::vector<uint8_t>& valid,
                             Column& holder);

/// Keeps the entries of `rows` (ascending offsets within [0, count)) whose mask byte (indexed
/// by the row offset) is non-zero. While `rows` still holds every row, the list is built from
/// the mask alone (selectMaskedRows).
void keepMaskedRows(const uint8_t* mask, size_t count, std::vector<uint32_t>& rows);

/// Sets `rows` to the offsets in [0, count) whose mask byte is non-zero, without reading it
/// (and skipping eight zero bytes at once, which makes a selective filter cost little more
/// than its test).
void selectMaskedRows(const uint8_t* mask, size_t count, std::vector<uint32_t>& rows);

/// A mask of `count` bytes, reused by the calling thread from one call to the next (filters run
/// once per morsel: a fresh zeroed buffer each time would cost as much as a selective test).
uint8_t* scratchMask(size_t count);

/// A view of `values` converted to `target` (both fixed-width): `values` itself when the
/// storage types agree, else a converted copy in `storage`. Integers convert as C++ does (wrap
/// around), floats to integers truncate toward zero (saturating, NaN → 0).
ColumnView convertFixed(const ColumnView& values, TypeId target, Column& storage);

/// mask[i] = values[i] != 0 for a fixed-width view (floats: NaN counts as non-zero, as in C).
void nonZeroMask(const ColumnView& values, uint8_t* mask);

}  // namespace granary
