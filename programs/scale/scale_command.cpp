// `granary scale`: runs queries at several thread counts and writes scaling.csv, predictions
// and SVG plots (docs/scaling.md); with --inflation, plots tools/work_inflation.sh's CSV or,
// beside a study, predicts from it.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "programs/clickbench/query_file.h"
#include "programs/command_registry.h"
#include "programs/scale/inflation_csv.h"
#include "programs/scale/inflation_report.h"
#include "programs/scale/machine_description.h"
#include "programs/scale/rank_sweep.h"
#include "programs/scale/scaling_csv.h"
#include "programs/scale/scaling_report.h"
#include "programs/scale/scaling_study.h"
#include "programs/scale/thread_counts.h"

namespace granary::programs
{

namespace
{

struct ScaleArguments
{
    std::string data_dir;
    std::string queries_file;
    std::string threads = "1,2,4,max";
    std::string oversubscribe;
    std::string predict = "80,112,240,480";
    std::string from_csv;
    std::string out_dir;
    size_t runs = 3;
    /// The rank sweep (`--ranks`): rank counts, the sharded data, how to launch MPI, and the
    /// network the model assumes.
    std::string ranks;
    std::string sharded_dir;
    std::string mpirun = "mpirun";
    double network_gbps = 10;
    std::string predict_nodes = "16,64";
    /// `--inflation`: plot tools/work_inflation.sh's CSV instead of running queries.
    std::string inflation_csv;
};

std::vector<scale::ScalingRow> measure(const ScaleArguments& args,
                                       const scale::MachineDescription& machine)
{
    if (args.data_dir.empty())
    {
        throw Exception(ErrorCode::kBadArguments, "granary scale needs --data (or --from-csv)");
    }
    const size_t hardware_threads = std::max<size_t>(1, machine.hardware_threads);
    scale::StudyOptions options;
    options.threads = scale::parseThreadCounts(args.threads, hardware_threads);
    if (!args.oversubscribe.empty())
    {
        for (size_t threads : scale::parseThreadCounts(args.oversubscribe, hardware_threads))
        {
            options.threads.push_back(threads);
        }
        options.threads = scale::parseThreadCounts(
            fmt::format("{}", fmt::join(options.threads, ",")), hardware_threads);
    }
    options.runs = std::max<size_t>(1, args.runs);
    options.hardware_threads = hardware_threads;
    options.progress = [](std::string_view line) { std::cerr << line << "\n"; };
    const std::filesystem::path checkpoint = std::filesystem::path(args.out_dir) / "scaling.csv";
    options.after_query = [&checkpoint](const std::vector<scale::ScalingRow>& rows)
    {
        std::filesystem::create_directories(checkpoint.parent_path());
        std::ofstream out(checkpoint, std::ios::trunc);
        scale::writeScalingCsv(rows, out);
    };

    const std::vector<scale::StudyQuery> queries = scale::numberQueries(
        args.queries_file.empty() ? clickbench::splitQueries(clickbench::defaultQueries())
                                  : clickbench::readQueryFile(args.queries_file));
    Session session(Session::openDatabase(args.data_dir));
    const scale::QueryRunner runner = [&session](const std::string& sql, size_t threads)
    {
        QueryOptions query_options;
        query_options.threads = threads;
        QueryResult result = session.execute(sql, query_options);
        return scale::QueryRun{result.elapsed_seconds, result.block.rows(),
                               std::move(result.stats)};
    };
    return scale::runScalingStudy(queries, options, runner);
}

/// `text` as one shell word.
std::string shellQuoted(const std::string& text)
{
    std::string quoted = "'";
    for (const char c : text)
    {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

/// Runs `granary mpi-query` under `args.mpirun` at every rank count × thread count over
/// DIR/shards-<ranks>, and reads back each run's JSON report.
std::vector<scale::RankRun> runRankSweep(const ScaleArguments& args, size_t hardware_threads)
{
    if (args.sharded_dir.empty())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "--ranks needs --sharded DIR (DIR/shards-<ranks>, from gen-hits --shards)");
    }
    const std::filesystem::path out(args.out_dir);
    std::filesystem::create_directories(out);
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::vector<scale::RankRun> runs;
    for (const size_t ranks : scale::parseThreadCounts(args.ranks, hardware_threads))
    {
        for (const size_t threads : scale::parseThreadCounts(args.threads, hardware_threads))
        {
            const std::filesystem::path report =
                out / fmt::format("mpi-{}x{}.json", ranks, threads);
            std::filesystem::remove(report);
            const std::string command = fmt::format(
                "{} -np {} {} mpi-query --data {} --threads {} --runs {} {} --out {} --json {}",
                args.mpirun, ranks, shellQuoted(self),
                shellQuoted(
                    (std::filesystem::path(args.sharded_dir) / fmt::format("shards-{}", ranks))
                        .string()),
                threads, std::max<size_t>(1, args.runs),
                args.queries_file.empty() ? "" : "--query-file " + shellQuoted(args.queries_file),
                shellQuoted((out / fmt::format("results-{}x{}", ranks, threads)).string()),
                shellQuoted(report.string()));
            std::cerr << "scale: " << command << "\n";
            const int status = std::system(command.c_str());
            std::ifstream in(report);
            if (!in)
            {
                throw Exception(ErrorCode::kBadArguments,
                                fmt::format("the run of {} ranks x {} threads wrote no report "
                                            "(exit status {}): {}",
                                            ranks, threads, status, command));
            }
            for (scale::RankRun& run :
                 scale::readMpiQueryReport(nlohmann::json::parse(in), ranks, threads))
            {
                runs.push_back(std::move(run));
            }
        }
    }
    // By query, each query's shapes in the sweep's order (its first shape is the baseline).
    std::stable_sort(runs.begin(), runs.end(),
                     [](const scale::RankRun& a, const scale::RankRun& b)
                     { return std::stoul(a.query.substr(1)) < std::stoul(b.query.substr(1)); });
    return runs;
}

/// The rank sweep's outputs: rank_scaling.csv, one SVG per query, the table on stdout.
void reportRankSweep(const ScaleArguments& args, const std::vector<scale::RankRun>& runs,
                     const scale::MachineDescription& machine)
{
    const std::filesystem::path out(args.out_dir);
    const std::vector<size_t> nodes =
        scale::parseThreadCounts(args.predict_nodes, machine.hardware_threads);
    const double bytes_per_second = args.network_gbps * 1e9 / 8;
    std::ofstream csv(out / "rank_scaling.csv", std::ios::trunc);
    scale::writeRankSweepCsv(runs, nodes, bytes_per_second, csv);
    for (size_t begin = 0; begin < runs.size();)
    {
        size_t end = begin;
        while (end < runs.size() && runs[end].query == runs[begin].query)
        {
            ++end;
        }
        const std::vector<scale::RankRun> query_runs(runs.begin() + begin, runs.begin() + end);
        std::ofstream(out / fmt::format("ranks_{}.svg", runs[begin].query))
            << scale::rankSweepSvg(query_runs, nodes, bytes_per_second, machine.summary());
        begin = end;
    }
    std::cout << scale::rankSweepTable(runs, nodes, bytes_per_second);
    std::cout << "wrote " << (out / "rank_scaling.csv").string() << " and ranks_Q*.svg\n";
}

std::vector<scale::ScalingRow> readRows(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot read " + path);
    }
    return scale::readScalingCsv(in);
}

/// tools/work_inflation.sh's CSV; throws naming the file when it cannot be read or has no rows.
std::vector<scale::InflationRow> readInflationRows(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot read " + path);
    }
    std::vector<scale::InflationRow> rows = scale::readInflationCsv(in, path);
    if (rows.empty())
    {
        throw Exception(ErrorCode::kBadArguments, path + ": no rows after the header");
    }
    return rows;
}

