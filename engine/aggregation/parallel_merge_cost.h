#pragma once

#include <cstddef>

namespace granary
{

/// When merging all-single-level partials (GROUP BY tables, count(DISTINCT) sets) on one thread
/// beats converting every one to two-level and merging bucket by bucket on the query's workers.
/// The parallel path handles each element twice (conversion, then the bucket merge) and pays
/// per partial for its 256 buckets; both costs are in units of one element merged on one
/// thread, measured by bench/aggregation BM_MergePath (docs/aggregation.md, "Serial or
/// parallel"). The estimate assumes the partials share their keys: GROUP BY hands a serial
/// merge whose result outgrows a single-level table over to the parallel path (sets measured
/// faster staying serial).
struct ParallelMergeCost
{
    /// Partials averaging fewer elements always merge on one thread (fixed costs dominate).
    size_t min_average_size = 1'000;
    /// The parallel path's work per element: GROUP BY measured 3.2-4.6 (converted, then
    /// merged again, into 256 small tables instead of one).
    double work_per_element = 4;
    /// Its fixed work per partial: 17-31 elements' worth for each of the 256 buckets.
    double work_per_partial = 25 * 256;

    bool serialIsFaster(size_t total_elements, size_t partials, size_t workers) const
    {
        if (partials == 0 || total_elements / partials < min_average_size)
        {
            return true;
        }
        const double parallel_work = work_per_element * static_cast<double>(total_elements) +
                                     work_per_partial * static_cast<double>(partials);
        return static_cast<double>(total_elements) <= parallel_work / static_cast<double>(workers);
    }

    /// Costs that always choose the parallel path (tests, benchmarks).
    static ParallelMergeCost alwaysParallel() { return {0, 0, 0}; }
    /// Costs that always choose one thread (tests, benchmarks).
    static ParallelMergeCost alwaysSerial() { return {static_cast<size_t>(-1), 0, 0}; }
};

}  // namespace granary
