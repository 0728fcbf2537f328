#pragma once

#include <memory>
#include <string>

#include "engine/aggregation/aggregate_function.h"

namespace granary
{

/// An aggregate built on another, as ClickHouse's combinators are: every call goes to the
/// inner function unless the combinator overrides it.
class WrappedAggregateFunction : public AggregateFunction
{
public:
    explicit WrappedAggregateFunction(std::shared_ptr<const AggregateFunction> inner)
        : inner_(std::move(inner))
    {
    }

    const AggregateFunction& inner() const { return *inner_; }
    std::string name() const override { return inner_->name(); }
    DataType resultType() const override { return inner_->resultType(); }
    bool resultMayBeNull() const override { return inner_->resultMayBeNull(); }
    size_t stateSize() const override { return inner_->stateSize(); }
    size_t stateAlignment() const override { return inner_->stateAlignment(); }
    bool hasTrivialDestroy() const override { return inner_->hasTrivialDestroy(); }
    void create(char* state, Arena& arena) const override { inner_->create(state, arena); }
    void destroy(char* state) const noexcept override { inner_->destroy(state); }
    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override
    {
        inner_->addBatch(arguments, first_row, count, places, state_offset, arena);
    }
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* state, Arena& arena) const override
    {
        inner_->addBatchSinglePlace(arguments, first_row, count, state, arena);
    }
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

protected:
    std::shared_ptr<const AggregateFunction> inner_;
};

}  // namespace granary
