#include "engine/expressions/filter.h"

#include <limits>
#include <numeric>
#include <string>

#include "engine/common/exception.h"

namespace granary
{

namespace
{

/// A NULL condition is not true: its rows go (three-valued logic, as WHERE reads it).
void dropNullRows(const ExpressionNode& condition, const BlockView& input, size_t begin,
                  size_t count, std::vector<uint32_t>& rows)
{
    if (rows.empty() || !condition.dataType().nullable)
    {
        return;
    }
    std::vector<uint8_t> valid;
    validityBytes(condition, input, begin, count, valid);
    if (!valid.empty())
    {
        keepMaskedRows(valid.data(), count, rows);
    }
}

}  // namespace

void filterRows(const CompiledExpression& condition, const BlockView& input, size_t begin,
                size_t count, std::vector<uint32_t>& selected)
{
    if (!isInteger(condition.type()))
    {
        throw Exception(ErrorCode::kTypeMismatch,
                        "A filter condition must be an integer (0 or non-zero), not " +
                            std::string(typeName(condition.type())));
    }
    if (count > std::numeric_limits<uint32_t>::max())
    {
        throw Exception(
            ErrorCode::kBadArguments,
            "filterRows takes at most 2^32 - 1 rows at once, not " + std::to_string(count));
    }
    // The selection is built in `selected` itself when it starts empty (the scan's reused
    // buffer): no fresh vector per morsel.
    const bool in_place = selected.empty();
    std::vector<uint32_t> rows = in_place ? std::move(selected) : std::vector<uint32_t>{};
    rows.resize(count);
    std::iota(rows.begin(), rows.end(), uint32_t{0});
    if (condition.isConstant())
    {
        Column holder;
        const ColumnView value = condition.evaluate(input, 0, 1, holder);
        uint8_t keep = 0;
        nonZeroMask(value, &keep);
        if (!keep || !value.isValid(0))
        {
            rows.clear();
        }
    }
    else
    {
        condition.root().refineSelection(input, begin, count, rows);
        dropNullRows(condition.root(), input, begin, count, rows);
    }
    if (in_place)
    {
        selected = std::move(rows);
        return;
    }
    selected.insert(selected.end(), rows.begin(), rows.end());
}

}  // namespace granary
