#include "simd/cpu_features.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "simd_test_support.h"

namespace granary::simd
{
namespace
{

TEST(CpuFeatures, NamesRoundTrip)
{
    for (SimdLevel level : testing::kAllSimdLevels)
    {
        EXPECT_EQ(parseSimdLevel(simdLevelName(level)), level);
    }
    EXPECT_EQ(parseSimdLevel("avx1024"), std::nullopt);
    EXPECT_EQ(parseSimdLevel(""), std::nullopt);
}

TEST(CpuFeatures, LevelsAreSupportedFromScalarUpToTheWidest)
{
    EXPECT_TRUE(cpuSupports(SimdLevel::Scalar));
    const SimdLevel widest = widestSupportedSimdLevel();
    for (SimdLevel level : testing::kAllSimdLevels)
    {
        EXPECT_EQ(cpuSupports(level), level <= widest) << simdLevelName(level);
    }
    EXPECT_TRUE(cpuSupports(defaultSimdLevel()));
    EXPECT_LE(defaultSimdLevel(), widest);
}

/// Run by ctest a second time with GRANARY_SIMD=scalar (see CMakeLists.txt).
TEST(CpuFeatures, EnvironmentVariableLowersTheDefaultLevel)
{
    const char* requested = std::getenv("GRANARY_SIMD");
    if (requested == nullptr)
    {
        GTEST_SKIP() << "GRANARY_SIMD is not set";
    }
    EXPECT_EQ(defaultSimdLevel(), parseSimdLevel(requested));
}

}  // namespace
}  // namespace granary::simd
