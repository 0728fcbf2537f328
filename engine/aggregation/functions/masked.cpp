#include "engine/aggregation/functions/masked.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/aggregation/functions/count.h"

namespace granary
{
namespace
{

/// Calls on_run(begin, length) for each run of kept rows (mask byte non-zero) among
/// mask[first, first + count), with positions relative to `first`.
template <typename OnRun>
void forEachKeptRun(const uint8_t* mask, size_t first, size_t count, OnRun&& on_run)
{
    const uint8_t* rows = mask + first;
    size_t row = 0;
    while (row < count)
    {
        while (row < count && rows[row] == 0)
        {
            ++row;
        }
        const size_t begin = row;
        // Runs of kept rows are long where NULLs are rare (a whole batch without any): their
        // end is found by memchr, a vector scan, not a test per row.
        const void* skipped = std::memchr(rows + row, 0, count - row);
        row = skipped != nullptr ? size_t(static_cast<const uint8_t*>(skipped) - rows) : count;
        if (row > begin)
        {
            on_run(begin, row - begin);
        }
    }
}

/// Adds `rows` to a count state (count's uint64_t at the start of `state`).
void addToCount(char* state, uint64_t rows)
{
    uint64_t count;
    std::memcpy(&count, state, sizeof(count));
    count += rows;
    std::memcpy(state, &count, sizeof(count));
}

/// The mask is the last argument: the inner function's arguments are those before it.
const uint8_t* maskOf(const ColumnView* arguments, size_t inner_arguments)
{
    return static_cast<const uint8_t*>(arguments[inner_arguments].data);
}

}  // namespace

bool MaskedAggregateFunction::isRowCount(const AggregateFunction& function)
{
    return dynamic_cast<const CountFunction*>(&function) != nullptr;
}

void MaskedAggregateFunction::addBatch(const ColumnView* arguments, size_t first_row, size_t count,
                                       char* const* places, size_t state_offset, Arena& arena) const
{
    const uint8_t* mask = maskOf(arguments, argument_count_);
    if (counts_rows_)
    {
        for (size_t i = 0; i < count; ++i)
        {
            const uint8_t kept = mask[first_row + i] != 0;
            char* state = places[i] + state_offset;
            addToCount(state, kept);
            state[flag_] |= static_cast<char>(kept);
        }
        return;
    }
    forEachKeptRun(mask, first_row, count,
                   [&](size_t begin, size_t length)
                   {
                       inner_->addBatchMarking(arguments, first_row + begin, length, places + begin,
                                               state_offset, state_offset + flag_, arena);
                   });
}

void MaskedAggregateFunction::addBatchSinglePlace(const ColumnView* arguments, size_t first_row,
                                                  size_t count, char* state, Arena& arena) const
{
    const uint8_t* mask = maskOf(arguments, argument_count_);
    if (counts_rows_)
    {
        uint64_t kept = 0;
        for (size_t i = first_row; i < first_row + count; ++i)
        {
            kept += mask[i] != 0;
        }
        addToCount(state, kept);
        state[flag_] |= static_cast<char>(kept > 0);
        return;
    }
    forEachKeptRun(mask, first_row, count,
                   [&](size_t begin, size_t length)
                   {
                       inner_->addBatchSinglePlace(arguments, first_row + begin, length, state,
                                                   arena);
                       state[flag_] = 1;
                   });
}

void MaskedAggregateFunction::mergeBatch(char* const* targets, char* const* sources, size_t count,
                                         size_t state_offset, MergeContext& context) const
{
    inner_->mergeBatch(targets, sources, count, state_offset, context);
    for (size_t i = 0; i < count; ++i)
    {
        targets[i][state_offset + flag_] |= sources[i][state_offset + flag_];
    }
}

void MaskedAggregateFunction::mergeMany(char* target, std::span<char* const> sources,
                                        MergeContext& context) const
{
    inner_->mergeMany(target, sources, context);
    for (char* source : sources)
    {
        target[flag_] |= source[flag_];
    }
}

void MaskedAggregateFunction::insertResultsInto(char* const* places, size_t count,
                                                size_t state_offset, Column& to) const
{
    const size_t first = to.size();
    inner_->insertResultsInto(places, count, state_offset, to);
    if (!empty_is_null_)
    {
        return;
    }
    to.setNullable();
    for (size_t i = 0; i < count; ++i)
    {
        if (places[i][state_offset + flag_] == 0)
        {
            to.setNull(first + i);
        }
    }
}

}  // namespace granary
