// radixSort over orderedBits against std::sort: every byte pattern the passes skip or take,
// both halves' counters, odd and tiny counts.

#include "engine/aggregation/functions/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace granary
{
namespace
{

/// `values` sorted by radixSort, decoded back.
std::vector<double> radixSorted(const std::vector<double>& values)
{
    std::vector<uint64_t> keys(values.size());
    std::vector<uint64_t> scratch(values.size());
    std::transform(values.begin(), values.end(), keys.begin(), orderedBits);
    const uint64_t* sorted = radixSort(keys.data(), scratch.data(), keys.size());
    std::vector<double> result(values.size());
    std::transform(sorted, sorted + values.size(), result.begin(), fromOrderedBits);
    return result;
}

TEST(OrderedBits, OrderIsNumericOrderAndRoundTrips)
{
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> ascending = {-inf, -1e300, -2.5, -1,  -1e-310, -0.0,
                                           0.0,  1e-310, 1,    2.5, 1e300,   inf};
    for (size_t i = 0; i < ascending.size(); ++i)
    {
        EXPECT_EQ(std::bit_cast<uint64_t>(fromOrderedBits(orderedBits(ascending[i]))),
                  std::bit_cast<uint64_t>(ascending[i]));
        if (i > 0)
        {
            EXPECT_LT(orderedBits(ascending[i - 1]), orderedBits(ascending[i])) << i;
        }
    }
}

TEST(RadixSort, MatchesAComparisonSort)
{
    struct Shape
    {
        std::string name;
        std::function<double(std::mt19937_64&)> draw;
    };
    const std::vector<Shape> shapes = {
        {"any_double", [](std::mt19937_64& random)
         { return std::uniform_real_distribution<double>(-1e12, 1e12)(random); }},
        {"small_integers", [](std::mt19937_64& random) { return double(random() % 3000); }},
        {"one_value", [](std::mt19937_64&) { return 1368.0; }},
        {"two_values", [](std::mt19937_64& random) { return random() % 2 ? -7.5 : 7.5; }},
        {"signed_zeros_and_infinities",
         [](std::mt19937_64& random)
         {
             const double choices[] = {-0.0, 0.0, std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(), 1e-320};
             return choices[random() % 5];
         }},
    };
    for (const Shape& shape : shapes)
    {
        for (const size_t count : {0, 1, 2, 3, 17, 1000, 2047, 2048})
        {
            SCOPED_TRACE(shape.name + " x " + std::to_string(count));
            std::mt19937_64 random(count);
            std::vector<double> values(count);
            for (double& value : values)
            {
                value = shape.draw(random);
            }
            std::vector<double> expected = values;
            // Numeric order, -0.0 before +0.0 as the keys have it.
            std::sort(expected.begin(), expected.end(),
                      [](double a, double b) { return orderedBits(a) < orderedBits(b); });
            const std::vector<double> sorted = radixSorted(values);
            ASSERT_EQ(sorted.size(), expected.size());
            for (size_t i = 0; i < count; ++i)
            {
                ASSERT_EQ(std::bit_cast<uint64_t>(sorted[i]), std::bit_cast<uint64_t>(expected[i]))
                    << "at " << i;
            }
        }
    }
}

}  // namespace
}  // namespace granary
