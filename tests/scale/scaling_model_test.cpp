#include "programs/scale/scaling_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/common/exception.h"
#include "programs/scale/growth_fit.h"

namespace granary::scale
{
namespace
{

/// The oracle: Amdahl's law with a linear contention cost, written out directly.
double referenceTime(double t1, double f, double kappa, double p)
{
    return t1 * (f + (1 - f) / p + kappa * (p - 1));
}

std::vector<ScalingSample> samplesOf(double t1, double f, double kappa,
                                     const std::vector<double>& threads)
{
    std::vector<ScalingSample> samples;
    for (double p : threads)
    {
        samples.push_back({p, referenceTime(t1, f, kappa, p)});
    }
    return samples;
}

TEST(ScalingModel, RecoversAmdahlSerialFractions)
{
    for (double f : {0.0, 0.001, 0.05, 0.3, 1.0})
    {
        const auto samples = samplesOf(10, f, 0, {1, 2, 4, 8, 16, 64, 256});
        const ScalingModel model = fitScalingModel(samples);
        EXPECT_NEAR(model.serialFraction(), f, 1e-9) << f;
        EXPECT_FALSE(model.uses_contention);
        EXPECT_NEAR(model.time(1), 10, 1e-9);
        for (double p : {80.0, 112.0, 240.0, 480.0})
        {
            EXPECT_NEAR(model.speedup(p), 1 / (f + (1 - f) / p), 1e-6 * p) << f << " " << p;
        }
    }
}

TEST(ScalingModel, TwoThreadCountsNeedNoOneThreadRun)
{
    // Only 2 and 4 threads measured: T(1) comes from the model.
    const auto samples = samplesOf(8, 0.1, 0, {2, 4});
    const ScalingModel model = fitScalingModel(samples);
    EXPECT_NEAR(model.serialFraction(), 0.1, 1e-9);
    EXPECT_NEAR(model.time(1), 8, 1e-9);
}

TEST(ScalingModel, RecoversContentionWhenItIsThere)
{
    const auto samples = samplesOf(10, 0.02, 1e-3, {1, 2, 4, 8, 16, 32, 64, 256});
    const ScalingModel model = fitScalingModel(samples);
    EXPECT_TRUE(model.uses_contention);
    EXPECT_NEAR(model.serialFraction(), 0.02, 1e-6);
    EXPECT_NEAR(model.relativeContention(), 1e-3, 1e-8);
    EXPECT_NEAR(model.optimalThreads(), std::sqrt(0.98 / 1e-3), 1e-3);
    EXPECT_NEAR(model.speedup(480), 1 / (0.02 + 0.98 / 480 + 1e-3 * 479), 1e-6);
}

TEST(ScalingModel, ToleratesNoise)
{
    std::mt19937 random(42);
    std::uniform_real_distribution<double> noise(-0.03, 0.03);
    auto samples = samplesOf(5, 0.1, 0, {1, 2, 4, 8, 16, 32, 64});
    for (ScalingSample& s : samples)
    {
        s.seconds *= 1 + noise(random);
    }
    const ScalingModel model = fitScalingModel(samples);
    EXPECT_NEAR(model.serialFraction(), 0.1, 0.01);
    EXPECT_FALSE(model.uses_contention);
    EXPECT_LT(model.rms_relative_error, 0.03);
}

TEST(ScalingModel, RejectsUnusableSamples)
{
    const std::vector<ScalingSample> one_count = {{4, 1.0}, {4, 1.1}};
    EXPECT_THROW(fitScalingModel(one_count), Exception);
    const std::vector<ScalingSample> zero_time = {{1, 1.0}, {2, 0}};
    try
    {
        fitScalingModel(zero_time);
        FAIL() << "expected an exception";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
    }
}

TEST(GrowthFit, FindsPowerLawExponents)
{
    std::vector<ChartPoint> linear;
    std::vector<ChartPoint> quadratic;
    std::vector<ChartPoint> flat;
    for (double x : {2.0, 4.0, 16.0, 64.0, 256.0})
    {
        linear.push_back({x, 3e-4 * x});
        quadratic.push_back({x, 1e-6 * x * x});
        flat.push_back({x, 0.01});
    }
    const GrowthFit l = fitGrowth(linear);
    EXPECT_NEAR(l.exponent, 1, 1e-9);
    EXPECT_NEAR(l.coefficient, 3e-4, 1e-12);
    EXPECT_FALSE(l.superlinear());
    EXPECT_NEAR(fitGrowth(quadratic).exponent, 2, 1e-9);
    EXPECT_TRUE(fitGrowth(quadratic).superlinear());
    EXPECT_NEAR(fitGrowth(flat).exponent, 0, 1e-9);
    EXPECT_EQ(fitGrowth(std::vector<ChartPoint>{{2, 1}}).samples, 1u);
    EXPECT_FALSE(fitGrowth(std::vector<ChartPoint>{{2, 1}, {4, 4}}).superlinear());
}

}  // namespace
}  // namespace granary::scale
