#include "programs/scale/rank_sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/common/exception.h"
#include "programs/scale/line_chart.h"

namespace granary::scale
{
namespace
{

/// Characters of a query's text in its chart's title (at the title's font size).
constexpr size_t kTitleSqlChars = 80;

RankRun runFromRecord(const nlohmann::json& record, size_t ranks, size_t threads)
{
    RankRun run;
    run.query = fmt::format("Q{}", record.at("query").get<size_t>() - 1);
    run.sql = record.at("sql").get<std::string>();
    run.ranks = ranks;
    run.threads = threads;
    if (record.contains("error"))
    {
        run.error = record.at("error").get<std::string>();
        return run;
    }
    run.seconds = record.at("seconds").get<double>();
    const nlohmann::json& exchange = record.at("exchange");
    run.imbalance = exchange.at("imbalance").get<double>();
    for (const nlohmann::json& rank : exchange.at("per_rank"))
    {
        run.local_work_seconds += rank.at("local_seconds").get<double>();
        run.exchange_seconds =
            std::max(run.exchange_seconds, rank.at("exchange_seconds").get<double>());
        run.state_bytes += rank.at("state_bytes").get<size_t>();
        run.bytes_sent += rank.at("bytes_sent").get<size_t>();
    }
    return run;
}

/// Each query's first shape (the runs' order: the sweep's first ranks and threads).
std::map<std::string, const RankRun*> firstShapes(const std::vector<RankRun>& runs)
{
    std::map<std::string, const RankRun*> first;
    for (const RankRun& run : runs)
    {
        if (run.error.empty())
        {
            first.emplace(run.query, &run);
        }
    }
    return first;
}

double ratioToFirst(const RankRun& run, const std::map<std::string, const RankRun*>& first)
{
    const auto found = first.find(run.query);
    return found == first.end() || found->second->seconds <= 0
               ? 0
               : run.seconds / found->second->seconds;
}

std::string shapeName(const RankRun& run)
{
    return fmt::format("{}x{}", run.ranks, run.threads);
}

}  // namespace

std::vector<RankRun> readMpiQueryReport(const nlohmann::json& report, size_t ranks, size_t threads)
{
    std::vector<RankRun> runs;
    try
    {
        for (const nlohmann::json& record : report)
        {
            runs.push_back(runFromRecord(record, ranks, threads));
        }
    }
    catch (const nlohmann::json::exception& e)
    {
        throw Exception(ErrorCode::kIncorrectData,
                        fmt::format("not an mpi-query report ({} ranks x {} threads): {}", ranks,
                                    threads, e.what()));
    }
    return runs;
}

double predictNodesSeconds(const RankRun& run, size_t nodes, double bytes_per_second)
{
    return run.local_work_seconds / static_cast<double>(nodes) +
           static_cast<double>(run.bytes_sent) / static_cast<double>(run.ranks) / bytes_per_second;
}

void writeRankSweepCsv(const std::vector<RankRun>& runs, const std::vector<size_t>& nodes,
                       double bytes_per_second, std::ostream& out)
{
    out << "query,ranks,threads,seconds,ratio_to_first,local_work_seconds,exchange_seconds,"
           "state_bytes,bytes_sent,imbalance";
    for (const size_t p : nodes)
    {
        out << ",predicted_seconds_" << p << "_nodes";
    }
    out << ",error\n";
    const auto first = firstShapes(runs);
    for (const RankRun& run : runs)
    {
        out << fmt::format("{},{},{},{},{},{},{},{},{},{}", run.query, run.ranks, run.threads,
                           run.seconds, ratioToFirst(run, first), run.local_work_seconds,
                           run.exchange_seconds, run.state_bytes, run.bytes_sent, run.imbalance);
        for (const size_t p : nodes)
        {
            out << ","
                << (run.error.empty()
                        ? fmt::format("{}", predictNodesSeconds(run, p, bytes_per_second))
                        : "");
        }
        // Quoted as CSV quotes: the error is free text.
        std::string error = run.error;
        for (size_t at = error.find('"'); at != std::string::npos; at = error.find('"', at + 2))
        {
            error.insert(at, 1, '"');
        }
        out << ",\"" << error << "\"\n";
    }
}

std::string rankSweepTable(const std::vector<RankRun>& runs, const std::vector<size_t>& nodes,
                           double bytes_per_second)
{
    std::string out = fmt::format("{:>5} {:>6} {:>9} {:>6} {:>6} {:>13} {:>6}", "query", "shape",
                                  "seconds", "ratio", "exch%", "bytes sent", "imbal");
    for (const size_t p : nodes)
    {
        out += fmt::format(" {:>10}", fmt::format("T({})", p));
    }
    out += "\n";
    const auto first = firstShapes(runs);
    std::map<std::string, std::pair<double, size_t>> log_ratios;  // by shape
    for (const RankRun& run : runs)
    {
        if (!run.error.empty())
        {
            out += fmt::format("{:>5} {:>6} failed: {}\n", run.query, shapeName(run), run.error);
            continue;
        }
        const double ratio = ratioToFirst(run, first);
        out += fmt::format("{:>5} {:>6} {:>9.4f} {:>6.2f} {:>5.1f}% {:>13} {:>6.2f}", run.query,
                           shapeName(run), run.seconds, ratio,
                           run.seconds > 0 ? 100 * run.exchange_seconds / run.seconds : 0.0,
                           run.bytes_sent, run.imbalance);
        for (const size_t p : nodes)
        {
            out += fmt::format(" {:>10.4f}", predictNodesSeconds(run, p, bytes_per_second));
        }
        out += "\n";
        if (ratio > 0)
        {
            auto& [sum, count] = log_ratios[shapeName(run)];
            sum += std::log(ratio);
            ++count;
        }
    }
    for (const auto& [shape, sum_count] : log_ratios)
    {
        out += fmt::format(
            "geometric mean of the time ratio to each query's first shape, {}: "
            "{:.3f} over {} queries\n",
            shape, std::exp(sum_count.first / static_cast<double>(sum_count.second)),
            sum_count.second);
    }
    return out;
}

std::string rankSweepSvg(const std::vector<RankRun>& query_runs, const std::vector<size_t>& nodes,
                         double bytes_per_second, const std::string& subtitle)
{
    LineChart chart;
    chart.subtitle = subtitle;
    chart.x_label = "ranks (nodes)";
    chart.y_label = "seconds";
    chart.x_scale = AxisScale::kLog2;
    chart.y_scale = AxisScale::kLog10;
    std::map<size_t, std::vector<const RankRun*>> by_threads;
    for (const RankRun& run : query_runs)
    {
        if (run.error.empty())
        {
            // The chart is 1100 px wide: a long query is cut so that its title fits.
            chart.title = fmt::format("{}: {}", run.query,
                                      run.sql.size() > kTitleSqlChars
                                          ? run.sql.substr(0, kTitleSqlChars) + "..."
                                          : run.sql);
            by_threads[run.threads].push_back(&run);
        }
    }
    size_t colour = 0;
    for (const auto& [threads, runs] : by_threads)
    {
        ChartSeries measured{fmt::format("measured, {} thread(s) per rank", threads),
                             {},
                             std::string(chartColour(colour))};
        for (const RankRun* run : runs)
        {
            measured.points.push_back({static_cast<double>(run->ranks), run->seconds});
        }
        const RankRun& widest = **std::max_element(runs.begin(), runs.end(),
                                                   [](const RankRun* a, const RankRun* b)
                                                   { return a->ranks < b->ranks; });
        ChartSeries predicted{
            fmt::format("model from {} ranks, {} thread(s)", widest.ranks, threads),
            {{static_cast<double>(widest.ranks), widest.seconds}},
            std::string(chartColour(colour)),
            LineStyle::kDashed,
            MarkerShape::kSquare};
        for (const size_t p : nodes)
        {
            predicted.points.push_back(
                {static_cast<double>(p), predictNodesSeconds(widest, p, bytes_per_second)});
        }
        chart.series.push_back(std::move(measured));
        chart.series.push_back(std::move(predicted));
        ++colour;
    }
    chart.notes.push_back(
        {fmt::format("model: T(P) = local work / P + bytes sent per rank / "
                     "{:.3g} GB/s",
                     bytes_per_second / 1e9)});
    return chart.toSvg();
}

}  // namespace granary::scale
