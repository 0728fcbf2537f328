#include "engine/aggregation/functions/hyper_log_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/aggregation/functions/uniq_sketch.h"

namespace granary
{
namespace
{

/// uniq's precision: the bounds below are its documented ones.
constexpr uint8_t kPrecision = 12;
/// 1.04 / sqrt(2^12).
const double kStandardError = 1.04 / std::sqrt(double{1 << kPrecision});
/// Seeds per cardinality: enough for the mean error to be within a few percent of its
/// expectation (0.8 standard errors for a normal error).
constexpr uint64_t kSeeds = 20;

/// The values of seed `seed`: consecutive integers (the hash's hardest input) from a
/// seed-dependent start, so that seeds share no value.
uint64_t valueOf(uint64_t seed, uint64_t i)
{
    return (seed << 40) + i;
}

double relativeError(const HyperLogLog& sketch, uint64_t distinct)
{
    return (sketch.estimate() - static_cast<double>(distinct)) / static_cast<double>(distinct);
}

/// Mean absolute and worst relative errors over kSeeds sketches of `distinct` values.
struct ErrorSummary
{
    double mean_absolute = 0;
    double mean_signed = 0;
    double worst = 0;
};

template <typename HashOf>
ErrorSummary errorsOver(uint64_t distinct, HashOf&& hash_of)
{
    ErrorSummary summary;
    for (uint64_t seed = 0; seed < kSeeds; ++seed)
    {
        HyperLogLog sketch(kPrecision);
        for (uint64_t i = 0; i < distinct; ++i)
        {
            sketch.insertHash(hash_of(seed, i));
        }
        const double error = relativeError(sketch, distinct);
        summary.mean_absolute += std::fabs(error) / kSeeds;
        summary.mean_signed += error / kSeeds;
        summary.worst = std::max(summary.worst, std::fabs(error));
    }
    return summary;
}

void expectWithinBounds(const ErrorSummary& summary, uint64_t distinct)
{
    SCOPED_TRACE(std::to_string(distinct) + " distinct values");
    // The documented bound: relative standard error 1.6 % (below 2 %); no count beyond 3 of
    // them; no bias beyond 3 standard errors of the mean of kSeeds.
    EXPECT_LT(summary.mean_absolute, 0.02);
    EXPECT_LT(summary.worst, 3 * kStandardError);
    EXPECT_LT(std::fabs(summary.mean_signed), 3 * kStandardError / std::sqrt(double{kSeeds}));
}

TEST(HyperLogLog, IntegersAreCountedWithinTheDocumentedError)
{
    for (uint64_t distinct : {1'000, 10'000, 100'000, 1'000'000})
    {
        const ErrorSummary summary = errorsOver(
            distinct, [](uint64_t seed, uint64_t i) { return sketchHash(valueOf(seed, i)); });
        expectWithinBounds(summary, distinct);
    }
}

TEST(HyperLogLog, StringsAreCountedWithinTheDocumentedError)
{
    for (uint64_t distinct : {1'000, 10'000, 100'000})
    {
        const ErrorSummary summary =
            errorsOver(distinct, [](uint64_t seed, uint64_t i)
                       { return sketchHash("user-" + std::to_string(valueOf(seed, i))); });
        expectWithinBounds(summary, distinct);
    }
}

TEST(HyperLogLog, AHundredMillionIntegers)
{
    constexpr uint64_t kDistinct = 100'000'000;
    HyperLogLog sketch(kPrecision);
    for (uint64_t i = 0; i < kDistinct; ++i)
    {
        sketch.insertHash(sketchHash(i));
    }
    EXPECT_LT(std::fabs(relativeError(sketch, kDistinct)), 3 * kStandardError);
}

TEST(HyperLogLog, SmallCardinalitiesAreNearlyExact)
{
    for (uint64_t seed = 0; seed < kSeeds; ++seed)
    {
        HyperLogLog sketch(kPrecision);
        EXPECT_EQ(sketch.estimate(), 0);
        // Two values share a register with probability n^2 / 2m: below ~16 values, the
        // estimate is within 1 at 5 standard errors of its collision correction.
        for (uint64_t distinct = 1; distinct <= 16; ++distinct)
        {
            sketch.insertHash(sketchHash(valueOf(seed, distinct)));
            // Repeats change nothing.
            sketch.insertHash(sketchHash(valueOf(seed, distinct)));
            EXPECT_NEAR(sketch.estimate(), static_cast<double>(distinct), 1.0) << "seed " << seed;
        }
    }
}

TEST(HyperLogLog, MergingInAnyOrderGivesTheSketchOfAllValues)
{
    constexpr size_t kParts = 5;
    constexpr uint64_t kValuesPerPart = 20'000;
    std::vector<HyperLogLog> parts(kParts, HyperLogLog(kPrecision));
    HyperLogLog all(kPrecision);
    for (size_t part = 0; part < kParts; ++part)
    {
        // Overlapping ranges: half of each part's values are also in the next one.
        for (uint64_t i = 0; i < kValuesPerPart; ++i)
        {
            const uint64_t hash = sketchHash(part * kValuesPerPart / 2 + i);
            parts[part].insertHash(hash);
            all.insertHash(hash);
        }
    }
    std::vector<size_t> order = {0, 1, 2, 3, 4};
    do
    {
        HyperLogLog merged(kPrecision);
        for (size_t part : order)
        {
            merged.merge(parts[part]);
        }
        ASSERT_TRUE(merged.packed() == all.packed());
    } while (std::next_permutation(order.begin(), order.end()));
    // A tree of merges too.
    HyperLogLog left = parts[3];
    left.merge(parts[1]);
    HyperLogLog right = parts[4];
    right.merge(parts[0]);
    right.merge(parts[2]);
    right.merge(left);
    EXPECT_TRUE(right.packed() == all.packed());
}

TEST(HyperLogLog, PackedRegistersRoundTripAndAreChecked)
{
    HyperLogLog sketch(kPrecision);
    for (uint64_t i = 0; i < 50'000; ++i)
    {
        sketch.insertHash(sketchHash(i));
    }
    EXPECT_EQ(sketch.packed().size(), 3072u);
    EXPECT_TRUE(HyperLogLog::isValidPacked(sketch.packed(), kPrecision));
    EXPECT_FALSE(HyperLogLog::isValidPacked(sketch.packed(), kPrecision + 1));
    EXPECT_FALSE(HyperLogLog::isValidPacked(sketch.packed().substr(1), kPrecision));

    HyperLogLog copy(kPrecision);
    copy.mergePacked(sketch.packed());
    EXPECT_TRUE(copy.packed() == sketch.packed());
    for (size_t index = 0; index < sketch.registerCount(); ++index)
    {
        ASSERT_LE(sketch.registerAt(index), HyperLogLog::maxRank(kPrecision));
    }

    // A register of 63 is more than any hash gives at this precision.
    std::string corrupted(sketch.packed());
    corrupted[0] = static_cast<char>(0xFF);
    EXPECT_FALSE(HyperLogLog::isValidPacked(corrupted, kPrecision));
}

TEST(HyperLogLog, TheLargestRankIsKept)
{
    HyperLogLog sketch(kPrecision);
    // Register 0, all bits below the index zero: the rank saturates.
    sketch.insertHash(0);
    EXPECT_EQ(sketch.registerAt(0), HyperLogLog::maxRank(kPrecision));
    // Register 1 (top bits 0...01), then the next bit set: rank 1.
    sketch.insertHash((uint64_t{1} << 52) | (uint64_t{1} << 51));
    EXPECT_EQ(sketch.registerAt(1), 1);
    sketch.insertHash((uint64_t{1} << 52) | (uint64_t{1} << 40));
    EXPECT_EQ(sketch.registerAt(1), 12);
    sketch.insertHash((uint64_t{1} << 52) | (uint64_t{1} << 50));
    EXPECT_EQ(sketch.registerAt(1), 12);
    EXPECT_EQ(sketch.registerAt(2), 0);
}

}  // namespace
}  // namespace granary
