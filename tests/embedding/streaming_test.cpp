// The streaming operator against the naive reference: every key kind and function, batches
// sunk from 1 to 256 host threads in uneven counts, results pulled as bounded batches, the
// parallel phases on Granary's threads or on a host runner that keeps them on one thread.

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "engine/arrow/arrow_export.h"
#include "tests/aggregation/reference_aggregator.h"
#include "tests/aggregation/test_table.h"
#include "tests/embedding/embedding_test_support.h"

namespace granary
{
namespace
{

const std::vector<testing::AggregateSpec> kSpecs = {
    {"count", ""},    {"sum", "v_i64"}, {"avg", "v_f64"},      {"min", "v_str"},
    {"max", "v_u32"}, {"any", "v_i8"},  {"uniqExact", "v_u32"}};

std::vector<Aggregate> aggregatesOf(const std::vector<testing::AggregateSpec>& specs)
{
    std::vector<Aggregate> aggregates;
    for (size_t i = 0; i < specs.size(); ++i)
    {
        std::vector<std::string> arguments;
        if (!specs[i].argument.empty())
        {
            arguments.push_back(specs[i].argument);
        }
        aggregates.push_back({specs[i].function, arguments, "a" + std::to_string(i)});
    }
    return aggregates;
}

/// Groups of a shape: few (single-level partials), many (two-level, routed rows).
uint64_t fewGroups(size_t row)
{
    return row % 37;
}
uint64_t manyGroups(size_t row)
{
    return (row * 2654435761u) % 60'000;
}

void expectMatchesReference(const Block& input, const std::vector<std::string>& keys, size_t hosts,
                            const GroupBySettings& settings)
{
    GroupBy group_by(testing::fieldsOf(input), keys, aggregatesOf(kSpecs), settings);
    testing::sinkFromHosts(group_by, input, hosts, 1000);
    ResultStream stream = group_by.finish();
    EXPECT_EQ(stream.rows(), group_by.statistics().result_rows);
    const Block result = testing::collect(stream);
    const auto reference = testing::referenceAggregate(BlockView::of(input), keys, kSpecs);
    EXPECT_EQ(testing::compareWithReference(result, keys.size(), kSpecs, reference), "")
        << "keys " << (keys.empty() ? "none" : keys[0]) << ", " << hosts << " hosts";
    EXPECT_EQ(group_by.statistics().input_rows, input.rows());
}

TEST(StreamingGroupBy, MatchesTheReferenceAtEveryHostThreadCount)
{
    const Block few = testing::makeTestTable(20'000, fewGroups, 1);
    const Block many = testing::makeTestTable(300'000, manyGroups, 2);
    GroupBySettings settings;
    settings.threads = 4;
    settings.result_batch_rows = 777;
    for (const size_t hosts : {1, 2, 7, 64, 256})
    {
        for (const char* key : {"k_u8", "k_u16", "k_u32", "k_u64", "k_str"})
        {
            expectMatchesReference(few, {key}, hosts, settings);
        }
        expectMatchesReference(many, {"k_u64"}, hosts, settings);
        expectMatchesReference(many, {"k_str", "k_i32"}, hosts, settings);
        expectMatchesReference(many, {"k_u32", "k_u16"}, hosts, settings);
        expectMatchesReference(few, {}, hosts, settings);
    }
}

/// The sum of v_i64 by (k_u32, k_u16) of `input` sunk as one batch by `sink_batch`.
void expectSumMatchesReference(const Block& input,
                               const std::function<void(LocalSink&)>& sink_batch)
{
    const std::vector<testing::AggregateSpec> specs = {{"sum", "v_i64"}};
    const std::vector<std::string> keys = {"k_u32", "k_u16"};
    GroupBy group_by(testing::fieldsOf(input), keys, aggregatesOf(specs));
    LocalSink sink = group_by.makeLocalSink();
    sink_batch(sink);
    group_by.combine(std::move(sink));
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);
    EXPECT_EQ(testing::compareWithReference(
                  result, keys.size(), specs,
                  testing::referenceAggregate(BlockView::of(input), keys, specs)),
              "");
}

TEST(StreamingGroupBy, ColumnsThePlanDoesNotReadAreNotReadOrChecked)
{
    const Block input = testing::makeTestTable(5'000, fewGroups, 5);
    const std::set<std::string> read = {"k_u32", "k_u16", "v_i64"};
    expectSumMatchesReference(input,
                              [&](LocalSink& sink)
                              {
                                  std::vector<ColumnView> columns =
                                      testing::sliceOf(input, 0, input.rows());
                                  for (size_t c = 0; c < columns.size(); ++c)
                                  {
                                      if (!read.contains(input.columns[c].name))
                                      {
                                          columns[c] = ColumnView{columns[c].type, input.rows()};
                                      }
                                  }
                                  sink.sink(columns, input.rows());
                              });
    // Over Arrow, unread children are not even looked at: a buffer count that would be refused
    // on a read column passes.
    expectSumMatchesReference(input,
                              [&](LocalSink& sink)
                              {
                                  ArrowArray array;
                                  ArrowSchema schema;
                                  arrow::exportBlock(Block(input), &array, &schema);
                                  std::vector<int64_t> buffer_counts;
                                  for (int64_t c = 0; c < array.n_children; ++c)
                                  {
                                      buffer_counts.push_back(array.children[c]->n_buffers);
                                      if (!read.contains(input.columns[c].name))
                                      {
                                          array.children[c]->n_buffers = 99;
                                      }
                                  }
                                  sink.sinkArrow(array);
                                  for (int64_t c = 0; c < array.n_children; ++c)
                                  {
                                      array.children[c]->n_buffers = buffer_counts[c];
                                  }
                                  array.release(&array);
                                  schema.release(&schema);
                              });
}

/// Runs every task on the calling thread and remembers which threads ran tasks.
class RecordingRunner final : public TaskRunner
{
public:
    size_t concurrency() const override { return 3; }
    void run(size_t count, const std::function<void(size_t)>& task) override
    {
        for (size_t i = 0; i < count; ++i)
        {
            {
                std::lock_guard lock(mutex_);
                threads_.insert(std::this_thread::get_id());
            }
            task(i);
        }
        ++regions_;
    }
    std::set<std::thread::id> threads() const { return threads_; }
    size_t regions() const { return regions_; }

private:
    mutable std::mutex mutex_;
    std::set<std::thread::id> threads_;
    std::atomic<size_t> regions_{0};
};

TEST(StreamingGroupBy, AHostRunnerRunsEveryParallelPhaseOnItsOwnThreads)
{
    const Block many = testing::makeTestTable(300'000, manyGroups, 3);
    RecordingRunner runner;
    GroupBySettings settings;
    settings.task_runner = &runner;
    GroupBy group_by(testing::fieldsOf(many), {"k_u64"}, aggregatesOf(kSpecs), settings);
    testing::sinkFromHosts(group_by, many, 1, 4096);
    // Two more sinks of the same rows from this thread: the merge has partials to combine.
    for (int copy = 0; copy < 2; ++copy)
    {
        LocalSink sink = group_by.makeLocalSink();
        sink.sink(testing::sliceOf(many, 0, many.rows()), many.rows());
        group_by.combine(std::move(sink));
    }
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);
    EXPECT_GT(runner.regions(), 0u);
    EXPECT_EQ(runner.threads(), std::set<std::thread::id>{std::this_thread::get_id()});
    // Three copies of the input: counts triple, distinct counts do not.
    Block tripled = testing::makeTestTable(0, manyGroups, 3);
    for (size_t c = 0; c < many.columns.size(); ++c)
    {
        for (int copy = 0; copy < 3; ++copy)
        {
            tripled.columns[c].column.appendRange(many.columns[c].column.view(), 0, many.rows());
        }
    }
    const auto reference = testing::referenceAggregate(BlockView::of(tripled), {"k_u64"}, kSpecs);
    EXPECT_EQ(testing::compareWithReference(result, 1, kSpecs, reference), "");
}

TEST(StreamingGroupBy, SeveralThreadsPullDisjointBatchesOfTheWholeResult)
{
    const Block many = testing::makeTestTable(200'000, manyGroups, 4);
    GroupBySettings settings;
    settings.threads = 2;
    settings.result_batch_rows = 100;
    GroupBy group_by(testing::fieldsOf(many), {"k_u64"}, {{"count", {}, "c"}}, settings);
    testing::sinkFromHosts(group_by, many, 3, 5000);
    ResultStream stream = group_by.finish();
    std::mutex mutex;
    std::multiset<uint64_t> keys;
    size_t rows = 0;
    std::vector<std::thread> pullers;
    for (int t = 0; t < 4; ++t)
    {
        pullers.emplace_back(
            [&]
            {
                ResultBatch batch;
                while (stream.next(batch))
                {
                    EXPECT_LE(batch.rows(), 100u);
                    std::lock_guard lock(mutex);
                    rows += batch.rows();
                    for (size_t r = 0; r < batch.rows(); ++r)
                    {
                        keys.insert(batch.column(0).valueAt<uint64_t>(r));
                    }
                }
            });
    }
    for (std::thread& puller : pullers)
    {
        puller.join();
    }
    EXPECT_EQ(rows, 60'000u);
    EXPECT_EQ(std::set<uint64_t>(keys.begin(), keys.end()).size(), 60'000u);
}

TEST(StreamingGroupBy, BatchesCutFromOneFragmentKeepArrayResults)
{
    // One host, one thread: a single fragment of 2,000 groups, cut into batches of 300.
    const Block input = testing::makeTestTable(
        20'000, [](size_t row) { return row % 2'000; }, 6);
    GroupBySettings settings;
    settings.threads = 1;
    settings.result_batch_rows = 300;
    GroupBy group_by(testing::fieldsOf(input), {"k_u64"},
                     {{"quantilesExact", {"v_i64"}, "ends", "", {0, 1}}}, settings);
    testing::sinkFromHosts(group_by, input, 1, 4'000);
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);

    std::map<uint64_t, std::pair<int64_t, int64_t>> expected;  // key -> (min, max)
    const ColumnView keys = input.find("k_u64")->view();
    const ColumnView values = input.find("v_i64")->view();
    for (size_t row = 0; row < input.rows(); ++row)
    {
        const int64_t value = values.valueAt<int64_t>(row);
        auto& [min, max] =
            expected.try_emplace(keys.valueAt<uint64_t>(row), value, value).first->second;
        min = std::min(min, value);
        max = std::max(max, value);
    }
    ASSERT_EQ(result.rows(), expected.size());
    const ColumnView ends = result.columns[1].column.view();
    for (size_t row = 0; row < result.rows(); ++row)
    {
        const auto& [min, max] =
            expected.at(result.columns[0].column.view().valueAt<uint64_t>(row));
        ASSERT_EQ(ends.offsets[row + 1] - ends.offsets[row], 2u) << "row " << row;
        EXPECT_EQ(ends.children[0].valueAt<int64_t>(ends.offsets[row]), min) << "row " << row;
        EXPECT_EQ(ends.children[0].valueAt<int64_t>(ends.offsets[row] + 1), max) << "row " << row;
    }
}

}  // namespace
}  // namespace granary
