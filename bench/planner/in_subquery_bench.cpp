// `x IN (SELECT k FROM keys)` with a set of 1M values over 10M probe rows, at one thread and at
// two (or the threads given), in the same run: prints wall and CPU times and the speedup.
// The subquery runs once; its rows become one hash set, which every scan thread probes.
// Usage: in_subquery [probe_rows] [set_values] [repetitions] [threads]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/planner/bench_session.h"
#include "engine/columns/block.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace
{

/// A table of `rows` pseudo-random UInt64 values below `range`.
void fillTable(granary::Session& session, const std::string& table, const std::string& column,
               size_t rows, uint64_t range, uint64_t seed)
{
    session.execute("CREATE TABLE " + table + " (" + column + " UInt64)");
    granary::bench::fillColumn<uint64_t>(session, table, column, granary::TypeId::UInt64, rows,
                                         seed, [&](uint64_t draw) { return (draw >> 11) % range; });
}

}  // namespace

int main(int argc, char** argv)
{
    const size_t probe_rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const size_t set_values = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
    const int repetitions = argc > 3 ? std::atoi(argv[3]) : 5;
    const size_t threads = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 2;
    granary::Session session(granary::Database::openInMemory());
    // Keys from [0, 2n) and probes from [0, 4n): about a quarter of the probes match.
    fillTable(session, "keys", "k", set_values, 2 * set_values, 1);
    fillTable(session, "probe", "x", probe_rows, 4 * set_values, 2);
    const std::string query = "SELECT count() FROM probe WHERE x IN (SELECT k FROM keys)";
    granary::QueryOptions options;
    options.threads = 1;
    const granary::bench::QueryTiming one =
        granary::bench::medianQueryTime(session, query, options, repetitions);
    options.threads = threads;
    const granary::bench::QueryTiming many =
        granary::bench::medianQueryTime(session, query, options, repetitions);
    const auto matches = [](const granary::bench::QueryTiming& timing)
    { return timing.warm.block.columns[0].column.valueAt<uint64_t>(0); };
    std::printf("%s\n%zu probe rows, %zu set values (median of %d runs)\n", query.c_str(),
                probe_rows, set_values, repetitions);
    std::printf("              wall ms      cpu ms   matches\n");
    std::printf("  1 thread : %10.3f  %10.3f  %zu\n", one.wall_seconds * 1e3, one.cpu_seconds * 1e3,
                matches(one));
    std::printf("  %zu threads: %10.3f  %10.3f  %zu\n", threads, many.wall_seconds * 1e3,
                many.cpu_seconds * 1e3, matches(many));
    std::printf("  speedup  : %9.2fx\n", one.wall_seconds / many.wall_seconds);
    return matches(one) == matches(many) ? 0 : 1;
}
