// Granary embedded as a streaming GROUP BY operator against DuckDB, both over the same in-memory
// Arrow batches of generated ClickBench `hits` columns, in one process:
//   vs_duckdb/<shape>/threads:T         Granary (T host threads each sinking its share of the
//                                       batches with sinkArrow, combine, finish, every result
//                                       batch pulled) against DuckDB (the same SQL over a table
//                                       appended from the batches, untimed, whole result fetched)
//   streaming_vs_one_shot/<shape>/...   the streaming operator against the engine's one-shot
//                                       Aggregator::execute over one contiguous block
//   not_null_vs_nullable/<shape>/...    NULL-free batches through a NOT NULL plan against the same
//                                       batches through a plan declaring the columns nullable
// Each benchmark times its two sides alternately within every iteration, so that the noise of a
// shared machine hits both; its counters are the sides' medians and their ratio (first/second).
// Results are checked equal outside the timing. GRANARY_BENCH_ROWS sets the row count (10M).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/embedding/duckdb_table.h"
#include "bench/embedding/hits_batches.h"
#include "bench/embedding/host_threads.h"
#include "bench/embedding/result_rows.h"
#include "engine/aggregation/aggregator.h"
#include "granary/groupby.h"

namespace granary::bench
{
namespace
{

constexpr size_t kDefaultRows = 10'000'000;
/// Iterations of every benchmark: each times both sides once; counters are the medians.
constexpr size_t kRounds = 7;
constexpr size_t kThreadCounts[] = {1, 2};

size_t benchRows()
{
    const char* rows = std::getenv("GRANARY_BENCH_ROWS");
    return rows != nullptr ? std::stoull(rows) : kDefaultRows;
}

const HitsBatches& hitsBatches()
{
    static const HitsBatches batches(benchRows());
    return batches;
}

/// Set once DuckDB is loaded, for the summary (left as is when it cannot be).
std::string& duckDbVersion()
{
    static std::string version = "not loaded";
    return version;
}

DuckDbTable& duckDb()
{
    static DuckDbTable table(hitsBatches());
    duckDbVersion() = table.version();
    return table;
}

/// A ClickBench GROUP BY shape: DuckDB's SQL and Granary's plan of the same query.
struct Shape
{
    std::string name;
    std::string sql;
    std::vector<std::string> keys;
    std::vector<Aggregate> aggregates;
};

const Shape kRegionCount = {"region_count",
                            "SELECT RegionID, count(*) FROM hits GROUP BY RegionID",
                            {"RegionID"},
                            {{"count", {}, "c"}}};
const Shape kPhraseCount = {"phrase_count",
                            "SELECT SearchPhrase, count(*) FROM hits GROUP BY SearchPhrase",
                            {"SearchPhrase"},
                            {{"count", {}, "c"}}};
const Shape kRegionUsers = {"region_users",
                            "SELECT RegionID, count(DISTINCT UserID) FROM hits GROUP BY RegionID",
                            {"RegionID"},
                            {{"uniqExact", {"UserID"}, "u"}}};
const Shape kRegionEngineWidth = {
    "region_engine_sum_avg",
    "SELECT RegionID, AdvEngineID, sum(ResolutionWidth), avg(ResolutionWidth) FROM hits "
    "GROUP BY RegionID, AdvEngineID",
    {"RegionID", "AdvEngineID"},
    {{"sum", {"ResolutionWidth"}, "s"}, {"avg", {"ResolutionWidth"}, "a"}}};
const Shape kUsers = {
    "users", "SELECT count(DISTINCT UserID) FROM hits", {}, {{"uniqExact", {"UserID"}, "u"}}};

/// Batches a streaming run sinks: `sink_batch(sink, i)` sinks batch i of `batch_count`.
struct StreamingInput
{
    std::vector<Field> fields;
    size_t batch_count = 0;
    std::function<void(LocalSink&, size_t)> sink_batch;
};

StreamingInput arrowInput(bool nullable)
{
    std::vector<Field> fields(batchFields().begin(), batchFields().end());
    for (Field& field : fields)
    {
        field.nullable = nullable;
    }
    const auto batches = hitsBatches().batches();
    return {std::move(fields), batches.size(),
            [batches](LocalSink& sink, size_t batch) { sink.sinkArrow(batches[batch]); }};
}

/// Column views of the contiguous block, sliced into batches like the Arrow ones: the streaming
/// operator then reads the very memory the one-shot Aggregator reads, so that their comparison
/// measures the two paths and not the batches' layout.
StreamingInput contiguousInput()
{
    const BlockView block = BlockView::of(hitsBatches().contiguous());
    const size_t rows = block.rows();
    const size_t batch_rows = hitsBatches().batches().front().length;
    auto sink_batch = [block, rows, batch_rows](LocalSink& sink, size_t batch)
    {
        const size_t first = batch * batch_rows;
        const size_t count = std::min(batch_rows, rows - first);
        std::vector<ColumnView> slices;
        for (const auto& entry : block.columns)
        {
            ColumnView slice = entry.column;
            slice.data = static_cast<const char*>(slice.data) + first * fixedWidth(slice.type);
            slice.rows = count;
            slices.push_back(slice);
        }
        sink.sink(slices, count);
    };
    return {{contiguousFields().begin(), contiguousFields().end()},
            (rows + batch_rows - 1) / batch_rows,
            std::move(sink_batch)};
}

void appendRows(const std::vector<ColumnView>& columns, size_t rows, std::vector<Row>& out)
{
    for (size_t row = 0; row < rows; ++row)
    {
        Row& cells = out.emplace_back();
        for (const ColumnView& column : columns)
        {
            cells.push_back(cellAt(column, row));
        }
    }
}

/// The host's pool for T threads: the caller and T - 1 helpers that outlive the query.
bench::HostThreads& hostThreads(size_t threads)
{
    static std::map<size_t, std::unique_ptr<bench::HostThreads>> pools;
    auto& pool = pools[threads];
    if (!pool)
    {
        pool = std::make_unique<bench::HostThreads>(threads - 1);
    }
    return *pool;
}

/// T host threads (the caller and T - 1 of the host's pool) claim batches one at a time, each
/// into its own LocalSink, as a host's scan would hand out morsels. Returns the result's row
/// count, and its rows in `rows` when given.
size_t runStreaming(const StreamingInput& input, const Shape& shape, size_t threads,
                    std::vector<Row>* rows = nullptr)
{
    GroupBySettings settings;
    settings.threads = threads;
    GroupBy group_by(input.fields, shape.keys, shape.aggregates, settings);
    std::atomic<size_t> next_batch = 0;
    hostThreads(threads).run(
        [&]
        {
            LocalSink sink = group_by.makeLocalSink();
            for (size_t batch = next_batch++; batch < input.batch_count; batch = next_batch++)
            {
                input.sink_batch(sink, batch);
            }
            group_by.combine(std::move(sink));
        });
    ResultStream result = group_by.finish();
    ResultBatch batch;
    size_t result_rows = 0;
    while (result.next(batch))
    {
        result_rows += batch.rows();
        if (rows != nullptr)
        {
            std::vector<ColumnView> columns;
            for (size_t column = 0; column < batch.columnCount(); ++column)
            {
                columns.push_back(batch.column(column));
            }
            appendRows(columns, batch.rows(), *rows);
        }
    }
    return result_rows;
}

size_t runOneShot(const Shape& shape, size_t threads, std::vector<Row>* rows = nullptr)
{
    std::vector<AggregateDescription> aggregates;
    for (const Aggregate& aggregate : shape.aggregates)
    {
        aggregates.push_back({aggregate.function, aggregate.arguments, aggregate.result_name});
    }
    AggregationSettings settings;
    settings.max_threads = threads;
    const Aggregator aggregator(shape.keys, aggregates, settings);
    QueryContext context(threads);
    const Block result = aggregator.execute(BlockView::of(hitsBatches().contiguous()), context);
    if (rows != nullptr)
    {
        std::vector<ColumnView> columns;
        for (const auto& entry : result.columns)
        {
            columns.push_back(entry.column.view());
        }
        appendRows(columns, result.rows(), *rows);
    }
    return result.rows();
}

/// One side of a comparison: its counter name and a run of its query.
struct Side
{
    std::string label;
    std::function<void()> run;
};

/// A finished comparison, for the summary table.
struct Comparison
{
    std::string section;
    std::string name;
    std::string first_label;
    std::string second_label;
    double first_ms = 0;
    double second_ms = 0;
    double ratio() const { return first_ms / second_ms; }
};

std::vector<Comparison>& comparisons()
{
    static std::vector<Comparison> finished;
    return finished;
}

/// Set when a check fails: main then exits with an error.
bool& checksFailed()
{
    static bool failed = false;
    return failed;
}

double secondsOf(const std::function<void()>& run)
{
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double medianMs(std::vector<double> seconds)
{
    std::sort(seconds.begin(), seconds.end());
    const size_t middle = seconds.size() / 2;
    const double median =
        seconds.size() % 2 == 1 ? seconds[middle] : (seconds[middle - 1] + seconds[middle]) / 2;
    return median * 1e3;
}

/// Times both sides once per iteration, swapping which goes first each time, after one untimed
/// run of each (DuckDB's first run of a query, Granary's first allocations).
void timeAlternately(benchmark::State& state, const std::string& name, const std::string& section,
                     const Side& first, const Side& second)
{
    first.run();
    second.run();
    std::vector<double> first_seconds;
    std::vector<double> second_seconds;
    for (auto _ : state)
    {
        const bool first_leads = first_seconds.size() % 2 == 0;
        const Side& leader = first_leads ? first : second;
        const Side& follower = first_leads ? second : first;
        const double leader_seconds = secondsOf(leader.run);
        const double follower_seconds = secondsOf(follower.run);
        first_seconds.push_back(first_leads ? leader_seconds : follower_seconds);
        second_seconds.push_back(first_leads ? follower_seconds : leader_seconds);
        state.SetIterationTime(leader_seconds + follower_seconds);
    }
    const Comparison comparison{section,
                                name,
                                first.label,
                                second.label,
                                medianMs(first_seconds),
                                medianMs(second_seconds)};
    state.counters[first.label + "_ms"] = comparison.first_ms;
    state.counters[second.label + "_ms"] = comparison.second_ms;
    state.counters["ratio"] = comparison.ratio();
    comparisons().push_back(comparison);
}

/// One registered benchmark: a shape at a thread count.
struct BenchmarkCase
{
    std::string name;
    const Shape& shape;
    size_t threads;
};

void vsDuckDb(benchmark::State& state, const BenchmarkCase& run)
{
    const auto& [name, shape, threads] = run;
    DuckDbTable& duckdb = duckDb();
    duckdb.setThreads(threads);
    const StreamingInput input = arrowInput(/*nullable=*/false);
    std::vector<Row> granary_rows;
    std::vector<Row> duckdb_rows;
    runStreaming(input, shape, threads, &granary_rows);
    duckdb.query(shape.sql, &duckdb_rows);
    checkSameRows(std::move(granary_rows), std::move(duckdb_rows), shape.sql);
    timeAlternately(state, name, "Granary streaming / DuckDB",
                    {"granary", [&] { runStreaming(input, shape, threads); }},
                    {"duckdb", [&] { duckdb.query(shape.sql); }});
}

void streamingVsOneShot(benchmark::State& state, const BenchmarkCase& run)
{
    const auto& [name, shape, threads] = run;
    const StreamingInput input = contiguousInput();
    std::vector<Row> streaming_rows;
    std::vector<Row> one_shot_rows;
    runStreaming(input, shape, threads, &streaming_rows);
    runOneShot(shape, threads, &one_shot_rows);
    checkSameRows(std::move(streaming_rows), std::move(one_shot_rows), shape.name + " one-shot");
    timeAlternately(state, name, "Granary streaming / one-shot Aggregator",
                    {"streaming", [&] { runStreaming(input, shape, threads); }},
                    {"one_shot", [&] { runOneShot(shape, threads); }});
}

void notNullVsNullable(benchmark::State& state, const BenchmarkCase& run)
{
    const auto& [name, shape, threads] = run;
    const StreamingInput not_null = arrowInput(/*nullable=*/false);
    const StreamingInput nullable = arrowInput(/*nullable=*/true);
    timeAlternately(state, name, "NOT NULL plan / nullable plan (no bitmaps)",
                    {"not_null", [&] { runStreaming(not_null, shape, threads); }},
                    {"nullable", [&] { runStreaming(nullable, shape, threads); }});
}

using BenchmarkBody = void (*)(benchmark::State&, const BenchmarkCase&);

void registerComparison(const std::string& group, BenchmarkBody body, const Shape& shape)
{
    for (const size_t threads : kThreadCounts)
    {
        const BenchmarkCase run{group + "/" + shape.name + "/threads:" + std::to_string(threads),
                                shape, threads};
        benchmark::RegisterBenchmark(run.name.c_str(),
                                     [body, run](benchmark::State& state)
                                     {
                                         try
                                         {
                                             body(state, run);
                                         }
                                         catch (const std::exception& error)
                                         {
                                             checksFailed() = true;
                                             state.SkipWithError(error.what());
                                         }
                                     })
            ->Iterations(kRounds)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
}

void registerBenchmarks()
{
    for (const Shape* shape :
         {&kRegionCount, &kPhraseCount, &kRegionUsers, &kRegionEngineWidth, &kUsers})
    {
        registerComparison("vs_duckdb", vsDuckDb, *shape);
    }
    for (const Shape* shape : {&kRegionCount, &kRegionEngineWidth})
    {
        registerComparison("streaming_vs_one_shot", streamingVsOneShot, *shape);
    }
    for (const Shape* shape :
         {&kRegionCount, &kPhraseCount, &kRegionUsers, &kRegionEngineWidth, &kUsers})
    {
        registerComparison("not_null_vs_nullable", notNullVsNullable, *shape);
    }
}

/// Per section: every comparison's medians and ratio, their geometric mean and the worst.
void printSummary()
{
    std::printf("\n%zu rows in %zu Arrow batches; DuckDB %s; medians of %zu alternated rounds\n",
                hitsBatches().rows(), hitsBatches().batches().size(), duckDbVersion().c_str(),
                kRounds);
    std::vector<std::string> sections;
    for (const Comparison& comparison : comparisons())
    {
        if (std::find(sections.begin(), sections.end(), comparison.section) == sections.end())
        {
            sections.push_back(comparison.section);
        }
    }
    for (const std::string& section : sections)
    {
        std::printf("\n%s\n", section.c_str());
        double log_sum = 0;
        size_t count = 0;
        const Comparison* worst = nullptr;
        for (const Comparison& comparison : comparisons())
        {
            if (comparison.section != section)
            {
                continue;
            }
            std::printf("  %-46s %10.2f ms %10.2f ms  ratio %6.3f\n", comparison.name.c_str(),
                        comparison.first_ms, comparison.second_ms, comparison.ratio());
            log_sum += std::log(comparison.ratio());
            ++count;
            worst = worst == nullptr || comparison.ratio() > worst->ratio() ? &comparison : worst;
        }
        std::printf("  geometric mean of ratios %.3f; worst %s (%.3f)\n",
                    std::exp(log_sum / static_cast<double>(count)), worst->name.c_str(),
                    worst->ratio());
    }
}

}  // namespace
}  // namespace granary::bench

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    granary::bench::registerBenchmarks();
    benchmark::RunSpecifiedBenchmarks();
    granary::bench::printSummary();
    benchmark::Shutdown();
    if (granary::bench::checksFailed())
    {
        std::fprintf(stderr, "FAILED: a check or a side failed (see the benchmarks' errors)\n");
        return 1;
    }
    return 0;
}
