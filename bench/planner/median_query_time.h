#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "engine/session/session.h"

namespace granary::bench
{

struct QueryTiming
{
    double wall_seconds;
    double cpu_seconds;  ///< Of the whole process, all threads: robust to a busy machine.
    QueryResult warm;    ///< The warm-up run's result, for checking answers.
};

/// Median wall and CPU time of `repetitions` runs of `query`, after one warm-up run.
inline QueryTiming medianQueryTime(Session& session, const std::string& query,
                                   const QueryOptions& options, int repetitions)
{
    QueryResult warm = session.execute(query, options);
    std::vector<double> walls;
    std::vector<double> cpus;
    for (int i = 0; i < repetitions; ++i)
    {
        const auto start = std::chrono::steady_clock::now();
        const std::clock_t cpu_start = std::clock();
        session.execute(query, options);
        cpus.push_back(static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC);
        walls.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    return {walls[walls.size() / 2], cpus[cpus.size() / 2], std::move(warm)};
}

}  // namespace granary::bench
