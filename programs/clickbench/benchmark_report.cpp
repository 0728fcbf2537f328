#include "programs/clickbench/benchmark_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

namespace granary::clickbench
{

namespace
{

constexpr double kMinimumSeconds = 1e-6;

std::string formatSeconds(const std::optional<double>& seconds)
{
    return seconds ? fmt::format("{:.4f}", *seconds) : std::string("failed");
}

double roundToMicroseconds(double seconds)
{
    return std::round(seconds * 1e6) / 1e6;
}

}  // namespace

nlohmann::json clickBenchJson(const SuiteRun& suite, const ReportInfo& info)
{
    nlohmann::json result = nlohmann::json::array();
    for (const QueryRun& query : suite.queries)
    {
        nlohmann::json runs = nlohmann::json::array();
        for (const std::optional<double>& seconds : query.seconds)
        {
            runs.push_back(seconds ? nlohmann::json(roundToMicroseconds(*seconds))
                                   : nlohmann::json(nullptr));
        }
        result.push_back(std::move(runs));
    }
    nlohmann::json report = {
        {"system", info.system},
        {"date", info.date},
        {"machine", info.machine},
        {"cluster_size", 1},
        {"proprietary", "no"},
        {"hardware", "cpu"},
        {"tuned", "no"},
        {"tags", info.tags},
        {"load_time", roundToMicroseconds(info.load_time_seconds)},
        {"data_size", info.data_size_bytes},
        {"concurrent_qps", nullptr},
        {"concurrent_error_ratio", nullptr},
    };
    if (!info.comment.empty())
    {
        report["comment"] = info.comment;
    }
    report["result"] = std::move(result);
    return report;
}

std::string todayDate()
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    return fmt::format("{:04}-{:02}-{:02}", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday);
}

std::optional<double> geometricMean(const std::vector<double>& values)
{
    if (values.empty())
    {
        return std::nullopt;
    }
    double log_sum = 0;
    for (const double value : values)
    {
        log_sum += std::log(std::max(value, kMinimumSeconds));
    }
    return std::exp(log_sum / static_cast<double>(values.size()));
}

std::optional<double> geometricMeanOfBest(const SuiteRun& suite)
{
    std::vector<double> best;
    for (const QueryRun& query : suite.queries)
    {
        if (const auto seconds = query.bestSeconds())
        {
            best.push_back(*seconds);
        }
    }
    return geometricMean(best);
}

namespace
{

/// Whether some run's storage reads were measured.
bool storageReadsMeasured(const SuiteRun& suite)
{
    return std::ranges::any_of(
        suite.queries, [](const QueryRun& query) { return !query.storage_read_bytes.empty(); });
}

/// The first (cold) run's storage reads and the most of any later (hot) run's, in MB.
std::string storageReadColumns(const QueryRun& query)
{
    if (query.storage_read_bytes.empty())
    {
        return fmt::format("  {:>9}  {:>9}", "", "");
    }
    const auto& bytes = query.storage_read_bytes;
    const uint64_t hot = bytes.size() > 1 ? *std::max_element(bytes.begin() + 1, bytes.end()) : 0;
    return fmt::format("  {:>9.1f}  {:>9.1f}", double(bytes.front()) / 1e6, double(hot) / 1e6);
}

}  // namespace

void printSuiteTable(std::ostream& out, const SuiteRun& suite)
{
    const size_t runs = suite.queries.empty() ? 0 : suite.queries.front().seconds.size();
    const bool storage_reads = storageReadsMeasured(suite);
    std::string header = fmt::format("{:>4}", "Q");
    for (size_t run = 0; run < runs; ++run)
    {
        header += fmt::format("  {:>9}", fmt::format("run {}", run + 1));
    }
    header += storage_reads ? fmt::format("  {:>9}  {:>9}", "cold MB", "hot MB") : "";
    out << header << fmt::format("  {:>10}\n", "rows");
    size_t failed = 0;
    for (size_t index = 0; index < suite.queries.size(); ++index)
    {
        const QueryRun& query = suite.queries[index];
        std::string line = fmt::format("{:>4}", index + 1);
        for (const std::optional<double>& seconds : query.seconds)
        {
            line += fmt::format("  {:>9}", formatSeconds(seconds));
        }
        line += storage_reads ? storageReadColumns(query) : "";
        if (query.error.empty())
        {
            line += fmt::format("  {:>10}", query.rows);
        }
        else
        {
            ++failed;
            line += "  error: " + query.error;
        }
        out << line << "\n";
    }
    const auto mean = geometricMeanOfBest(suite);
    out << fmt::format("{}: geometric mean of the best times {} s over {} queries", suite.engine,
                       mean ? fmt::format("{:.4f}", *mean) : std::string("n/a"),
                       suite.queries.size() - failed);
    out << (failed != 0 ? fmt::format(" ({} failed)\n", failed) : std::string("\n"));
    if (storage_reads)
    {
        out << suite.engine
            << ": cold MB / hot MB: bytes the process read from storage (page cache misses) "
               "during the first run / the most during a later one\n";
    }
}

void printComparisonTable(std::ostream& out, const SuiteRun& granary, const SuiteRun& duckdb,
                          const std::vector<std::optional<Comparison>>& comparisons)
{
    out << fmt::format("{:>4}  {:>10}  {:>10}  {:>8}  {:>9}  {:>9}  {}\n", "Q", granary.engine,
                       duckdb.engine, "ratio", "rows", "rows", "result");
    std::vector<double> ratios;
    const size_t count = std::min(granary.queries.size(), duckdb.queries.size());
    for (size_t index = 0; index < count; ++index)
    {
        const QueryRun& ours = granary.queries[index];
        const QueryRun& theirs = duckdb.queries[index];
        const auto our_best = ours.bestSeconds();
        const auto their_best = theirs.bestSeconds();
        std::string ratio = "-";
        if (our_best && their_best)
        {
            const double value =
                std::max(*our_best, kMinimumSeconds) / std::max(*their_best, kMinimumSeconds);
            ratios.push_back(value);
            ratio = fmt::format("{:.2f}", value);
        }
        std::string outcome;
        if (index < comparisons.size() && comparisons[index])
        {
            outcome = std::string(outcomeName(comparisons[index]->outcome));
            if (!comparisons[index]->detail.empty())
            {
                outcome += ": " + comparisons[index]->detail;
            }
        }
        else if (!ours.error.empty() || !theirs.error.empty())
        {
            outcome = "error: " + (ours.error.empty() ? duckdb.engine + ": " + theirs.error
                                                      : granary.engine + ": " + ours.error);
        }
        out << fmt::format("{:>4}  {:>10}  {:>10}  {:>8}  {:>9}  {:>9}  {}\n", index + 1,
                           formatSeconds(our_best), formatSeconds(their_best), ratio,
                           ours.error.empty() ? std::to_string(ours.rows) : "-",
                           theirs.error.empty() ? std::to_string(theirs.rows) : "-", outcome);
    }
    const auto mean = geometricMean(ratios);
    out << fmt::format("geometric mean of {} / {} best-time ratios: {} over {} queries\n",
                       granary.engine, duckdb.engine,
                       mean ? fmt::format("{:.3f}", *mean) : std::string("n/a"), ratios.size());
}

}  // namespace granary::clickbench
