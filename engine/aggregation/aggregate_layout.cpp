#include "engine/aggregation/aggregate_layout.h"

#include <algorithm>
#include <string>

#include "engine/aggregation/functions/count.h"
#include "engine/common/exception.h"

namespace granary
{

AggregateLayout::AggregateLayout(std::vector<Entry> entries, bool inline_count)
    : entries_(std::move(entries))
{
    for (Entry& entry : entries_)
    {
        if (entry.argument_columns.size() > kMaxArguments)
        {
            throw Exception(ErrorCode::kBadArguments, entry.function->name() + " takes at most " +
                                                          std::to_string(kMaxArguments) +
                                                          " arguments");
        }
        const size_t alignment = entry.function->stateAlignment();
        total_size_ = (total_size_ + alignment - 1) / alignment * alignment;
        entry.offset = total_size_;
        total_size_ += entry.function->stateSize();
        alignment_ = std::max(alignment_, alignment);
        has_non_trivial_destroy_ |= !entry.function->hasTrivialDestroy();
    }
    total_size_ = std::max<size_t>(total_size_, 1);
    // count itself: a combinator around it (countIf, a FILTER) is named count too, and skips rows.
    is_lone_count_ = inline_count && entries_.size() == 1 &&
                     dynamic_cast<const CountFunction*>(entries_[0].function.get()) != nullptr &&
                     entries_[0].offset == 0;
}

char* AggregateLayout::createStates(Arena& arena) const
{
    char* place = arena.alignedAlloc(total_size_, alignment_);
    size_t created = 0;
    try
    {
        for (; created < entries_.size(); ++created)
        {
            entries_[created].function->create(place + entries_[created].offset, arena);
        }
    }
    catch (...)
    {
        for (size_t i = 0; i < created; ++i)
        {
            entries_[i].function->destroy(place + entries_[i].offset);
        }
        throw;
    }
    return place;
}

void AggregateLayout::destroyStates(char* place) const noexcept
{
    for (const Entry& entry : entries_)
    {
        entry.function->destroy(place + entry.offset);
    }
}

void AggregateLayout::mergeStatesBatch(char* const* targets, char* const* sources, size_t count,
                                       MergeContext& context) const
{
    for (const Entry& entry : entries_)
    {
        entry.function->mergeBatch(targets, sources, count, entry.offset, context);
    }
}

AggregateLayout::Arguments AggregateLayout::gatherArguments(const Entry& entry,
                                                            const ColumnView* columns)
{
    Arguments arguments;
    for (size_t i = 0; i < entry.argument_columns.size(); ++i)
    {
        arguments[i] = columns[entry.argument_columns[i]];
    }
    return arguments;
}

void AggregateLayout::addBatch(const ColumnView* columns, size_t first_row, size_t count,
                               char* const* places, Arena& arena) const
{
    for (const Entry& entry : entries_)
    {
        const Arguments arguments = gatherArguments(entry, columns);
        entry.function->addBatch(arguments.data(), first_row, count, places, entry.offset, arena);
    }
}

void AggregateLayout::addBatchSinglePlace(const ColumnView* columns, size_t first_row, size_t count,
                                          char* place, Arena& arena) const
{
    for (const Entry& entry : entries_)
    {
        const Arguments arguments = gatherArguments(entry, columns);
        entry.function->addBatchSinglePlace(arguments.data(), first_row, count,
                                            place + entry.offset, arena);
    }
}

void AggregateLayout::addRuns(const ColumnView* columns, size_t first_row,
                              const uint32_t* run_starts, size_t runs, char* const* places,
                              Arena& arena) const
{
    for (const Entry& entry : entries_)
    {
        const Arguments arguments = gatherArguments(entry, columns);
        entry.function->addRuns(arguments.data(), first_row, run_starts, runs, places, entry.offset,
                                arena);
    }
}

}  // namespace granary
