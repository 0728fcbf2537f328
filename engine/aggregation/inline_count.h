#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "engine/aggregation/key_methods.h"

namespace granary
{

/// A GROUP BY whose only aggregate is a count (AggregateLayout::isLoneCount) keeps each group's
/// count in its table cell's state slot, where other layouts keep a pointer to the group's
/// states in the arena: a row's count is then added in the cell the probe has just loaded,
/// not in a second cache line elsewhere, and no state is allocated. Merges add the slots;
/// finalize reads them through InlineCountStates.
inline uint64_t countInSlot(StatePointer slot)
{
    return std::bit_cast<uint64_t>(slot);
}
inline StatePointer slotHoldingCount(uint64_t count)
{
    return std::bit_cast<StatePointer>(count);
}

/// Adds `rows` to the count in a cell's slot (a new cell's slot holds no count yet).
inline void addToCountSlot(StatePointer& slot, bool inserted, uint64_t rows)
{
    slot = slotHoldingCount((inserted ? 0 : countInSlot(slot)) + rows);
}

/// State pointers to a batch of inline counts, for the code that finalizes states in arenas:
/// the counts are copied out of their slots and each pointer points at its copy.
template <size_t BatchSize>
class InlineCountStates
{
public:
    StatePointer* pointTo(const StatePointer* slots, size_t count)
    {
        for (size_t i = 0; i < count; ++i)
        {
            counts_[i] = countInSlot(slots[i]);
            places_[i] = reinterpret_cast<StatePointer>(&counts_[i]);
        }
        return places_.data();
    }

private:
    std::array<uint64_t, BatchSize> counts_;
    std::array<StatePointer, BatchSize> places_;
};

}  // namespace granary
