#include "programs/clickbench/suite_runner.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "programs/clickbench/suite_verification.h"

namespace granary::clickbench
{
namespace
{

/// Answers "n" with n rows of n and fails on "fail"; logs what it is asked to do.
class ScriptedEngine final : public QueryEngine
{
public:
    std::string name() const override { return "scripted"; }
    TimedResult run(std::string_view sql) override
    {
        log.push_back("run " + std::string(sql));
        if (sql == "fail")
        {
            throw std::runtime_error("scripted failure");
        }
        const int rows = std::stoi(std::string(sql));
        TimedResult result;
        result.table.column_names = {"n"};
        for (int row = 0; row < rows; ++row)
        {
            result.table.rows.push_back({Value::ofInteger(rows)});
        }
        result.seconds = 0.001 * rows;
        return result;
    }
    void dropCaches() override { log.push_back("drop"); }

    std::vector<std::string> log;
};

TEST(RunSuite, ColdRunAfterDropCachesAndFailuresGoOn)
{
    ScriptedEngine engine;
    std::vector<std::pair<size_t, size_t>> progress;
    const auto runs =
        runSuite(engine, {"2", "fail", "3"}, 2, true,
                 [&](size_t query, size_t run) { progress.emplace_back(query, run); });
    EXPECT_EQ(engine.log, (std::vector<std::string>{"drop", "run 2", "run 2", "drop", "run fail",
                                                    "drop", "run 3", "run 3"}));
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].rows, 2u);
    EXPECT_NEAR(*runs[0].bestSeconds(), 0.002, 1e-12);
    ASSERT_TRUE(runs[0].result.has_value());
    EXPECT_EQ(runs[0].result->rows.size(), 2u);
    EXPECT_EQ(runs[1].error, "scripted failure");
    EXPECT_EQ(runs[1].seconds, (std::vector<std::optional<double>>{std::nullopt, std::nullopt}));
    EXPECT_FALSE(runs[1].bestSeconds().has_value());
    EXPECT_EQ(runs[2].rows, 3u);
    EXPECT_EQ(progress.size(), 5u);
}

TEST(VerifySuites, FailuresAndDifferencesAreCounted)
{
    ScriptedEngine engine;
    SuiteRun ours{"ours", runSuite(engine, {"2", "3", "fail"}, 1, true, {})};
    SuiteRun theirs{"theirs", runSuite(engine, {"2", "4", "1"}, 1, true, {})};
    const auto comparisons = verifySuites(ours, theirs);
    ASSERT_EQ(comparisons.size(), 3u);
    ASSERT_TRUE(comparisons[0]);
    EXPECT_EQ(comparisons[0]->outcome, Comparison::Outcome::kEqual);
    ASSERT_TRUE(comparisons[1]);
    EXPECT_EQ(comparisons[1]->outcome, Comparison::Outcome::kDiffers);
    EXPECT_FALSE(comparisons[2]);
    EXPECT_EQ(countVerificationFailures(ours, theirs, comparisons), 2u);
}

}  // namespace
}  // namespace granary::clickbench
