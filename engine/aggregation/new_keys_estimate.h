#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace granary
{

/// Distinct keys expected among `rows` rows drawn uniformly from `population` keys.
inline double expectedDistinct(double population, double rows)
{
    return population * -std::expm1(-rows / population);
}

/// Whether a worker whose first `sample_rows` rows held `sample_groups` distinct keys will
/// end its `share_rows` rows with more than half of them distinct (its table would then
/// shrink its input less than twice, and the merge would insert most of its rows again).
///
/// Model: keys drawn uniformly from D distinct ones, so n rows hold D (1 - e^(-n/D))
/// distinct keys in expectation. The share holds more than share / 2 of them while
/// D > share / kHalfDistinctRatio, where x = kHalfDistinctRatio solves (1 - e^-x) / x = 1/2;
/// the sample at that D would hold the bound below, and more distinct keys mean a larger D.
/// Keys met in runs (sorted data) show as repeats and keep the worker's table: the safe side.
inline bool groupsWouldFillHalfTheShare(size_t sample_groups, size_t sample_rows, size_t share_rows)
{
    constexpr double kHalfDistinctRatio = 1.5936;
    const double population = static_cast<double>(share_rows) / kHalfDistinctRatio;
    const double bound = expectedDistinct(population, static_cast<double>(sample_rows));
    return static_cast<double>(sample_groups) > bound;
}

/// The population that `sample_rows` rows holding `sample_groups` distinct keys were drawn
/// from under the model above, solved by bisection (the expected distinct count grows with
/// it); infinity where every row was a distinct key, which only says it is beyond measure.
inline double populationOf(size_t sample_groups, size_t sample_rows)
{
    const double groups = static_cast<double>(sample_groups);
    const double rows = static_cast<double>(sample_rows);
    if (sample_groups >= sample_rows)
    {
        return std::numeric_limits<double>::infinity();
    }
    // Doubling finds a population too large, then halving the interval pins it down.
    double low = groups;
    double high = 2 * groups;
    while (expectedDistinct(high, rows) < groups)
    {
        low = high;
        high *= 2;
    }
    constexpr int kBisections = 40;
    for (int i = 0; i < kBisections; ++i)
    {
        const double middle = (low + high) / 2;
        (expectedDistinct(middle, rows) < groups ? low : high) = middle;
    }
    return high;
}

/// The distinct keys `total_rows` rows would hold under the model above, given that the
/// first `sample_rows` held `sample_groups`: the population solved from the sample, then the
/// distinct keys of `total_rows` drawn from it (every row a key where the sample was all
/// distinct).
inline double projectedGroups(size_t sample_groups, size_t sample_rows, size_t total_rows)
{
    const double total = static_cast<double>(total_rows);
    const double population = populationOf(sample_groups, sample_rows);
    if (std::isinf(population))
    {
        return total;
    }
    return std::max(static_cast<double>(sample_groups), expectedDistinct(population, total));
}

/// The distinct keys of a table that holds `held` keys once `rows` more rows holding
/// `distinct` keys (an estimate) go in, under the model above with the held keys drawn from
/// the same population: each recurs among the new rows with probability distinct /
/// population. Mostly distinct rows (ClickBench Q19's 962K groups of 1M rows) add nearly all
/// their keys to the held ones; rows that repeat their keys often bring back the held ones.
inline double expectedUnion(size_t held, size_t distinct, size_t rows)
{
    const double both = static_cast<double>(held) + static_cast<double>(distinct);
    if (distinct == 0)
    {
        return both;
    }
    // Infinite where every row was a key of its own (or the estimate says so).
    const double population = populationOf(distinct, rows);
    if (std::isinf(population))
    {
        return both;
    }
    const double recurring = static_cast<double>(held) * static_cast<double>(distinct) / population;
    return std::max(both - recurring, static_cast<double>(std::max(held, distinct)));
}

/// projectedGroups(groups, rows, total_rows) <= max_groups for one `total_rows` and
/// `max_groups` and many samples, with the bisection done once: the projection grows with
/// the population, so it stays within the bound exactly while the sample's groups are at
/// most what the largest population within it would give that many rows.
class ProjectedGroupsBound
{
public:
    ProjectedGroupsBound(size_t total_rows, double max_groups)
        : population_(max_groups >= static_cast<double>(total_rows)
                          ? std::numeric_limits<double>::infinity()
                          : populationOf(static_cast<size_t>(max_groups), total_rows))
    {
    }

    bool holds(size_t sample_groups, size_t sample_rows) const
    {
        if (std::isinf(population_))
        {
            return true;
        }
        return static_cast<double>(sample_groups) <=
               expectedDistinct(population_, static_cast<double>(sample_rows));
    }

private:
    double population_;
};

/// The number of distinct keys rows are drawn from, under the model above, given that
/// `held_before` distinct keys had been met when `probe_rows` further rows brought
/// `new_in_probe` more: a draw is new with probability 1 - held / D, held rising through the
/// probe, so D = the mean held / (1 - the share of new rows). Infinity when every probed row
/// was new.
inline double distinctPopulation(size_t held_before, size_t new_in_probe, size_t probe_rows)
{
    const double new_share = static_cast<double>(new_in_probe) / static_cast<double>(probe_rows);
    if (new_share >= 1.0)
    {
        return std::numeric_limits<double>::infinity();
    }
    const double mean_held =
        static_cast<double>(held_before) + static_cast<double>(new_in_probe) / 2;
    return mean_held / (1.0 - new_share);
}

/// Rows per bucket a worker must have left after its sample for partitioning them to pay:
/// a worker that partitions sets up every bucket (row chunks, a cardinality sketch, a table
/// in the merge), which a few rows per bucket do not repay (`WatchID, ClientIP ... WHERE
/// SearchPhrase <> ''` on 1M rows leaves 8K rows per worker of 16: partitioning them did
/// twice the instructions of one thread).
inline constexpr size_t kMinRowsLeftPerBucket = 128;

/// Rows per bucket all workers together must be given for partitioning new keys to pay for
/// 256 bucket tasks (partitionsNewKeysEarly). Fixed-width keys: over fewer, the workers'
/// tables merge for less (`SearchEngineID, ClientIP ... WHERE SearchPhrase <> '' AND WatchID
/// % 8 < M` on 10M rows at 2 threads, CPU time: 325K rows passed 98 ms partitioned, 86 not;
/// 162K 85 / 62; ~1M about level; Q32 on 1M rows 12.3 -> 8.0 ms, one thread 12.9).
inline constexpr size_t kMinRowsPerBucketOfFixedKeys = 2048;
/// String keys, which carry their bytes into the partitions but merge dearer too.
inline constexpr size_t kMinRowsPerBucketOfStrings = 1024;

/// Whether `share_rows` leave enough rows past a sample of `sample_rows` to partition into
/// `buckets` buckets.
inline bool shareLeftWorthPartitioning(size_t share_rows, size_t sample_rows, size_t buckets)
{
    return share_rows > sample_rows + kMinRowsLeftPerBucket * buckets;
}

/// Rows a worker samples before groupsWouldFillHalfTheShare decides: `setting` rows
/// (partition_new_keys_rows), or half its share where that is less, but at least one batch
/// of `batch_rows`.
inline size_t newKeysSampleRows(size_t setting, size_t share_rows, size_t batch_rows)
{
    return std::min(setting, std::max(batch_rows, share_rows / 2));
}

}  // namespace granary
