#include "engine/aggregation/aggregate_layout.h"

#include <algorithm>

namespace granary
{

AggregateLayout::AggregateLayout(std::vector<Entry> entries) : entries_(std::move(entries))
{
    for (Entry& entry : entries_)
    {
        const size_t alignment = entry.function->stateAlignment();
        total_size_ = (total_size_ + alignment - 1) / alignment * alignment;
        entry.offset = total_size_;
        total_size_ += entry.function->stateSize();
        alignment_ = std::max(alignment_, alignment);
        has_non_trivial_destroy_ |= !entry.function->hasTrivialDestroy();
    }
    total_size_ = std::max<size_t>(total_size_, 1);
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

void AggregateLayout::mergeStates(char* target, char* source, MergeContext& context) const
{
    for (const Entry& entry : entries_)
    {
        entry.function->merge(target + entry.offset, source + entry.offset, context);
    }
}

void AggregateLayout::addBatch(size_t first_row, size_t count, char* const* places,
                               Arena& arena) const
{
    for (const Entry& entry : entries_)
    {
        entry.function->addBatch(entry.arguments.data(), first_row, count, places, entry.offset,
                                 arena);
    }
}

void AggregateLayout::addBatchSinglePlace(size_t first_row, size_t count, char* place,
                                          Arena& arena) const
{
    for (const Entry& entry : entries_)
    {
        entry.function->addBatchSinglePlace(entry.arguments.data(), first_row, count,
                                            place + entry.offset, arena);
    }
}

}  // namespace granary
