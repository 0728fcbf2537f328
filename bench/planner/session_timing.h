#pragma once

// Timing SQL through a Session, for the planner benchmarks: a query's wall time and its
// answer as TSV (to check that the variants compared give the same one).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"

namespace granary::bench
{

struct TimedQuery
{
    double seconds = 0;
    std::string rows;    ///< The result as TSV.
    std::string totals;  ///< WITH TOTALS' row as TSV; empty without.
};

inline TimedQuery timeQuery(Session& session, const std::string& sql, const QueryOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    const QueryResult result = session.execute(sql, options);
    TimedQuery timed;
    timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream rows;
    writeBlockRows(result.block, OutputFormat::kTSV, rows);
    timed.rows = rows.str();
    if (result.totals)
    {
        std::ostringstream totals;
        writeBlockRows(*result.totals, OutputFormat::kTSV, totals);
        timed.totals = totals.str();
    }
    return timed;
}

/// The planner benchmarks' command line: `[rows] [repetitions] [threads]`.
struct RunShape
{
    size_t rows = 10'000'000;
    int repetitions = 5;
    size_t threads = 2;
};

inline RunShape runShapeOf(int argc, char** argv, int default_repetitions)
{
    RunShape shape;
    shape.rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : shape.rows;
    shape.repetitions = argc > 2 ? std::atoi(argv[2]) : default_repetitions;
    shape.threads = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : shape.threads;
    return shape;
}

/// A data directory under the temporary folder, named for the benchmark and the process,
/// removed when the benchmark ends.
class ScratchFolder
{
public:
    explicit ScratchFolder(const std::string& name)
        : path_(std::filesystem::temp_directory_path() /
                ("granary-" + name + "-bench-" + std::to_string(::getpid())))
    {
        std::filesystem::remove_all(path_);
    }
    ~ScratchFolder() { std::filesystem::remove_all(path_); }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace granary::bench
