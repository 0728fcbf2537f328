#include "engine/expressions/expression_node.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "engine/columns/gather.h"
#include "engine/expressions/column_reference.h"

namespace granary
{
namespace
{

template <typename To, typename From>
To convertValue(From value)
{
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>)
    {
        // A float out of the integer's range would be undefined behaviour in a plain cast.
        if (std::isnan(value))
        {
            return 0;
        }
        if (value <= static_cast<From>(std::numeric_limits<To>::min()))
        {
            return std::numeric_limits<To>::min();
        }
        if (value >= static_cast<From>(std::numeric_limits<To>::max()))
        {
            return std::numeric_limits<To>::max();
        }
    }
    return static_cast<To>(value);
}

}  // namespace

ExpressionNode::ExpressionNode(DataType type, std::vector<NodePtr> children, Nulls nulls)
    : type_(std::move(type)), children_(std::move(children))
{
    for (const NodePtr& child : children_)
    {
        type_.nullable =
            type_.nullable || (nulls == Nulls::kPropagate && child->dataType().nullable);
        for (const std::string& name : child->columns())
        {
            addColumn(name);
        }
    }
}

void ExpressionNode::andValidity(const BlockView& input, size_t begin, size_t count,
                                 uint8_t* valid) const
{
    if (!type_.nullable)
    {
        return;
    }
    for (const NodePtr& child : children_)
    {
        child->andValidity(input, begin, count, valid);
    }
}

bool ExpressionNode::mayHoldNulls(const BlockView& input) const
{
    return std::any_of(children_.begin(), children_.end(),
                       [&](const NodePtr& child) { return child->mayHoldNulls(input); });
}

void validityBytes(const ExpressionNode& node, const BlockView& input, size_t begin, size_t count,
                   std::vector<uint8_t>& valid)
{
    valid.clear();
    if (node.dataType().nullable && node.mayHoldNulls(input))
    {
        valid.assign(count, 1);
        node.andValidity(input, begin, count, valid.data());
    }
}

ColumnView withValidityBytes(const ColumnView& values, const std::vector<uint8_t>& valid,
                             Column& holder)
{
    if (std::all_of(valid.begin(), valid.end(), [](uint8_t byte) { return byte != 0; }))
    {
        return values.validity == nullptr ? values : values.withValidity(nullptr);
    }
    Column copy = Column::emptyLike(values.withValidity(nullptr));
    copy.appendRange(values.withValidity(nullptr), 0, values.rows);
    for (size_t row = 0; row < valid.size(); ++row)
    {
        if (valid[row] == 0)
        {
            copy.setNull(row);
        }
    }
    copy.defaultNullValues();  // equal NULLs hold equal values: one group, one key
    holder = std::move(copy);
    return holder.view();
}

void ExpressionNode::addColumn(const std::string& name)
{
    if (std::find(columns_.begin(), columns_.end(), name) == columns_.end())
    {
        columns_.push_back(name);
    }
}

void ExpressionNode::refineSelection(const BlockView& input, size_t begin, size_t count,
                                     std::vector<uint32_t>& rows) const
{
    if (rows.empty())
    {
        return;
    }
    Column holder;
    if (rows.size() == count)
    {
        const ColumnView values = evaluate(input, begin, count, holder);
        uint8_t* mask = scratchMask(count);
        nonZeroMask(values, mask);
        keepMaskedRows(mask, count, rows);
        return;
    }
    // Some rows are gone: evaluate on a compact copy of the survivors only, so that work (and
    // errors such as a division by zero) stays on the rows an AND chain lets through.
    std::vector<Column> gathered(columns().size());
    BlockView compact;
    for (size_t i = 0; i < columns().size(); ++i)
    {
        gatherRows(findColumn(input, columns()[i]), begin, rows, gathered[i]);
        compact.add(columns()[i], gathered[i].view());
    }
    const ColumnView values = evaluate(compact, 0, rows.size(), holder);
    std::vector<uint8_t> mask(rows.size());
    nonZeroMask(values, mask.data());
    size_t kept = 0;
    for (size_t i = 0; i < rows.size(); ++i)
    {
        rows[kept] = rows[i];
        kept += mask[i] != 0;
    }
    rows.resize(kept);
}

void evaluateOperand(const ExpressionNode& node, const BlockView& input, size_t begin, size_t count,
                     Operand& operand)
{
    if (const Column* constant = node.constantValue())
    {
        operand.view = constant->view();
        operand.scalar = true;
        return;
    }
    operand.view = node.evaluate(input, begin, count, operand.storage);
    operand.scalar = false;
}

void keepMaskedRows(const uint8_t* mask, size_t count, std::vector<uint32_t>& rows)
{
    if (rows.size() == count)
    {
        selectMaskedRows(mask, count, rows);
        return;
    }
    size_t kept = 0;
    for (const uint32_t row : rows)
    {
        rows[kept] = row;
        kept += mask[row] != 0;
    }
    rows.resize(kept);
}

void selectMaskedRows(const uint8_t* mask, size_t count, std::vector<uint32_t>& rows)
{
    constexpr size_t kWordBytes = sizeof(uint64_t);
    rows.resize(count);
    uint32_t* out = rows.data();
    size_t kept = 0;
    size_t row = 0;
    for (; row + kWordBytes <= count; row += kWordBytes)
    {
        uint64_t word;
        std::memcpy(&word, mask + row, kWordBytes);
        if (word == 0)
        {
            continue;
        }
        for (size_t i = 0; i < kWordBytes; ++i)
        {
            out[kept] = uint32_t(row + i);
            kept += mask[row + i] != 0;
        }
    }
    for (; row < count; ++row)
    {
        out[kept] = uint32_t(row);
        kept += mask[row] != 0;
    }
    rows.resize(kept);
}

uint8_t* scratchMask(size_t count)
{
    thread_local std::vector<uint8_t> mask;
    if (mask.size() < count)
    {
        mask.resize(count);
    }
    return mask.data();
}

ColumnView convertFixed(const ColumnView& values, TypeId target, Column& storage)
{
    if (values.type == target)
    {
        return values;
    }
    return dispatchFixedType(values.type,
                             [&]<typename From>(TypeTag<From>)
                             {
                                 return dispatchFixedType(
                                     target,
                                     [&]<typename To>(TypeTag<To>)
                                     {
                                         storage = Column(target);
                                         if constexpr (std::is_same_v<From, To>)
                                         {
                                             // Date and UInt16 (or DateTime and UInt32) share their
                                             // storage.
                                             ColumnView same = values;
                                             same.type = target;
                                             return same;
                                         }
                                         else
                                         {
                                             storage.resizeFixed(values.rows);
                                             To* out = storage.mutableData<To>();
                                             const From* in = static_cast<const From*>(values.data);
                                             const size_t rows = values.rows;  // `out` may alias it
                                             for (size_t row = 0; row < rows; ++row)
                                             {
                                                 out[row] = convertValue<To>(in[row]);
                                             }
                                             return storage.view();
                                         }
                                     });
                             });
}

void nonZeroMask(const ColumnView& values, uint8_t* mask)
{
    dispatchFixedType(values.type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          const T* in = static_cast<const T*>(values.data);
                          const size_t rows = values.rows;  // read once: `mask` may alias it
                          for (size_t row = 0; row < rows; ++row)
                          {
                              mask[row] = in[row] != 0;
                          }
                      });
}

}  // namespace granary
