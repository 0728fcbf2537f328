// 200k generated rows against the published statistics, and every ClickBench filter selecting
// rows, counted straight from the column values.
#include "engine/datagen/hits_statistics.h"

#include <gtest/gtest.h>

#include <sstream>

#include "engine/datagen/hits_generator.h"
#include "engine/datagen/hits_schema.h"
#include "engine/datagen/hits_targets.h"

namespace granary::datagen
{
namespace
{

namespace C = HitsColumn;

class HitsAt200k : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        const HitsGenerator generator(200'000, 1);
        blocks_ = new std::vector<Block>();
        for (size_t chunk = 0; chunk < generator.chunkCount(); ++chunk)
        {
            blocks_->push_back(generator.generateChunk(chunk));
        }
    }
    static void TearDownTestSuite() { delete blocks_; }

    /// Rows for which `predicate(block, row)` holds.
    template <typename Predicate>
    static size_t count(Predicate predicate)
    {
        size_t total = 0;
        for (const Block& block : *blocks_)
        {
            for (size_t row = 0; row < block.rows(); ++row)
            {
                total += predicate(block, row);
            }
        }
        return total;
    }

    static std::vector<Block>* blocks_;
};

std::vector<Block>* HitsAt200k::blocks_ = nullptr;

template <typename T>
T value(const Block& block, size_t column, size_t row)
{
    return block.columns[column].column.valueAt<T>(row);
}

std::string_view text(const Block& block, size_t column, size_t row)
{
    return block.columns[column].column.stringAt(row);
}

bool hotCounterInJuly(const Block& block, size_t row)
{
    const auto day = value<uint16_t>(block, C::EventDate, row);
    return value<int32_t>(block, C::CounterID, row) == 62 && day >= 15887 && day <= 15917 &&
           value<int16_t>(block, C::IsRefresh, row) == 0;
}

TEST_F(HitsAt200k, StatisticsWithinTolerance)
{
    HitsStatistics statistics;
    for (const Block& block : *blocks_)
    {
        statistics.add(block);
    }
    std::ostringstream report;
    const size_t failures = statistics.printReport(report);
    EXPECT_EQ(failures, 0U) << report.str();
    for (const HitsCheck& check : statistics.checks())
    {
        EXPECT_TRUE(check.passes())
            << check.name << ": measured " << check.measured << ", target " << check.target;
    }
}

TEST_F(HitsAt200k, PlantedValuesArePresent)
{
    EXPECT_EQ(count([](const Block& b, size_t r)
                    { return value<int64_t>(b, C::UserID, r) == hits_targets::kPlantedUserId; }),
              4U);
    EXPECT_GT(count([](const Block& b, size_t r)
                    { return value<int64_t>(b, C::UserID, r) == hits_targets::kHeaviestUserId; }),
              20U);
    EXPECT_GT(count([](const Block& b, size_t r)
                    { return value<int64_t>(b, C::URLHash, r) == hits_targets::kPlantedUrlHash; }),
              20U);
}

TEST_F(HitsAt200k, EveryQueryFilterSelectsRows)
{
    const auto contains = [](std::string_view haystack, std::string_view needle)
    { return haystack.find(needle) != std::string_view::npos; };
    // Q2, Q8.
    EXPECT_GT(
        count([](const Block& b, size_t r) { return value<int16_t>(b, C::AdvEngineID, r) != 0; }),
        0U);
    // Q11, Q12: iPad leads.
    const size_t models =
        count([](const Block& b, size_t r) { return !text(b, C::MobilePhoneModel, r).empty(); });
    const size_t ipads =
        count([](const Block& b, size_t r) { return text(b, C::MobilePhoneModel, r) == "iPad"; });
    EXPECT_GT(ipads, models / 2);
    // Q21, Q22.
    EXPECT_GT(count(
                  [&](const Block& b, size_t r) {
                      return contains(text(b, C::URL, r), "google") &&
                             !text(b, C::SearchPhrase, r).empty();
                  }),
              0U);
    // Q23.
    EXPECT_GT(count(
                  [&](const Block& b, size_t r)
                  {
                      return contains(text(b, C::Title, r), "Google") &&
                             !contains(text(b, C::URL, r), ".google.") &&
                             !text(b, C::SearchPhrase, r).empty();
                  }),
              0U);
    // Q29: referers the regexp rewrites (scheme, host, then a path) and ones it leaves whole.
    const auto rewritten = [](std::string_view referer)
    {
        const size_t host = referer.starts_with("https://")  ? 8
                            : referer.starts_with("http://") ? 7
                                                             : 0;
        return host != 0 && referer.find('/', host) != std::string_view::npos;
    };
    EXPECT_GT(count([&](const Block& b, size_t r) { return rewritten(text(b, C::Referer, r)); }),
              0U);
    EXPECT_GT(
        count([&](const Block& b, size_t r)
              { return !text(b, C::Referer, r).empty() && !rewritten(text(b, C::Referer, r)); }),
        0U);
    // Q37, Q38, Q43.
    EXPECT_GT(count(
                  [](const Block& b, size_t r)
                  {
                      return hotCounterInJuly(b, r) &&
                             value<int16_t>(b, C::DontCountHits, r) == 0 &&
                             !text(b, C::URL, r).empty() && !text(b, C::Title, r).empty();
                  }),
              1000U);
    // Q39.
    EXPECT_GT(count(
                  [](const Block& b, size_t r)
                  {
                      return hotCounterInJuly(b, r) && value<int16_t>(b, C::IsLink, r) != 0 &&
                             value<int16_t>(b, C::IsDownload, r) == 0;
                  }),
              100U);
    // Q40: the CASE's Referer branch.
    EXPECT_GT(count(
                  [](const Block& b, size_t r)
                  {
                      return hotCounterInJuly(b, r) &&
                             value<int16_t>(b, C::SearchEngineID, r) == 0 &&
                             value<int16_t>(b, C::AdvEngineID, r) == 0 &&
                             !text(b, C::Referer, r).empty();
                  }),
              0U);
    // Q41.
    EXPECT_GT(count(
                  [](const Block& b, size_t r)
                  {
                      const auto source = value<int16_t>(b, C::TraficSourceID, r);
                      return hotCounterInJuly(b, r) && (source == -1 || source == 6) &&
                             value<int64_t>(b, C::RefererHash, r) ==
                                 hits_targets::kPlantedRefererHash;
                  }),
              20U);
}

}  // namespace
}  // namespace granary::datagen
