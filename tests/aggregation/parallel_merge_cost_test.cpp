#include "engine/aggregation/parallel_merge_cost.h"

#include <gtest/gtest.h>

#include <cstddef>

#include "engine/aggregation/functions/uniq_exact.h"

namespace granary
{
namespace
{

TEST(ParallelMergeCost, PartialsUnderTheFloorAlwaysMergeOnOneThread)
{
    const ParallelMergeCost cost;
    // 999 groups on average, a million workers: still serial.
    EXPECT_TRUE(cost.serialIsFaster(999 * 64, 64, 1'000'000));
    EXPECT_FALSE(cost.serialIsFaster(1'000 * 64, 64, 1'000'000));
    // No partials: nothing to plan, no division by zero.
    EXPECT_TRUE(cost.serialIsFaster(0, 0, 16));
}

TEST(ParallelMergeCost, UpToTheExtraWorkFactorOneThreadWinsAtAnySize)
{
    // The parallel path does work_per_element times the serial work: with that many workers
    // or fewer it cannot catch up, however large the partials.
    const ParallelMergeCost cost;
    for (size_t workers = 1; workers <= 4; ++workers)
    {
        EXPECT_TRUE(cost.serialIsFaster(1'000'000'000, 2, workers)) << workers;
    }
    EXPECT_FALSE(cost.serialIsFaster(1'000'000'000, 2, 5));
    // count(DISTINCT) sets: eleven times the work per value.
    EXPECT_TRUE(kDistinctMergeCost.serialIsFaster(1'000'000'000, 2, 11));
    EXPECT_FALSE(kDistinctMergeCost.serialIsFaster(1'000'000'000, 2, 12));
}

TEST(ParallelMergeCost, TheBoundaryIsWhereBothEstimatesMeet)
{
    // Serial when total <= (4 total + 6400 partials) / workers; at 16 workers and 16 partials
    // that is 12 total <= 102,400: up to 8,533 elements.
    const ParallelMergeCost cost{
        .min_average_size = 0, .work_per_element = 4, .work_per_partial = 6'400};
    EXPECT_TRUE(cost.serialIsFaster(8'533, 16, 16));
    EXPECT_FALSE(cost.serialIsFaster(8'534, 16, 16));
    // Twice the partials, twice the fixed cost: the boundary doubles.
    EXPECT_TRUE(cost.serialIsFaster(17'066, 32, 16));
    EXPECT_FALSE(cost.serialIsFaster(17'067, 32, 16));
}

TEST(ParallelMergeCost, ForcedChoices)
{
    for (size_t total : {size_t{0}, size_t{1}, size_t{1'000'000}})
    {
        EXPECT_TRUE(ParallelMergeCost::alwaysSerial().serialIsFaster(total, 8, 256)) << total;
    }
    EXPECT_FALSE(ParallelMergeCost::alwaysParallel().serialIsFaster(1, 8, 1));
    EXPECT_FALSE(ParallelMergeCost::alwaysParallel().serialIsFaster(1'000'000, 8, 2));
}

}  // namespace
}  // namespace granary
