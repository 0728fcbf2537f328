#include <cstddef>
#include <limits>

#include "alloc/allocator_stats.h"

// jemalloc reads its options from this symbol at start-up; every Granary executable links it.
//
// oversize_threshold:0      no dedicated arena for huge allocations: hash tables are huge
//                           and allocated from every thread, a single arena would contend;
//                           and no eager purge of freed extents that coalesce past a threshold
//                           (arena 0 needs the correction below).
// muzzy_decay_ms:0          return lazily-freed pages to the OS at once instead of keeping them.
// dirty_decay_ms:30000      keep freed pages up to 30 s for reuse by the next queries: decay
//                           purges along the way, so at 5 s a query of seconds found most of
//                           the previous one's memory returned and faulted it in again (huge
//                           pages, compacted); 10M-row GROUP BY URL at 1 thread in a suite run
//                           3.6-3.8 s -> 1.0-1.6 s (docs/many-core-hygiene.md).
// lg_extent_max_active_fit:8  reuse free extents up to 256x larger than a request (default 64x):
//                           after a two-level table's 256 buckets are freed and coalesced, smaller
//                           tables of the next query can reuse them instead of faulting new pages
//                           (ClickHouse PR #80245: Q35 +96%, RSS -45%, page faults -71%).
// thp (not set)             jemalloc does not ask for transparent huge pages on all of its
//                           mappings: memory written as 256 streams at once (routed rows and
//                           values) ran up to 1.8x slower on huge pages, depending on where the
//                           streams landed. Hash-table cells and arena chunks, read at random,
//                           ask for them themselves (alloc/huge_pages.h, many-core-hygiene.md).
extern "C"
{
    __attribute__((used, visibility("default"))) const char* malloc_conf =
        "oversize_threshold:0,muzzy_decay_ms:0,dirty_decay_ms:30000,lg_extent_max_active_fit:8";
}

namespace granary
{
namespace
{

/// jemalloc 5.3 creates arena 0 before it reads the options above, so arena 0 (the main
/// thread's) keeps the default oversize threshold of 8 MiB although oversize_threshold:0
/// disables it everywhere else: freed extents there that coalesce past 8 MiB (a query's 256
/// bucket tables, its routed rows' chunks) are purged on the spot, whatever the decay time,
/// and the next query faults them in again. Later jemalloc releases fix arena 0 themselves.
void disableEagerPurgeOfArenaZero()
{
    if (readJemallocSizeOption("opt.oversize_threshold") == size_t{0})
    {
        writeJemallocSizeSetting("arena.0.oversize_threshold", std::numeric_limits<size_t>::max());
    }
}

/// Runs at start-up in every executable, which links this file for malloc_conf.
[[maybe_unused]] const bool kArenaZeroCorrected = (disableEagerPurgeOfArenaZero(), true);

}  // namespace
}  // namespace granary
