#pragma once

#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary::bench
{

/// Fills the existing one-column table `table` with `rows` pseudo-random values of type T
/// (TypeId `type`), as parts of at most kMaxPartRows: value(r) maps each draw r of a 64-bit
/// LCG (seeded with `seed`) to a value.
template <typename T, typename Value>
void fillColumn(Session& session, const std::string& table, const std::string& column, TypeId type,
                size_t rows, uint64_t seed, Value&& value)
{
    uint64_t state = seed;
    std::vector<Block> blocks;
    for (size_t begin = 0; begin < rows; begin += Table::kMaxPartRows)
    {
        const size_t count = std::min(rows - begin, Table::kMaxPartRows);
        Column values(type);
        values.resizeFixed(count);
        T* data = values.mutableData<T>();
        for (size_t i = 0; i < count; ++i)
        {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            data[i] = value(state);
        }
        Block block;
        block.columns.push_back({column, std::move(values)});
        blocks.push_back(std::move(block));
    }
    session.database().insert(table, std::move(blocks));
}

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
