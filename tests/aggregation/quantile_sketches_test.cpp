// The approximate quantile states, ReservoirSample (quantile) and TDigest (quantileTDigest),
// against the exact quantiles: within their documented rank error over many seeds,
// distributions and levels, whatever the order their partial states are merged in, with their
// memory bounded.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/aggregation/functions/reservoir_sample.h"
#include "engine/aggregation/functions/t_digest.h"

namespace granary
{
namespace
{

const std::vector<double> kLevels = {0, 0.01, 0.5, 0.99, 1};
/// Values per data set: several reservoirs' worth, many digest compressions.
constexpr size_t kValues = 100'000;
/// Seeds per distribution.
constexpr uint64_t kSeeds = 12;

struct Distribution
{
    std::string name;
    std::function<double(std::mt19937_64&)> draw;
};

const std::vector<Distribution> kDistributions = {
    {"uniform", [](std::mt19937_64& random)
     { return std::uniform_real_distribution<double>(-1e6, 1e6)(random); }},
    {"exponential",
     [](std::mt19937_64& random) { return std::exponential_distribution<double>(0.01)(random); }},
    {"lognormal",
     [](std::mt19937_64& random) { return std::lognormal_distribution<double>(0, 3)(random); }},
    {"ten_values", [](std::mt19937_64& random) { return double(random() % 10); }},
    {"one_value_mostly",
     [](std::mt19937_64& random) { return random() % 100 < 95 ? 7.0 : double(random() % 1000); }},
};

std::vector<double> draw(const Distribution& distribution, uint64_t seed, size_t count)
{
    std::mt19937_64 random(seed);
    std::vector<double> values(count);
    for (double& value : values)
    {
        value = distribution.draw(random);
    }
    return values;
}

/// How far the rank of `value` among `sorted` is from `level`, as a fraction of the values: 0
/// when level * n lies within the ranks `value` occupies (or would be inserted at).
double rankError(const std::vector<double>& sorted, double value, double level)
{
    const double n = double(sorted.size());
    const double below =
        double(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin()) / n;
    const double at_most =
        double(std::upper_bound(sorted.begin(), sorted.end(), value) - sorted.begin()) / n;
    return std::max({0.0, below - level, level - at_most});
}

template <typename Sketch>
Sketch sketchOf(const double* values, size_t count)
{
    Sketch sketch;
    for (size_t i = 0; i < count; ++i)
    {
        sketch.add(values[i]);
    }
    return sketch;
}

/// The largest rank error of `sketch` over kLevels.
template <typename Sketch>
double worstRankError(Sketch& sketch, const std::vector<double>& sorted)
{
    double worst = 0;
    for (const double level : kLevels)
    {
        worst = std::max(worst, rankError(sorted, sketch.quantile(level), level));
    }
    return worst;
}

template <typename Sketch>
class QuantileSketch : public ::testing::Test
{
};
using Sketches = ::testing::Types<ReservoirSample, TDigest>;
TYPED_TEST_SUITE(QuantileSketch, Sketches);

TYPED_TEST(QuantileSketch, WithinTheRankErrorBoundOverSeedsDistributionsAndLevels)
{
    for (const Distribution& distribution : kDistributions)
    {
        double worst = 0;
        for (uint64_t seed = 1; seed <= kSeeds; ++seed)
        {
            std::vector<double> values = draw(distribution, seed, kValues);
            TypeParam sketch = sketchOf<TypeParam>(values.data(), values.size());
            std::sort(values.begin(), values.end());
            EXPECT_EQ(sketch.count(), kValues);
            // The extremes are exact.
            if constexpr (std::is_same_v<TypeParam, TDigest>)
            {
                EXPECT_EQ(sketch.quantile(0), values.front());
                EXPECT_EQ(sketch.quantile(1), values.back());
            }
            worst = std::max(worst, worstRankError(sketch, values));
        }
        EXPECT_LE(worst, TypeParam::kRankErrorBound) << distribution.name;
        std::cout << distribution.name << ": worst rank error " << worst << "\n";
    }
}

TYPED_TEST(QuantileSketch, SortedAndReversedInputs)
{
    std::vector<double> ascending(kValues);
    std::iota(ascending.begin(), ascending.end(), 0.0);
    std::vector<double> descending(ascending.rbegin(), ascending.rend());
    for (const auto* values : {&ascending, &descending})
    {
        TypeParam sketch = sketchOf<TypeParam>(values->data(), values->size());
        EXPECT_LE(worstRankError(sketch, ascending), TypeParam::kRankErrorBound);
    }
}

/// A sketch of a value set small enough to be kept whole answers the exact interpolated
/// quantile: the reservoir's sample is all the values, the digest's centroids single values.
TYPED_TEST(QuantileSketch, SmallInputsAreExact)
{
    const std::vector<double> values = {5, 1, 4, 1, 5, 9, 2, 6};
    TypeParam sketch = sketchOf<TypeParam>(values.data(), values.size());
    // Sorted: 1 1 2 4 5 5 6 9.
    EXPECT_EQ(sketch.quantile(0), 1);
    EXPECT_EQ(sketch.quantile(0.5), 4.5);
    EXPECT_EQ(sketch.quantile(1), 9);
    EXPECT_DOUBLE_EQ(sketch.quantile(0.25), 1.75);
    TypeParam empty;
    EXPECT_TRUE(std::isnan(empty.quantile(0.5)));
}

/// Merges `parts` (a sketch each) in one of several orders.
template <typename Sketch>
Sketch mergeInOrder(std::vector<Sketch> parts, const std::string& order, uint64_t seed)
{
    if (order == "left")
    {
        for (size_t i = 1; i < parts.size(); ++i)
        {
            parts[0].merge(parts[i]);
        }
        return parts[0];
    }
    if (order == "right")
    {
        for (size_t i = parts.size() - 1; i > 0; --i)
        {
            parts[i - 1].merge(parts[i]);
        }
        return parts[0];
    }
    if (order == "tree")
    {
        for (size_t stride = 1; stride < parts.size(); stride *= 2)
        {
            for (size_t i = 0; i + stride < parts.size(); i += 2 * stride)
            {
                parts[i].merge(parts[i + stride]);
            }
        }
        return parts[0];
    }
    std::mt19937_64 random(seed);
    std::shuffle(parts.begin(), parts.end(), random);
    Sketch merged;
    for (const Sketch& part : parts)
    {
        merged.merge(part);
    }
    return merged;
}

TYPED_TEST(QuantileSketch, MergesInAnyOrderStayWithinTheBound)
{
    for (const Distribution& distribution : kDistributions)
    {
        for (uint64_t seed = 1; seed <= 4; ++seed)
        {
            std::vector<double> values = draw(distribution, seed, kValues);
            // Parts of random sizes, some under a reservoir's capacity, some over.
            std::mt19937_64 random(seed);
            std::vector<TypeParam> parts;
            for (size_t begin = 0; begin < values.size();)
            {
                const size_t size = std::min<size_t>(values.size() - begin, 1 + random() % 20'000);
                parts.push_back(sketchOf<TypeParam>(values.data() + begin, size));
                begin += size;
            }
            std::sort(values.begin(), values.end());
            for (const char* order : {"left", "right", "tree", "shuffled"})
            {
                TypeParam merged = mergeInOrder(parts, order, seed);
                EXPECT_EQ(merged.count(), kValues);
                EXPECT_LE(worstRankError(merged, values), TypeParam::kRankErrorBound)
                    << distribution.name << " seed " << seed << " merged " << order;
            }
        }
    }
}

/// Two partial samples of different sizes: the merged sample takes from each in proportion
/// to the values it stands for (3 to 1 here), as a sample of the union would.
TEST(ReservoirSample, MergedSamplesWeighTheirSidesByTheirCounts)
{
    const size_t small = 4 * ReservoirSample::kCapacity;
    double share_of_large = 0;
    constexpr int kTrials = 20;
    for (int trial = 0; trial < kTrials; ++trial)
    {
        ReservoirSample large;
        ReservoirSample other;
        for (size_t i = 0; i < 3 * small; ++i)
        {
            large.add(-1.0 - double(i % 1000) - trial);
        }
        for (size_t i = 0; i < small; ++i)
        {
            other.add(1.0 + double(i % 1000) + trial);
        }
        // Whichever side the merge starts from.
        ReservoirSample merged;
        if (trial % 2 == 0)
        {
            merged = large;
            merged.merge(other);
        }
        else
        {
            merged = other;
            merged.merge(large);
        }
        // The fraction of negative values is where the quantiles cross 0.
        double low = 0;
        double high = 1;
        for (int step = 0; step < 30; ++step)
        {
            const double middle = (low + high) / 2;
            (merged.quantile(middle) < 0 ? low : high) = middle;
        }
        share_of_large += low / kTrials;
    }
    // The share's standard deviation over 20 trials is ~0.001.
    EXPECT_NEAR(share_of_large, 0.75, 0.005);
}

TYPED_TEST(QuantileSketch, MemoryStaysBoundedOverAHundredMillionValues)
{
    constexpr size_t kMany = 100'000'000;
    /// Values per partial state merged into the total.
    constexpr size_t kPartialValues = 10'000'000;
    const size_t bound = std::is_same_v<TypeParam, ReservoirSample>
                             ? ReservoirSample::kCapacity * sizeof(double)
                             : TDigest::kMaxHeapBytes;
    // Exponential(1) values by inversion of their CDF F(x) = 1 - exp(-x): the rank of an
    // estimate among 1e8 such values is F(estimate) within ~1e-4, far inside either bound.
    std::mt19937_64 random(5);
    const auto draw_exponential = [&random]
    { return -std::log1p(-std::ldexp(double(random() >> 11), -53)); };
    TypeParam sketch;
    TypeParam merged;
    for (size_t i = 0; i < kMany; ++i)
    {
        sketch.add(draw_exponential());
        if (i % kPartialValues == kPartialValues - 1)
        {
            merged.merge(sketch);
            EXPECT_LE(sketch.heapBytes(), bound);
            EXPECT_LE(merged.heapBytes(), bound);
            sketch = TypeParam();
        }
    }
    EXPECT_EQ(merged.count(), kMany);
    for (const double level : {0.01, 0.25, 0.5, 0.75, 0.99})
    {
        const double rank = -std::expm1(-merged.quantile(level));
        EXPECT_LE(std::abs(rank - level), TypeParam::kRankErrorBound) << "level " << level;
    }
}

}  // namespace
}  // namespace granary
