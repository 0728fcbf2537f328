#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/aggregation/functions/wrapped_function.h"
#include "engine/common/exception.h"

namespace granary
{

/// ClickHouse's -Array combinator: fArray(a, b, ...) over Array arguments is f over their
/// elements, the i-th elements of one row's arrays taken together (sumArray(a) sums every
/// element; uniqArray counts distinct elements). The arrays of one row must have equal
/// lengths (kBadArguments otherwise). The state is f's.
class ArrayCombinatorFunction final : public WrappedAggregateFunction
{
public:
    /// `inner`: f made over the arrays' element types; `arguments`: how many of the columns
    /// are arrays (an -If condition may follow them).
    ArrayCombinatorFunction(std::shared_ptr<const AggregateFunction> inner, size_t arguments)
        : WrappedAggregateFunction(std::move(inner)), arguments_(arguments)
    {
    }

    std::string name() const override { return inner_->name() + "Array"; }

    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        const std::vector<ColumnView> elements = elementViews(arguments);
        for (size_t i = 0; i < count; ++i)
        {
            const size_t row = first_row + i;
            const uint64_t begin = arguments[0].offsets[row];
            const uint64_t length = rowLength(arguments, row);
            if (length > 0)
            {
                inner_->addBatchSinglePlace(elements.data(), begin, length,
                                            places[i] + state_offset, arena);
            }
        }
    }

    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* state, Arena& arena) const override
    {
        for (size_t row = first_row; arguments_ > 1 && row < first_row + count; ++row)
        {
            rowLength(arguments, row);  // Checks the arrays' lengths agree.
        }
        // The rows' elements lie one after another.
        const uint64_t begin = arguments[0].offsets[first_row];
        const uint64_t end = arguments[0].offsets[first_row + count];
        if (end > begin)
        {
            inner_->addBatchSinglePlace(elementViews(arguments).data(), begin, end - begin, state,
                                        arena);
        }
    }

private:
    std::vector<ColumnView> elementViews(const ColumnView* arguments) const
    {
        std::vector<ColumnView> elements;
        for (size_t a = 0; a < arguments_; ++a)
        {
            elements.push_back(arguments[a].children[0]);
        }
        return elements;
    }

    /// The length of row `row`'s arrays; kBadArguments where they differ.
    uint64_t rowLength(const ColumnView* arguments, size_t row) const
    {
        const auto length = [&](size_t a)
        { return arguments[a].offsets[row + 1] - arguments[a].offsets[row]; };
        for (size_t a = 1; a < arguments_; ++a)
        {
            if (length(a) != length(0))
            {
                throw Exception(ErrorCode::kBadArguments,
                                name() + " needs arrays of one length in a row, got " +
                                    std::to_string(length(0)) + " and " +
                                    std::to_string(length(a)) + " elements");
            }
        }
        return length(0);
    }

    size_t arguments_;
};

}  // namespace granary
