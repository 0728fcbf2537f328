// ClickBench Q30 (90 × SUM(ResolutionWidth + k)) on 10M rows of a SMALLINT column, with the
// sum(x + k) → sum(x) + k · count(x) rewrite on and off in the same run; prints both times
// and their ratio. Usage: q30_rewrite [rows] [repetitions] [threads]

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

std::string q30Text()
{
    std::string query = "SELECT SUM(ResolutionWidth)";
    for (int k = 1; k < 90; ++k)
    {
        query += ", SUM(ResolutionWidth + " + std::to_string(k) + ")";
    }
    return query + " FROM hits";
}

void fill(granary::Session& session, size_t rows)
{
    session.execute("CREATE TABLE hits (ResolutionWidth SMALLINT)");
    constexpr int16_t kWidths[] = {1024, 1280, 1366, 1440, 1600, 1920, 0, 800, 1536, 360};
    granary::bench::fillColumn<int16_t>(session, "hits", "ResolutionWidth", granary::TypeId::Int16,
                                        rows, 1,
                                        [&](uint64_t draw) { return kWidths[(draw >> 33) % 10]; });
}

/// Median times of `query` with the sum rewrite on or off.
granary::bench::QueryTiming medianTimes(granary::Session& session, const std::string& query,
                                        bool rewrite, int repetitions, size_t threads)
{
    granary::QueryOptions options;
    options.threads = threads;
    options.settings["optimize_arithmetic_operations_in_aggregate_functions"] = rewrite ? "1" : "0";
    return granary::bench::medianQueryTime(session, query, options, repetitions);
}

}  // namespace

int main(int argc, char** argv)
{
    const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 5;
    const size_t threads = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
    granary::Session session(granary::Database::openInMemory());
    fill(session, rows);
    const std::string query = q30Text();
    const granary::bench::QueryTiming on = medianTimes(session, query, true, repetitions, threads);
    const granary::bench::QueryTiming off =
        medianTimes(session, query, false, repetitions, threads);
    std::printf("Q30 on %zu rows (median of %d runs, threads %zu, 0 = all)\n", rows, repetitions,
                threads);
    std::printf("                 wall ms      cpu ms\n");
    std::printf("  rewrite on : %10.3f  %10.3f\n", on.wall_seconds * 1e3, on.cpu_seconds * 1e3);
    std::printf("  rewrite off: %10.3f  %10.3f\n", off.wall_seconds * 1e3, off.cpu_seconds * 1e3);
    std::printf("  speedup    : %9.2fx  %9.2fx\n", off.wall_seconds / on.wall_seconds,
                off.cpu_seconds / on.cpu_seconds);
    return 0;
}
