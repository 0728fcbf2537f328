#include "engine/aggregation/state_merge_batch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "alloc/arena.h"
#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/columns/column.h"

namespace granary
{
namespace
{

/// Groups whose states are merged pairwise: more than one batch, and a last batch that only
/// the final flush merges.
constexpr size_t kGroups = 3 * StateMergeBatch::kPairs + 5;
constexpr size_t kRowsPerGroup = 7;

/// count(*), sum(x) and uniqExact(x) side by side (uniqExact has a merge of its own and a
/// state that must be destroyed), with each group's rows remembered as the oracle.
struct GroupStates
{
    explicit GroupStates(const AggregateLayout& layout, uint64_t seed) : layout(layout)
    {
        std::mt19937_64 random(seed);
        std::vector<uint64_t> values;
        for (size_t group = 0; group < kGroups; ++group)
        {
            places.push_back(layout.createStates(arena));
            rows.emplace_back();
            for (size_t row = 0; row < kRowsPerGroup; ++row)
            {
                const uint64_t value = random() % 20;
                values.push_back(value);
                rows.back().push_back(value);
            }
        }
        std::vector<char*> row_places;
        for (size_t group = 0; group < kGroups; ++group)
        {
            row_places.insert(row_places.end(), kRowsPerGroup, places[group]);
        }
        const ColumnView column = ColumnView::of(TypeId::UInt64, values.data(), values.size());
        layout.addBatch(&column, 0, values.size(), row_places.data(), arena);
    }
    ~GroupStates()
    {
        for (char* place : places)
        {
            layout.destroyStates(place);
        }
    }

    const AggregateLayout& layout;
    Arena arena;
    std::vector<char*> places;
    std::vector<std::vector<uint64_t>> rows;
};

TEST(StateMergeBatch, MergesEveryPairOnceAcrossBatchesAndTheLastFlush)
{
    const std::vector<AggregateArgument> x{{"x", TypeId::UInt64}};
    std::vector<AggregateLayout::Entry> entries;
    entries.push_back({createAggregateFunction("count", {}), {}, "c", 0});
    entries.push_back({createAggregateFunction("sum", x), {0}, "s", 0});
    entries.push_back({createAggregateFunction("uniqExact", x), {0}, "u", 0});
    const AggregateLayout layout(std::move(entries));

    GroupStates target(layout, 1);
    const GroupStates source(layout, 2);
    MergeContext context;
    StateMergeBatch batch(layout, context);
    for (size_t group = 0; group < kGroups; ++group)
    {
        batch.add(target.places[group], source.places[group]);
    }
    batch.flush();
    batch.flush();  // Nothing left: merges nothing a second time.

    for (size_t group = 0; group < kGroups; ++group)
    {
        std::vector<uint64_t> all = target.rows[group];
        all.insert(all.end(), source.rows[group].begin(), source.rows[group].end());
        uint64_t sum = 0;
        for (uint64_t value : all)
        {
            sum += value;
        }
        const std::set<uint64_t> distinct(all.begin(), all.end());

        const auto& entries_of = layout.entries();
        Column count(entries_of[0].function->resultType());
        Column total(entries_of[1].function->resultType());
        Column unique(entries_of[2].function->resultType());
        entries_of[0].function->insertResultInto(target.places[group] + entries_of[0].offset,
                                                 count);
        entries_of[1].function->insertResultInto(target.places[group] + entries_of[1].offset,
                                                 total);
        entries_of[2].function->insertResultInto(target.places[group] + entries_of[2].offset,
                                                 unique);
        ASSERT_EQ(count.valueAt<uint64_t>(0), all.size()) << "group " << group;
        ASSERT_EQ(total.valueAt<uint64_t>(0), sum) << "group " << group;
        ASSERT_EQ(unique.valueAt<uint64_t>(0), distinct.size()) << "group " << group;
    }
}

}  // namespace
}  // namespace granary
