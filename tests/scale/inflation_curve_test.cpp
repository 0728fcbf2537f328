#include "programs/scale/inflation_curve.h"

#include <gtest/gtest.h>

namespace granary::scale
{
namespace
{

InflationRow rowAt(size_t threads, std::optional<double> inflation)
{
    InflationRow row;
    row.threads = threads;
    row.inflation = inflation;
    return row;
}

/// 1.2 at 16 threads, 1.5 at 64, 1.8 at 256 (rows out of order, a 1-thread row of 1.0 and a
/// failed 128-thread measurement among them).
InflationCurve sampleCurve()
{
    return inflationCurveOf(std::vector<InflationRow>{
        rowAt(64, 1.5), rowAt(1, 1.0), rowAt(256, 1.8), rowAt(128, std::nullopt), rowAt(16, 1.2)});
}

TEST(InflationCurve, KeepsTheMeasuredPointsAboveOneThreadInOrder)
{
    const InflationCurve curve = sampleCurve();
    ASSERT_EQ(curve.points.size(), 3u);
    EXPECT_EQ(curve.points[0].threads, 16);
    EXPECT_EQ(curve.points[1].threads, 64);
    EXPECT_EQ(curve.points[2].inflation, 1.8);
}

TEST(InflationCurve, OneAtOneThread)
{
    EXPECT_EQ(sampleCurve().at(1), 1);
    EXPECT_EQ(InflationCurve{}.at(64), 1);
}

TEST(InflationCurve, ExactAtMeasuredCounts)
{
    const InflationCurve curve = sampleCurve();
    EXPECT_DOUBLE_EQ(curve.at(16), 1.2);
    EXPECT_DOUBLE_EQ(curve.at(64), 1.5);
    EXPECT_DOUBLE_EQ(curve.at(256), 1.8);
}

TEST(InflationCurve, LinearInLog2OfThreadsBetween)
{
    const InflationCurve curve = sampleCurve();
    // From (1, 1) to (16, 1.2): log2 2 = 1 and log2 4 = 2 of log2 16 = 4.
    EXPECT_NEAR(curve.at(2), 1.05, 1e-12);
    EXPECT_NEAR(curve.at(4), 1.1, 1e-12);
    // 32 is halfway from 16 to 64 in log2, 128 halfway from 64 to 256.
    EXPECT_NEAR(curve.at(32), 1.35, 1e-12);
    EXPECT_NEAR(curve.at(128), 1.65, 1e-12);
}

TEST(InflationCurve, ConstantPastTheLargestMeasuredCount)
{
    const InflationCurve curve = sampleCurve();
    EXPECT_EQ(curve.at(480), 1.8);
    EXPECT_EQ(curve.at(4096), 1.8);
}

}  // namespace
}  // namespace granary::scale
