#pragma once

#include <memory>
#include <string>

#include "engine/aggregation/aggregate_function.h"

namespace granary
{

/// ClickHouse's -Merge combinator: the argument is a column of serialized states of `inner`
/// (a partial exported by another GroupBy of the same plan), and each row's state is folded
/// into its group's. The state, merge and result are inner's own, so groups built from raw
/// rows and from imported states merge with each other. Its adds trust the states: the
/// importer runs checkStates over a whole batch first, so that a corrupted state leaves every
/// group as it was.
class MergeStateFunction final : public AggregateFunction
{
public:
    /// `column`: the state column's name, for errors.
    MergeStateFunction(std::shared_ptr<const AggregateFunction> inner, std::string column)
        : inner_(std::move(inner)), column_(std::move(column))
    {
    }

    std::string name() const override { return inner_->name() + "Merge"; }
    TypeId resultType() const override { return inner_->resultType(); }
    bool resultMayBeNull() const override { return inner_->resultMayBeNull(); }
    size_t stateSize() const override { return inner_->stateSize(); }
    size_t stateAlignment() const override { return inner_->stateAlignment(); }
    bool hasTrivialDestroy() const override { return inner_->hasTrivialDestroy(); }
    void create(char* state, Arena& arena) const override { inner_->create(state, arena); }
    void destroy(char* state) const noexcept override { inner_->destroy(state); }

    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override;
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* state, Arena& arena) const override;
    void merge(char* target, char* source, MergeContext& context) const override
    {
        inner_->merge(target, source, context);
    }
    void mergeBatch(char* const* targets, char* const* sources, size_t count, size_t state_offset,
                    MergeContext& context) const override
    {
        inner_->mergeBatch(targets, sources, count, state_offset, context);
    }
    void mergeMany(char* target, std::span<char* const> sources,
                   MergeContext& context) const override
    {
        inner_->mergeMany(target, sources, context);
    }
    bool hasParallelMergeMany() const override { return inner_->hasParallelMergeMany(); }
    void serialize(const char* state, std::string& out) const override
    {
        inner_->serialize(state, out);
    }
    void checkSerialized(std::string_view bytes) const override { inner_->checkSerialized(bytes); }
    void mergeSerialized(char* state, std::string_view bytes, Arena& arena) const override
    {
        inner_->mergeSerialized(state, bytes, arena);
    }
    void insertResultInto(char* state, Column& to) const override
    {
        inner_->insertResultInto(state, to);
    }
    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override
    {
        inner_->insertResultsInto(places, count, state_offset, to);
    }

    /// Exception(kIncorrectData) naming the column and row of the first state that is not one.
    void checkStates(const ColumnView& states, size_t first_row, size_t count) const;

private:
    std::shared_ptr<const AggregateFunction> inner_;
    std::string column_;
};

}  // namespace granary
