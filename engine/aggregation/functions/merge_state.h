#pragma once

#include <memory>
#include <string>

#include "engine/aggregation/functions/wrapped_function.h"

namespace granary
{

/// ClickHouse's -Merge combinator: the argument is a column of serialized states of `inner`
/// (a partial exported by another GroupBy of the same plan), and each row's state is folded
/// into its group's. The state, merge and result are inner's own, so groups built from raw
/// rows and from imported states merge with each other. The embedding's importer runs
/// checkStates over a whole batch first, so that a corrupted state leaves every group as it
/// was, and its adds trust the states; SQL's fMerge over a table's states checks each batch
/// as it adds it (`checks_states`): a damaged state fails the query.
class MergeStateFunction final : public WrappedAggregateFunction
{
public:
    /// `column`: the state column's name, for errors.
    MergeStateFunction(std::shared_ptr<const AggregateFunction> inner, std::string column,
                       bool checks_states = false)
        : WrappedAggregateFunction(std::move(inner)),
          column_(std::move(column)),
          checks_states_(checks_states)
    {
    }

    std::string name() const override { return inner_->name() + "Merge"; }
    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override;
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* state, Arena& arena) const override;

    /// Exception(kIncorrectData) naming the column and row of the first state that is not one.
    void checkStates(const ColumnView& states, size_t first_row, size_t count) const;

private:
    std::string column_;
    bool checks_states_;
};

}  // namespace granary
