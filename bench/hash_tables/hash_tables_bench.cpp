// Hash-table benchmark: Granary's tables against absl::flat_hash_map and std::unordered_map on
// the same data in the same run. Throughput is in rows per second ("rows/s" counter).
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "alloc/arena.h"
#include "engine/datagen/url_generator.h"
#include "hashtables/batch.h"
#include "hashtables/hash_map.h"
#include "hashtables/merge.h"

namespace granary
{
namespace
{

/// Rows per benchmark input: 10M, as in the issue; GRANARY_BENCH_ROWS overrides for quick runs.
size_t benchRows()
{
    const char* rows = std::getenv("GRANARY_BENCH_ROWS");
    return rows != nullptr ? std::stoull(rows) : 10'000'000;
}

/// Partial tables merged by BM_Merge, as if 8 threads had aggregated one slice each.
constexpr size_t kMergePartials = 8;

enum class Distribution
{
    kUniform,
    kZipf
};

const char* distributionName(Distribution distribution)
{
    return distribution == Distribution::kUniform ? "uniform" : "zipf";
}

/// Indices in [0, distinct) drawn uniformly or from Zipf(s = 1) via its inverse CDF.
std::vector<uint32_t> drawIndices(size_t rows, size_t distinct, Distribution distribution,
                                  uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<uint32_t> indices(rows);
    if (distribution == Distribution::kUniform)
    {
        for (auto& index : indices)
        {
            index = static_cast<uint32_t>(random() % distinct);
        }
        return indices;
    }
    std::vector<double> cdf(distinct);
    double total = 0;
    for (size_t rank = 0; rank < distinct; ++rank)
    {
        total += 1.0 / static_cast<double>(rank + 1);
        cdf[rank] = total;
    }
    std::uniform_real_distribution<double> uniform(0, total);
    for (auto& index : indices)
    {
        index = static_cast<uint32_t>(std::lower_bound(cdf.begin(), cdf.end(), uniform(random)) -
                                      cdf.begin());
    }
    return indices;
}

/// Keys are random 64-bit values (not 0..n, which would flatter identity-like hashes).
const std::vector<uint64_t>& integerKeys(size_t distinct, Distribution distribution)
{
    static std::map<std::pair<size_t, Distribution>, std::vector<uint64_t>> cache;
    auto& keys = cache[{distinct, distribution}];
    if (keys.empty())
    {
        std::mt19937_64 random(distinct);
        std::vector<uint64_t> pool(distinct);
        for (auto& value : pool)
        {
            value = random();
        }
        const auto indices = drawIndices(benchRows(), distinct, distribution, distinct + 1);
        keys.resize(indices.size());
        for (size_t i = 0; i < indices.size(); ++i)
        {
            keys[i] = pool[indices[i]];
        }
    }
    return keys;
}

void reportRows(benchmark::State& state, size_t rows_per_iteration, size_t groups)
{
    state.counters["rows/s"] = benchmark::Counter(
        static_cast<double>(rows_per_iteration) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate);
    state.counters["groups"] = static_cast<double>(groups);
}

/// Each implementation counts rows per key; Granary uses the batched, prefetching emplace that
/// the aggregator uses.
struct GranaryCount
{
    static constexpr const char* kName = "granary";
    using Table = HashMap<uint64_t, uint64_t>;
    static size_t count(const uint64_t* keys, size_t rows, Table& table)
    {
        emplaceBatch(table, keys, rows, [](auto* cell, bool, size_t) { ++cell->mapped(); });
        return table.size();
    }
};

struct AbslCount
{
    static constexpr const char* kName = "absl";
    using Table = absl::flat_hash_map<uint64_t, uint64_t>;
    static size_t count(const uint64_t* keys, size_t rows, Table& table)
    {
        for (size_t i = 0; i < rows; ++i)
        {
            ++table[keys[i]];
        }
        return table.size();
    }
};

struct StdCount
{
    static constexpr const char* kName = "std";
    using Table = std::unordered_map<uint64_t, uint64_t>;
    static size_t count(const uint64_t* keys, size_t rows, Table& table)
    {
        for (size_t i = 0; i < rows; ++i)
        {
            ++table[keys[i]];
        }
        return table.size();
    }
};

template <typename Impl>
void countByKey(benchmark::State& state, size_t distinct, Distribution distribution)
{
    const auto& keys = integerKeys(distinct, distribution);
    size_t groups = 0;
    for (auto _ : state)
    {
        typename Impl::Table table;
        groups = Impl::count(keys.data(), keys.size(), table);
        benchmark::DoNotOptimize(groups);
    }
    reportRows(state, keys.size(), groups);
}

/// Builds kMergePartials partial tables, one per slice of the rows, then times merging them all
/// into one empty table.
template <typename Impl, typename MergeInto>
void mergePartials(benchmark::State& state, size_t distinct, Distribution distribution,
                   MergeInto&& merge_into)
{
    const auto& keys = integerKeys(distinct, distribution);
    std::vector<std::unique_ptr<typename Impl::Table>> partials;
    size_t partial_rows = 0;
    const size_t slice = keys.size() / kMergePartials;
    for (size_t p = 0; p < kMergePartials; ++p)
    {
        partials.push_back(std::make_unique<typename Impl::Table>());
        partial_rows += Impl::count(keys.data() + p * slice, slice, *partials.back());
    }
    size_t groups = 0;
    for (auto _ : state)
    {
        typename Impl::Table merged;
        for (const auto& partial : partials)
        {
            merge_into(merged, *partial);
        }
        groups = merged.size();
        benchmark::DoNotOptimize(groups);
    }
    reportRows(state, partial_rows, groups);
}

template <typename Table>
void mergeStandard(Table& merged, const Table& partial)
{
    for (const auto& [key, count] : partial)
    {
        merged[key] += count;
    }
}

/// URL-like strings: `distinct` different URLs (from the generator the synthetic hits table
/// uses), drawn uniformly or Zipf into benchRows() rows of views into the pool.
struct StringKeys
{
    std::vector<std::string> pool;
    std::vector<std::string_view> rows;
};

const StringKeys& stringKeys(size_t distinct, Distribution distribution)
{
    static std::map<std::pair<size_t, Distribution>, StringKeys> cache;
    StringKeys& keys = cache[{distinct, distribution}];
    if (keys.rows.empty())
    {
        datagen::UrlGenerator generator(distinct);
        absl::flat_hash_set<std::string> seen;
        while (keys.pool.size() < distinct)
        {
            std::string url = generator.nextUrl();
            if (seen.insert(url).second)
            {
                keys.pool.push_back(std::move(url));
            }
        }
        const auto indices = drawIndices(benchRows(), distinct, distribution, distinct + 2);
        keys.rows.resize(indices.size());
        for (size_t i = 0; i < indices.size(); ++i)
        {
            keys.rows[i] = keys.pool[indices[i]];
        }
    }
    return keys;
}

/// Granary: the length-dispatched string table with keys copied into an arena, batched.
struct GranaryStringCount
{
    static constexpr const char* kName = "granary";
    static size_t count(const std::vector<std::string_view>& rows)
    {
        Arena arena;
        StringHashMap<uint64_t> table(&arena);
        emplaceBatch(table, rows.data(), rows.size(),
                     [](uint64_t* count, bool, size_t) { ++*count; });
        return table.size();
    }
};

struct TransparentStringHash
{
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return std::hash<std::string_view>()(key); }
};

/// A baseline map with owned std::string keys, looked up by view (no copy on hits): absl with
/// its heterogeneous lookup, std with a transparent hash.
template <typename Map, typename ToKeyView>
size_t countOwnedStrings(const std::vector<std::string_view>& rows, ToKeyView to_key_view)
{
    Map table;
    for (std::string_view key : rows)
    {
        auto it = table.find(to_key_view(key));
        if (it == table.end())
        {
            table.emplace(std::string(key), 1);
        }
        else
        {
            ++it->second;
        }
    }
    return table.size();
}

struct AbslStringCount
{
    static constexpr const char* kName = "absl";
    static size_t count(const std::vector<std::string_view>& rows)
    {
        return countOwnedStrings<absl::flat_hash_map<std::string, uint64_t>>(
            rows, [](std::string_view key) { return absl::string_view(key.data(), key.size()); });
    }
};

struct StdStringCount
{
    static constexpr const char* kName = "std";
    static size_t count(const std::vector<std::string_view>& rows)
    {
        return countOwnedStrings<
            std::unordered_map<std::string, uint64_t, TransparentStringHash, std::equal_to<>>>(
            rows, [](std::string_view key) { return key; });
    }
};

template <typename Impl>
void registerStringCount(Distribution distribution, size_t distinct)
{
    const std::string name = std::string("BM_CountByString/") + Impl::kName + "/" +
                             distributionName(distribution) + "/" + std::to_string(distinct);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state)
                                 {
                                     const auto& keys = stringKeys(distinct, distribution);
                                     size_t groups = 0;
                                     for (auto _ : state)
                                     {
                                         groups = Impl::count(keys.rows);
                                         benchmark::DoNotOptimize(groups);
                                     }
                                     reportRows(state, keys.rows.size(), groups);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
}

const std::vector<size_t> kDistinctCounts = {1'000, 100'000, 1'000'000, 10'000'000};
/// String cardinalities: 10M distinct URLs (about 1 GB of keys) would not fit beside the rows.
const std::vector<size_t> kDistinctStrings = {1'000, 100'000, 1'000'000};

template <typename Impl>
void registerCount(Distribution distribution, size_t distinct)
{
    const std::string name = std::string("BM_CountByKey/") + Impl::kName + "/" +
                             distributionName(distribution) + "/" + std::to_string(distinct);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state)
                                 { countByKey<Impl>(state, distinct, distribution); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
}

template <typename Impl, typename MergeInto>
void registerMerge(Distribution distribution, size_t distinct, MergeInto merge_into)
{
    const std::string name = std::string("BM_Merge/") + Impl::kName + "/" +
                             distributionName(distribution) + "/" + std::to_string(distinct);
    benchmark::RegisterBenchmark(
        name.c_str(), [=](benchmark::State& state)
        { mergePartials<Impl>(state, distinct, distribution, merge_into); })
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
}

void registerAll()
{
    for (Distribution distribution : {Distribution::kUniform, Distribution::kZipf})
    {
        for (size_t distinct : kDistinctCounts)
        {
            registerCount<GranaryCount>(distribution, distinct);
            registerCount<AbslCount>(distribution, distinct);
            registerCount<StdCount>(distribution, distinct);
        }
    }
    for (Distribution distribution : {Distribution::kUniform, Distribution::kZipf})
    {
        for (size_t distinct : kDistinctStrings)
        {
            registerStringCount<GranaryStringCount>(distribution, distinct);
            registerStringCount<AbslStringCount>(distribution, distinct);
            registerStringCount<StdStringCount>(distribution, distinct);
        }
    }
    for (Distribution distribution : {Distribution::kUniform, Distribution::kZipf})
    {
        for (size_t distinct : kDistinctCounts)
        {
            registerMerge<GranaryCount>(
                distribution, distinct,
                [](GranaryCount::Table& merged, const GranaryCount::Table& partial)
                { mergeTables(merged, partial, [](uint64_t& t, uint64_t s) { t += s; }); });
            registerMerge<AbslCount>(distribution, distinct, mergeStandard<AbslCount::Table>);
            registerMerge<StdCount>(distribution, distinct, mergeStandard<StdCount::Table>);
        }
    }
}

/// Prints the usual table, then a summary: per benchmark case, the rows/s of each
/// implementation and Granary's ratio to each baseline, all from this run.
class RatioSummaryReporter : public benchmark::ConsoleReporter
{
public:
    void ReportRuns(const std::vector<Run>& runs) override
    {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs)
        {
            if (run.run_type != Run::RT_Iteration)
            {
                continue;
            }
            // "BM_CountByKey/granary/uniform/1000/min_time:1.000" -> case and implementation.
            const std::string name = run.benchmark_name();
            const size_t first = name.find('/');
            const size_t second = name.find('/', first + 1);
            const size_t options = name.find("/min_time");
            const std::string impl = name.substr(first + 1, second - first - 1);
            const std::string label = name.substr(0, first) + name.substr(second, options - second);
            auto counter = run.counters.find("rows/s");
            if (counter != run.counters.end())
            {
                if (rows_per_second_.find(label) == rows_per_second_.end())
                {
                    order_.push_back(label);
                }
                rows_per_second_[label][impl] = counter->second.value;
            }
        }
    }

    void Finalize() override
    {
        ConsoleReporter::Finalize();
        std::printf("\n%-40s %14s %14s %14s %12s %12s\n", "summary (rows/s)", "granary", "absl",
                    "std", "vs absl", "vs std");
        for (const std::string& label : order_)
        {
            auto& by_impl = rows_per_second_[label];
            const double granary = by_impl["granary"];
            std::printf("%-40s %14.3e %14.3e %14.3e %11.2fx %11.2fx\n", label.c_str(), granary,
                        by_impl["absl"], by_impl["std"],
                        by_impl["absl"] > 0 ? granary / by_impl["absl"] : 0.0,
                        by_impl["std"] > 0 ? granary / by_impl["std"] : 0.0);
        }
    }

private:
    std::vector<std::string> order_;
    std::map<std::string, std::map<std::string, double>> rows_per_second_;
};

}  // namespace
}  // namespace granary

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    granary::registerAll();
    granary::RatioSummaryReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
