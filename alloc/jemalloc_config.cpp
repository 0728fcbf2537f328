// jemalloc reads its options from this symbol at start-up; every Granary executable links it.
//
// oversize_threshold:0      no dedicated arena for huge allocations: hash tables are huge
//                           and allocated from every thread, a single arena would contend.
// muzzy_decay_ms:0          return lazily-freed pages to the OS at once instead of keeping them.
// dirty_decay_ms:5000       keep dirty pages 5 s for reuse by the next query.
// lg_extent_max_active_fit:8  reuse free extents up to 256x larger than a request (default 64x):
//                           after a two-level table's 256 buckets are freed and coalesced, smaller
//                           tables of the next query can reuse them instead of faulting new pages
//                           (ClickHouse PR #80245: Q35 +96%, RSS -45%, page faults -71%).
// thp:always                ask for transparent huge pages on jemalloc's mappings (madvise; no
//                           effect where THP is off): hash tables and arenas that grow to
//                           hundreds of MB otherwise take a page fault per 4 KiB, and with two
//                           threads the kernel's zeroing and TLB shootdowns dominated. Measured:
//                           43 ClickBench queries on 1M rows at 2 threads, CPU 16.8 s -> 9.6 s,
//                           page faults of a 10M-group GROUP BY 660k -> 5k, peak RSS +1 %
//                           (docs/many-core-hygiene.md).
extern "C"
{
    __attribute__((used, visibility("default"))) const char* malloc_conf =
        "oversize_threshold:0,muzzy_decay_ms:0,dirty_decay_ms:5000,lg_extent_max_active_fit:8,"
        "thp:always";
}
