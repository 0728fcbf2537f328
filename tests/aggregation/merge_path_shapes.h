#pragma once

// Group shapes that send an aggregation down each merge path: few groups (serial merge), many
// groups in single-level partials, every partial two-level (partitioned or not), and a mix of
// single-level and two-level partials. Function tests run their oracles over all of them.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/aggregator.h"

namespace granary::testing
{

/// Rows per morsel: small, so that 256 workers all get morsels.
inline constexpr size_t kShapeMorselRows = 100;
/// 300 morsels: more than the largest thread count.
inline constexpr size_t kShapeRows = 300 * kShapeMorselRows;

struct MergePathShape
{
    std::string name;
    /// The group of each row.
    std::function<uint64_t(size_t)> group_of;
    /// Single-threaded; callers set max_threads.
    AggregationSettings settings;
};

/// Deterministic morsels of kShapeMorselRows, and partials of 100 groups or more taking the
/// parallel paths at any thread count.
inline AggregationSettings mergePathSettings()
{
    AggregationSettings settings;
    settings.morsel_rows = kShapeMorselRows;
    settings.deterministic_morsels = true;
    settings.merge_cost = {.min_average_size = 100, .work_per_element = 0, .work_per_partial = 0};
    settings.group_by_two_level_threshold = 1'000'000'000;
    settings.distinct.merge_cost = settings.merge_cost;
    // Small inputs at one thread take the paths of larger ones (two-level, routed rows).
    settings.sole_worker_single_level_rows = 0;
    // The shapes are made for the paths the thresholds choose, not for workers whose first
    // rows are new keys (partition_new_keys_rows has a shape of its own).
    settings.partition_new_keys_rows = 0;
    return settings;
}

inline std::vector<MergePathShape> mergePathShapes()
{
    std::vector<MergePathShape> shapes;
    shapes.push_back(
        {"few_groups", [](size_t row) { return (row * 7919) % 40; }, mergePathSettings()});
    shapes.push_back(
        {"many_groups", [](size_t row) { return (row * 7919) % 15000; }, mergePathSettings()});
    MergePathShape two_level{"all_two_level", [](size_t row) { return (row * 7919) % 1500; },
                             mergePathSettings()};
    two_level.settings.group_by_two_level_threshold = 20;
    shapes.push_back(two_level);
    MergePathShape unpartitioned = two_level;
    unpartitioned.name = "all_two_level_unpartitioned";
    unpartitioned.settings.partition_high_cardinality = false;
    shapes.push_back(unpartitioned);
    MergePathShape mixed{"mixed_levels",
                         [](size_t row)
                         { return row < 16 * kShapeMorselRows ? 1000 + row : row % 30; },
                         mergePathSettings()};
    mixed.settings.group_by_two_level_threshold = kShapeMorselRows / 2;
    mixed.settings.merge_cost.min_average_size = 1'000'000;
    shapes.push_back(mixed);
    return shapes;
}

/// The thread counts function tests run at: one, two and oversubscribed.
inline const std::vector<size_t> kShapeThreadCounts = {1, 2, 7, 64, 256};

/// `descriptions` grouped by the column "key" of `input`, as `shape` sets the aggregation up,
/// at `threads` threads.
inline Block aggregateOnShape(const MergePathShape& shape, const BlockView& input,
                              const std::vector<AggregateDescription>& descriptions, size_t threads)
{
    AggregationSettings settings = shape.settings;
    settings.max_threads = threads;
    QueryContext context(threads);
    return Aggregator({"key"}, descriptions, settings).execute(input, context);
}

}  // namespace granary::testing
