#pragma once

#include <cstring>
#include <memory>
#include <string>

#include "engine/aggregation/functions/wrapped_function.h"
#include "engine/aggregation/state_bytes.h"

namespace granary
{

/// An aggregate that skips rows: its last argument is a UInt8 mask (0: skip the row: a NULL
/// argument, or a row its FILTER rejects) and the inner function sees only the rows kept, in
/// runs, so a batch with every row kept costs one inner call. The state is the inner state
/// plus a flag "some row was kept"; where it is unset, a function whose empty result is NULL
/// (sum, avg, min, max, any: `empty_is_null`) gives NULL, others (count, uniqExact) their
/// empty value.
class MaskedAggregateFunction final : public WrappedAggregateFunction
{
public:
    /// `argument_count`: the inner function's arguments, which precede the mask.
    MaskedAggregateFunction(std::shared_ptr<const AggregateFunction> inner, size_t argument_count,
                            bool empty_is_null)
        : WrappedAggregateFunction(std::move(inner)),
          argument_count_(argument_count),
          empty_is_null_(empty_is_null),
          flag_(inner_->stateSize()),
          counts_rows_(isRowCount(*inner_))
    {
    }

    bool resultMayBeNull() const override { return empty_is_null_; }
    size_t stateSize() const override { return flag_ + 1; }
    void create(char* state, Arena& arena) const override
    {
        inner_->create(state, arena);
        state[flag_] = 0;
    }

    void addBatch(const ColumnView* arguments, size_t first_row, size_t count, char* const* places,
                  size_t state_offset, Arena& arena) const override;
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* state, Arena& arena) const override;
    void merge(char* target, char* source, MergeContext& context) const override
    {
        inner_->merge(target, source, context);
        target[flag_] |= source[flag_];
    }
    void mergeBatch(char* const* targets, char* const* sources, size_t count, size_t state_offset,
                    MergeContext& context) const override;
    void mergeMany(char* target, std::span<char* const> sources,
                   MergeContext& context) const override;
    /// The flag's byte, then the inner state.
    void serialize(const char* state, std::string& out) const override
    {
        out.push_back(state[flag_]);
        inner_->serialize(state, out);
    }
    void checkSerialized(std::string_view bytes) const override
    {
        StateReader reader(bytes, name());
        reader.read<uint8_t>();
        inner_->checkSerialized(bytes.substr(1));
    }
    void mergeSerialized(char* state, std::string_view bytes, Arena& arena) const override
    {
        inner_->mergeSerialized(state, bytes.substr(1), arena);
        state[flag_] |= bytes[0];
    }
    void insertResultInto(char* state, Column& to) const override
    {
        insertResultsInto(&state, 1, 0, to);
    }
    void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                           Column& to) const override;

private:
    /// Whether `function` is count, whose masked form adds the mask to the count row by row
    /// (countIf, count() FILTER): no runs to find, no call per run.
    static bool isRowCount(const AggregateFunction& function);

    size_t argument_count_;
    bool empty_is_null_;
    size_t flag_;  ///< Offset of the "some row was kept" byte in the state.
    bool counts_rows_;
};

}  // namespace granary
