// `granary scale`: runs queries at several thread counts and writes scaling.csv, predictions
// and SVG plots (docs/scaling.md).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "programs/clickbench/query_file.h"
#include "programs/command_registry.h"
#include "programs/scale/machine_description.h"
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

std::vector<scale::ScalingRow> readRows(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot read " + path);
    }
    return scale::readScalingCsv(in);
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
        app.add_option("--out", args->out_dir, "Output directory")->required();
        return [args]
        {
            const scale::MachineDescription machine = scale::describeThisMachine();
            std::cerr << "machine: " << machine.summary() << "\n";
            const std::vector<scale::ScalingRow> rows =
                args->from_csv.empty() ? measure(*args, machine) : readRows(args->from_csv);
            const std::vector<size_t> predict_at =
                scale::parseThreadCounts(args->predict, machine.hardware_threads);
            std::cout << scale::writeScalingReport(args->out_dir, rows, machine, predict_at);
            std::cout << "wrote " << args->out_dir << "/index.html\n";
            return 0;
        };
    },
}};

}  // namespace

}  // namespace granary::programs
