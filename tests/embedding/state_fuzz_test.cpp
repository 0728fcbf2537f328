// A bounded randomized test of the partial-state importer: valid state batches with one state
// damaged at random (bytes flipped, cut short, lengthened, replaced by noise) are either
// merged or refused with kIncorrectData, never read out of bounds (run under ASan and UBSan by
// the sanitizer stage, tests/sanitized_fuzz.sh).

#include <gtest/gtest.h>

#include <random>

#include "tests/embedding/embedding_test_support.h"

namespace granary
{
namespace
{

/// Keys over 300 groups, NULL on some rows; values of every function's argument type.
Block fuzzInput(size_t rows)
{
    std::mt19937_64 random(5);
    Block block;
    for (const auto& [name, type] : {std::pair{"key", TypeId::UInt32},
                                     {"name", TypeId::String},
                                     {"value", TypeId::Int64},
                                     {"text", TypeId::String}})
    {
        block.columns.push_back({name, Column(type)});
    }
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.append<uint32_t>(static_cast<uint32_t>(random() % 300));
        block.columns[1].column.appendString("n" + std::to_string(random() % 40));
        block.columns[2].column.append<int64_t>(static_cast<int64_t>(random() % 100000));
        block.columns[3].column.appendString(std::string(random() % 20, 'a' + random() % 26));
        if (random() % 13 == 0)
        {
            block.columns[0].column.setNull(row);
            block.columns[2].column.setNull(row);
        }
    }
    return block;
}

const std::vector<Aggregate> kAggregates = {
    {"count", {"value"}, "count"},
    {"sum", {"value"}, "sum"},
    {"avg", {"value"}, "avg"},
    {"min", {"text"}, "min"},
    {"max", {"value"}, "max"},
    {"any", {"text"}, "any"},
    {"uniqExact", {"value"}, "distinct"},
    {"uniqExact", {"text"}, "distinct_text"},
    {"sumWithOverflow", {"value"}, "wrapping_sum"},
    {"varSamp", {"value"}, "variance"},
    {"corr", {"value", "value"}, "correlation"},
    {"argMax", {"text", "value"}, "arg_max"},
    {"anyHeavy", {"text"}, "heavy"},
    {"groupBitOr", {"value"}, "bits"},
    {"uniq", {"text"}, "approximate_distinct"},
    {"uniqCombined", {"value"}, "combined"},
    {"quantileExact", {"value"}, "exact_median", "", {0.5}},
    {"quantile", {"value"}, "median", "", {0.5}},
    {"quantileTDigest", {"value"}, "digest_median", "", {0.5}},
    {"sumDistinct", {"value"}, "sum_distinct"},
    {"topK", {"text"}, "top_texts", "", {3}},
    {"topK", {"value"}, "top_values", "", {2, 5}},
    {"quantilesExact", {"value"}, "exact_quartiles", "", {0.25, 0.75}},
    {"quantilesTDigest", {"value"}, "digest_quartiles", "", {0.25, 0.75}}};

/// `bytes` damaged one of four ways.
std::string damage(std::string bytes, std::mt19937_64& random)
{
    switch (random() % 4)
    {
        case 0:
            if (!bytes.empty())
            {
                bytes[random() % bytes.size()] ^= static_cast<char>(1 + random() % 255);
            }
            return bytes;
        case 1:
            return bytes.substr(0, bytes.empty() ? 0 : random() % bytes.size());
        case 2:
            return bytes + std::string(1 + random() % 9, static_cast<char>(random()));
        default:
        {
            std::string noise(random() % 40, '\0');
            for (char& c : noise)
            {
                c = static_cast<char>(random());
            }
            return noise;
        }
    }
}

TEST(StateFuzz, DamagedStatesAreMergedOrRefusedNeverMisread)
{
    constexpr size_t kIterations = 1'000;
    const Block input = fuzzInput(4'000);
    GroupBySettings settings;
    settings.threads = 1;
    settings.partial_states = true;
    GroupBy exporter(testing::fieldsOf(input, true), {"key", "name"}, kAggregates, settings);
    testing::sinkFromHosts(exporter, input, 1, 4'000);
    ResultStream exported = exporter.finishPartial();
    const Block states = testing::collect(exported);
    ASSERT_GT(states.rows(), 100u);

    std::mt19937_64 random(42);
    size_t refused = 0;
    for (size_t iteration = 0; iteration < kIterations; ++iteration)
    {
        Block batch;
        const size_t damaged_column = 2 + random() % kAggregates.size();
        const size_t damaged_row = random() % states.rows();
        for (size_t c = 0; c < states.columns.size(); ++c)
        {
            const Column& source = states.columns[c].column;
            Column column(source.type());
            if (c != damaged_column)
            {
                column.appendRange(source.view(), 0, states.rows());
            }
            else
            {
                column.appendRange(source.view(), 0, damaged_row);
                column.appendString(damage(std::string(source.stringAt(damaged_row)), random));
                column.appendRange(source.view(), damaged_row + 1, states.rows() - damaged_row - 1);
            }
            batch.columns.push_back({states.columns[c].name, std::move(column)});
        }
        GroupBy importer(testing::fieldsOf(input, true), {"key", "name"}, kAggregates, settings);
        LocalSink sink = importer.makePartialStateSink();
        try
        {
            sink.sink(testing::sliceOf(batch, 0, batch.rows()), batch.rows());
        }
        catch (const Exception& error)
        {
            ASSERT_EQ(error.code(), ErrorCode::kIncorrectData) << error.what();
            ++refused;
        }
        importer.combine(std::move(sink));
        // A sum whose damaged bytes still read as a number may no longer fit its result.
        try
        {
            ResultStream result = importer.finish();
            testing::collect(result);
        }
        catch (const Exception& error)
        {
            ASSERT_EQ(error.code(), ErrorCode::kValueOutOfRangeOfDataType) << error.what();
        }
    }
    // Most damage is caught; flipped bytes inside a number's value are not detectable.
    EXPECT_GT(refused, kIterations / 2);
}

/// A GroupBy that took imported states and is never finished frees them with its plan still
/// alive (its locals of states use the import's plan; under ASan in the sanitizer stage).
TEST(StateFuzz, AnUnfinishedGroupByOfImportedStatesFreesThemSafely)
{
    const Block input = fuzzInput(1'000);
    GroupBySettings settings;
    settings.threads = 1;
    settings.partial_states = true;
    GroupBy exporter(testing::fieldsOf(input, true), {"key", "name"}, kAggregates, settings);
    testing::sinkFromHosts(exporter, input, 1, 1'000);
    ResultStream exported = exporter.finishPartial();
    const Block states = testing::collect(exported);
    GroupBy importer(testing::fieldsOf(input, true), {"key", "name"}, kAggregates, settings);
    LocalSink sink = importer.makePartialStateSink();
    sink.sink(testing::sliceOf(states, 0, states.rows()), states.rows());
    importer.combine(std::move(sink));
    EXPECT_EQ(importer.statistics().result_rows, 0u);
}

}  // namespace
}  // namespace granary