/// tools/work_inflation.sh's CSV: its summary on stdout, its plots and summary CSV in --out.
void reportInflation(const ScaleArguments& args)
{
    const scale::InflationReport report =
        scale::writeInflationReport(args.out_dir, readInflationRows(args.inflation_csv));
    std::cout << report.table;
    for (const std::filesystem::path& file : report.files)
    {
        std::cout << "wrote " << file.string() << "\n";
    }
}

/// The thread study (run, or re-read with --from-csv) and its report; with --inflation, the
/// inflation model's predictions too.
void reportThreadStudy(const ScaleArguments& args, const scale::MachineDescription& machine)
{
    const std::vector<scale::InflationRow> inflation = args.inflation_csv.empty()
                                                           ? std::vector<scale::InflationRow>{}
                                                           : readInflationRows(args.inflation_csv);
    const std::vector<scale::ScalingRow> rows =
        args.from_csv.empty() ? measure(args, machine) : readRows(args.from_csv);
    const std::vector<size_t> predict_at =
        scale::parseThreadCounts(args.predict, machine.hardware_threads);
    std::cout << scale::writeScalingReport(args.out_dir, rows, machine, predict_at, inflation);
    std::cout << "wrote " << args.out_dir << "/index.html\n";
}

const CommandRegistrar kScaleCommand{{
    "scale",
    "Run queries at several thread counts; write scaling.csv, predictions and SVG plots",
    [](CLI::App& app) -> std::function<int()>
    {
        auto args = std::make_shared<ScaleArguments>();
        app.add_option("--data", args->data_dir, "Data directory (Granary database)");
        app.add_option("--queries", args->queries_file,
                       "Query file: queries separated by ';' or one per line (default: "
                       "Granary's own suite, bench/clickbench/default-queries.sql)");
        app.add_option("--threads", args->threads,
                       "Thread counts, e.g. 1,2,4,8,max ('max': hardware threads)")
            ->capture_default_str();
        app.add_option("--oversubscribe", args->oversubscribe,
                       "Extra thread counts beyond the cores, e.g. 64,256 (merge-path study)");
        app.add_option("--runs", args->runs, "Runs per query and thread count (best is kept)")
            ->capture_default_str();
        app.add_option("--predict", args->predict, "Thread counts to predict speedups at")
            ->capture_default_str();
        app.add_option("--from-csv", args->from_csv,
                       "Re-analyse an existing scaling.csv instead of running queries");
        app.add_option("--ranks", args->ranks,
                       "Rank counts, e.g. 1,2,4: sweep `granary mpi-query` over ranks x "
                       "--threads instead of the thread study (needs --sharded)");
        app.add_option("--sharded", args->sharded_dir,
                       "With --ranks: DIR holding shards-<ranks> for each rank count "
                       "(gen-hits --shards)");
        app.add_option("--mpirun", args->mpirun,
                       "With --ranks: the launcher and its options (tools/mpirun_local.sh "
                       "has this machine's)")
            ->capture_default_str();
        app.add_option("--network-gbps", args->network_gbps,
                       "With --ranks: the network the node model assumes, Gbit/s per node")
            ->capture_default_str();
        app.add_option("--predict-nodes", args->predict_nodes,
                       "With --ranks: node counts the model predicts")
            ->capture_default_str();
        app.add_option("--inflation", args->inflation_csv,
                       "tools/work_inflation.sh's CSV (instructions at p threads / at 1 thread). "
                       "Alone: plot it (inflation_<suite>.svg, inflation_summary.csv); with "
                       "--data or --from-csv: predict from it and the median spans "
                       "(inflation_predictions.csv)");
        app.add_option("--out", args->out_dir, "Output directory")->required();
        return [args]
        {
            const bool has_study = !args->data_dir.empty() || !args->from_csv.empty();
            if (!args->inflation_csv.empty() && !has_study)
            {
                reportInflation(*args);
                return 0;
            }
            const scale::MachineDescription machine = scale::describeThisMachine();
            std::cerr << "machine: " << machine.summary() << "\n";
            if (!args->ranks.empty())
            {
                reportRankSweep(*args, runRankSweep(*args, machine.hardware_threads), machine);
                return 0;
            }
            reportThreadStudy(*args, machine);
            return 0;
        };
    },
}};

}  // namespace

}  // namespace granary::programs
