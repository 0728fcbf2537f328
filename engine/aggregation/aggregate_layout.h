#pragma once

#include <array>
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
        /// Positions of the arguments among a morsel's columns.
        std::vector<size_t> argument_columns;
        std::string result_name;
        size_t offset = 0;
    };

    /// Without `inline_count`, a lone count keeps its count in an arena state like any other
    /// function, so that its states can be merged with imported ones (MergeStateFunction).
    explicit AggregateLayout(std::vector<Entry> entries, bool inline_count = true);

    const std::vector<Entry>& entries() const { return entries_; }
    size_t totalSize() const { return total_size_; }
    bool hasNonTrivialDestroy() const { return has_non_trivial_destroy_; }
    /// Whether the only aggregate is a count (count(*) or count(x): columns have no NULLs), its
    /// state the 8-byte count at offset 0.
    bool isLoneCount() const { return is_lone_count_; }

    /// A new group's states in `arena`; destroys what it made if a create() throws.
    char* createStates(Arena& arena) const;
    void destroyStates(char* place) const noexcept;
    /// Folds the states at sources[i] into those at targets[i], for every i < count.
    void mergeStatesBatch(char* const* targets, char* const* sources, size_t count,
                          MergeContext& context) const;
    /// Functions take at most this many arguments.
    static constexpr size_t kMaxArguments = 4;

    /// Adds rows [first_row, first_row + count) of a morsel's `columns`: row first_row + i to
    /// places[i].
    void addBatch(const ColumnView* columns, size_t first_row, size_t count, char* const* places,
                  Arena& arena) const;
    void addBatchSinglePlace(const ColumnView* columns, size_t first_row, size_t count, char* place,
                             Arena& arena) const;
    /// Adds runs of rows, run r (rows first_row + run_starts[r] until the next run) to the
    /// states at places[r] (AggregateFunction::addRuns).
    void addRuns(const ColumnView* columns, size_t first_row, const uint32_t* run_starts,
                 size_t runs, char* const* places, Arena& arena) const;

private:
    using Arguments = std::array<ColumnView, kMaxArguments>;
    static Arguments gatherArguments(const Entry& entry, const ColumnView* columns);

    std::vector<Entry> entries_;
    size_t total_size_ = 0;
    size_t alignment_ = 1;
    bool has_non_trivial_destroy_ = false;
    bool is_lone_count_ = false;
};

}  // namespace granary
