#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "alloc/arena.h"
#include "engine/aggregation/aggregate_function.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// The aggregate functions of a query laid out side by side in one block of memory per group:
/// function i's state is at offset i. Creating, merging, destroying and finalizing a group's
/// states is one call each.
class AggregateLayout
{
public:
    struct Entry
    {
        AggregateFunctionPtr function;
        std::vector<ColumnView> arguments;
        std::string result_name;
        size_t offset = 0;
    };

    explicit AggregateLayout(std::vector<Entry> entries);

    const std::vector<Entry>& entries() const { return entries_; }
    size_t totalSize() const { return total_size_; }
    bool hasNonTrivialDestroy() const { return has_non_trivial_destroy_; }

    /// A new group's states in `arena`; destroys what it made if a create() throws.
    char* createStates(Arena& arena) const;
    void destroyStates(char* place) const noexcept;
    void mergeStates(char* target, char* source, MergeContext& context) const;
    /// Adds rows [first_row, first_row + count): row first_row + i to places[i].
    void addBatch(size_t first_row, size_t count, char* const* places, Arena& arena) const;
    void addBatchSinglePlace(size_t first_row, size_t count, char* place, Arena& arena) const;

private:
    std::vector<Entry> entries_;
    size_t total_size_ = 0;
    size_t alignment_ = 1;
    bool has_non_trivial_destroy_ = false;
};

}  // namespace granary
