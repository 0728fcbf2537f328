// `granary clickbench`: runs a query suite over a data directory's `hits` table, prints each
// query's run times, writes ClickBench's result JSON and, with --compare duckdb, runs the same
// suite on DuckDB in the same process, side by side, optionally verifying the results.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "programs/clickbench/benchmark_report.h"
#include "programs/clickbench/duckdb_engine.h"
#include "programs/clickbench/query_file.h"
#include "programs/clickbench/suite_verification.h"
#include "programs/command_registry.h"
#include "programs/setting_option.h"

namespace granary::clickbench
{

namespace
{

struct Options
{
    std::filesystem::path data_dir;
    /// Another data directory of the same table (raw parts against compressed ones...), run
    /// after data_dir and compared with it.
    std::filesystem::path baseline_dir;
    std::filesystem::path queries_file;
    std::filesystem::path duckdb_queries_file;
    std::filesystem::path json_file;
    std::filesystem::path duckdb_json_file;
    std::filesystem::path duckdb_library;
    /// DuckDB's database file (empty: in memory); a table there with the data's row count is
    /// used as it is, not loaded again.
    std::filesystem::path duckdb_database;
    std::string compare;
    std::string machine;
    std::string table = "hits";
    size_t threads = 0;
    /// Query settings for Granary's runs (--setting NAME=VALUE).
    std::map<std::string, std::string, std::less<>> settings;
    size_t runs = 3;
    bool verify = false;
    /// With --compare: each query's runs alternate between the engines (runSuites) instead of
    /// all of Granary's queries before all of DuckDB's; memory is then measured for both.
    bool interleave = false;
    /// Print the queries, each followed by a NUL byte, and run nothing (for scripts that run
    /// the queries one by one: tools/work_inflation.sh).
    bool print_queries = false;
};

class GranaryEngine final : public QueryEngine
{
public:
    GranaryEngine(Session& session, size_t threads,
                  std::map<std::string, std::string, std::less<>> settings,
                  std::string name = "granary")
        : session_(session), name_(std::move(name))
    {
        options_.threads = threads;
        options_.settings = std::move(settings);
    }

    std::string name() const override { return name_; }

    TimedResult run(std::string_view sql) override
    {
        const auto start = std::chrono::steady_clock::now();
        const QueryResult result = session_.execute(sql, options_);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return {resultTableOf(result.block), seconds};
    }

    void dropCaches() override { session_.dropCaches(); }

private:
    Session& session_;
    std::string name_;
    QueryOptions options_;
};

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

uint64_t directoryBytes(const std::filesystem::path& directory)
{
    uint64_t bytes = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(directory, error))
    {
        if (entry.is_regular_file(error))
        {
            bytes += entry.file_size(error);
        }
    }
    return bytes;
}

std::string hostName()
{
    char name[256] = {};
    return gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : std::string("unknown");
}

/// A progress line on the terminal, rewritten in place; nothing when stderr is not one.
ProgressCallback progressLine(const std::string& engine, size_t queries, size_t runs)
{
    if (isatty(STDERR_FILENO) == 0)
    {
        return {};
    }
    return [engine, queries, runs](size_t query, size_t run)
    {
        std::cerr << fmt::format("\r\033[K{}: query {}/{}, run {}/{}", engine, query + 1, queries,
                                 run + 1, runs)
                  << std::flush;
    };
}

void clearProgressLine()
{
    if (isatty(STDERR_FILENO) != 0)
    {
        std::cerr << "\r\033[K" << std::flush;
    }
}

/// Fills each suite's engine name and query runs (their load time and memory are the
/// caller's): several engines run query by query (runSuites), suites[i] for engines[i], which
/// runs queries[i] (its dialect of the suite).
void runEngines(const std::vector<QueryEngine*>& engines,
                const std::vector<std::vector<std::string>>& queries, const Options& options,
                const std::vector<SuiteRun*>& suites)
{
    std::vector<ProgressCallback> progress;
    for (size_t e = 0; e < engines.size(); ++e)
    {
        suites[e]->engine = engines[e]->name();
        progress.push_back(progressLine(suites[e]->engine, queries[e].size(), options.runs));
    }
    std::vector<std::vector<QueryRun>> runs =
        runSuites(engines, queries, options.runs, options.verify, progress);
    clearProgressLine();
    for (size_t e = 0; e < engines.size(); ++e)
    {
        suites[e]->queries = std::move(runs[e]);
    }
}

void writeJson(const std::filesystem::path& path, const SuiteRun& suite, const ReportInfo& info)
{
    std::ofstream file(path);
    file << clickBenchJson(suite, info).dump(2) << "\n";
    if (!file)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot write " + path.string());
    }
}

std::string mebibytes(size_t bytes)
{
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
}

void printMemory(const std::string& label, double load_seconds, const PhaseMemory& memory)
{
    std::cout << fmt::format(
        "{}: load {:.3f} s; resident at start {}, peak {} ({} added{})\n", label, load_seconds,
        mebibytes(memory.start_bytes), mebibytes(memory.peak_bytes),
        mebibytes(memory.peak_bytes > memory.start_bytes ? memory.peak_bytes - memory.start_bytes
                                                         : 0),
        memory.peak_is_per_phase ? "" : "; peak since process start");
}

/// Rows of DuckDB's `table`; none where it has no such table.
std::optional<size_t> duckDbRows(DuckDbClient& client, const std::string& table)
{
    try
    {
        const TimedResult counted = client.query("SELECT count(*) FROM " + table);
        return size_t(counted.table.rows.at(0).at(0).integer);
    }
    catch (const Exception&)
    {
        return std::nullopt;
    }
}

/// Copies the table's parts (memory-mapped column views, read through the storage API) into
/// a DuckDB table of the same name through one appender, then checkpoints a database file;
/// returns DuckDB's load seconds (0 when a database file already held the rows).
double loadIntoDuckDb(Session& session, DuckDbClient& client, const Options& options)
{
    const std::shared_ptr<Table> table = session.database().table(options.table);
    const std::shared_ptr<const TableSnapshot> snapshot = table->snapshot();
    const auto start = std::chrono::steady_clock::now();
    if (options.threads != 0)
    {
        client.execute(fmt::format("SET threads = {}", options.threads));
    }
    if (!options.duckdb_database.empty())
    {
        if (duckDbRows(client, options.table) == snapshot->rows())
        {
            std::cout << fmt::format("duckdb: {} already holds the {} rows\n",
                                     options.duckdb_database.string(), snapshot->rows());
            return 0;
        }
        client.execute("DROP TABLE IF EXISTS " + options.table);
    }
    const std::vector<ColumnSchema>& schema = table->schema().columns;
    std::vector<std::pair<std::string, DataType>> columns;
    std::vector<Column> buffers;
    for (const ColumnSchema& column : schema)
    {
        columns.emplace_back(column.name, column.type);
        buffers.emplace_back(column.type.valueType());
    }
    client.createTable(options.table, columns);
    // Parts are read in pieces of whole granules, so that encoded columns are decoded
    // through buffers of one piece, not the whole table at once.
    constexpr size_t kPieceRows = 16 * Part::kGranuleRows;
    client.append(options.table,
                  [&](const std::function<void(const BlockView&)>& append_block)
                  {
                      for (const std::shared_ptr<const Part>& part : snapshot->parts)
                      {
                          for (size_t first = 0; first < part->rows(); first += kPieceRows)
                          {
                              const size_t rows = std::min(kPieceRows, part->rows() - first);
                              BlockView piece;
                              for (size_t index = 0; index < schema.size(); ++index)
                              {
                                  piece.add(schema[index].name,
                                            part->read(index, first, rows, buffers[index]));
                              }
                              append_block(piece);
                          }
                      }
                  });
    if (!options.duckdb_database.empty())
    {
        client.execute("CHECKPOINT");
    }
    return secondsSince(start);
}

/// The data directory's database, opened in `load_seconds`. Session::openDatabase would
/// create a missing folder: a mistyped directory must not pass.
std::unique_ptr<Session> openDataDirectory(const std::filesystem::path& directory,
                                           double& load_seconds)
{
    if (std::error_code error; !std::filesystem::is_directory(directory, error))
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "data directory " + directory.string() + " does not exist");
    }
    const auto start = std::chrono::steady_clock::now();
    auto session = std::make_unique<Session>(Session::openDatabase(directory));
    load_seconds = secondsSince(start);
    return session;
}

/// The suite on --data and on the baseline directory, query by query (runSuites), into
/// `granary` and the returned baseline run; both share one memory phase.
SuiteRun runWithBaseline(const Options& options, const std::vector<std::string>& queries,
                         GranaryEngine& granary_engine, SuiteRun& granary)
{
    SuiteRun baseline;
    const std::unique_ptr<Session> session =
        openDataDirectory(options.baseline_dir, baseline.load_seconds);
    GranaryEngine baseline_engine(*session, options.threads, options.settings, "baseline");
    runEngines({&granary_engine, &baseline_engine}, {queries, queries}, options,
               {&granary, &baseline});
    return baseline;
}

void printBaselineComparison(const Options& options, const SuiteRun& granary,
                             const SuiteRun& baseline)
{
    std::cout << fmt::format(
        "\ngranary: {} ({} bytes); baseline: {} ({} bytes), run query by "
        "query with it\n",
        options.data_dir.string(), directoryBytes(options.data_dir), options.baseline_dir.string(),
        directoryBytes(options.baseline_dir));
    printComparisonTable(std::cout, granary, baseline, {});
}

/// DuckDB's dialect of the queries: the twin query file, or the same queries.
std::vector<std::string> duckDbQueriesFor(const Options& options,
                                          const std::vector<std::string>& queries)
{
    std::filesystem::path twin = options.duckdb_queries_file;
    if (twin.empty() && !options.queries_file.empty())
    {
        twin = duckDbTwinOf(options.queries_file);
    }
    if (twin.empty())
    {
        return queries;
    }
    std::vector<std::string> duckdb_queries = readQueryFile(twin);
    if (duckdb_queries.size() != queries.size())
    {
        throw Exception(
            ErrorCode::kBadArguments,
            fmt::format("{} holds {} queries but {} holds {}", twin.string(), duckdb_queries.size(),
                        options.queries_file.string(), queries.size()));
    }
    return duckdb_queries;
}

DuckDbApi loadDuckDbLibrary(const Options& options)
{
    const std::filesystem::path library =
        options.duckdb_library.empty() ? DuckDbApi::findLibrary() : options.duckdb_library;
    if (library.empty())
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "libduckdb.so not found: run tools/install_duckdb.sh, or name it "
                        "with --duckdb-lib or GRANARY_DUCKDB_LIB");
    }
    return DuckDbApi::load(library);
}

/// Fields of the result JSON shared by both engines, as Granary's.
ReportInfo granaryReportInfo(const Options& options, const SuiteRun& granary)
{
    ReportInfo info;
    info.date = todayDate();
    info.machine = options.machine.empty() ? hostName() : options.machine;
    info.tags = {"C++", "column-oriented", "lukewarm-cold-run"};
    info.data_size_bytes = directoryBytes(options.data_dir);
    info.load_time_seconds = granary.load_seconds;
    info.comment = fmt::format(
        "granary clickbench, {} threads; cold run after dropCaches() in a "
        "running process; load_time is opening the data directory",
        options.threads == 0 ? std::string("all") : std::to_string(options.threads));
    return info;
}

/// DuckDB with the table loaded (or found in its database file) and its suite, whose load
/// time this fills.
struct DuckDbSide
{
    DuckDbSide(const Options& options, Session& session, DuckDbApi api)
        : library(api.library_path), client(std::move(api), options.duckdb_database)
    {
        suite.load_seconds = loadIntoDuckDb(session, client, options);
    }

    std::filesystem::path library;
    DuckDbClient client;
    SuiteRun suite;
};

/// The side by side table, DuckDB's JSON and, with --verify, the verdict; returns the
/// command's exit status.
int reportComparison(const Options& options, DuckDbSide& duckdb, const SuiteRun& granary,
                     const ReportInfo& info)
{
    if (!options.duckdb_json_file.empty())
    {
        ReportInfo duckdb_info = info;
        duckdb_info.system = "DuckDB (" + duckdb.client.version() + ")";
        duckdb_info.tags = {"C++", "column-oriented", "embedded", "lukewarm-cold-run"};
        duckdb_info.load_time_seconds = duckdb.suite.load_seconds;
        duckdb_info.comment =
            "run by granary clickbench --compare duckdb, " +
            (options.duckdb_database.empty() ? std::string("in-memory database")
                                             : "database file " + options.duckdb_database.string());
        writeJson(options.duckdb_json_file, duckdb.suite, duckdb_info);
    }

    std::cout << "\nDuckDB " << duckdb.client.version() << " (" << duckdb.library.string() << ")"
              << (options.interleave ? ", interleaved with granary query by query" : "") << "\n";
    const auto comparisons = options.verify ? verifySuites(granary, duckdb.suite)
                                            : std::vector<std::optional<Comparison>>{};
    printComparisonTable(std::cout, granary, duckdb.suite, comparisons);
    if (options.interleave)
    {
        printMemory("granary and duckdb", granary.load_seconds + duckdb.suite.load_seconds,
                    granary.memory);
    }
    else
    {
        printMemory(granary.engine, granary.load_seconds, granary.memory);
        printMemory(duckdb.suite.engine, duckdb.suite.load_seconds, duckdb.suite.memory);
    }
    if (!options.verify)
    {
        return 0;
    }
    const size_t failures = countVerificationFailures(granary, duckdb.suite, comparisons);
    std::cout << fmt::format("verify: {} of {} queries differ or failed\n", failures,
                             granary.queries.size());
    return failures == 0 ? 0 : 1;
}

int runClickBench(const Options& options)
{
    const bool compare = options.verify || options.compare == "duckdb";
    const std::vector<std::string> queries = options.queries_file.empty()
                                                 ? splitQueries(defaultQueries())
                                                 : readQueryFile(options.queries_file);
    if (options.print_queries)
    {
        for (const std::string& query : queries)
        {
            std::cout << query << '\0';
        }
        return 0;
    }
    if (options.interleave && (!compare || !options.baseline_dir.empty()))
    {
        throw Exception(ErrorCode::kBadArguments,
                        "--interleave needs --compare duckdb and no --baseline-data");
    }
    // DuckDB's queries and library first: a missing one fails before the long Granary runs.
    std::vector<std::string> duckdb_queries;
    std::optional<DuckDbApi> duckdb_api;
    if (compare)
    {
        duckdb_queries = duckDbQueriesFor(options, queries);
        duckdb_api = loadDuckDbLibrary(options);
    }

    SuiteRun granary;
    granary.memory = PhaseMemory::begin();
    const std::unique_ptr<Session> session =
        openDataDirectory(options.data_dir, granary.load_seconds);
    GranaryEngine granary_engine(*session, options.threads, options.settings);
    std::optional<SuiteRun> baseline;
    std::optional<DuckDbSide> duckdb;
    if (!options.baseline_dir.empty())
    {
        baseline = runWithBaseline(options, queries, granary_engine, granary);
    }
    else if (options.interleave)
    {
        duckdb.emplace(options, *session, *duckdb_api);
        DuckDbEngine duckdb_engine(duckdb->client);
        runEngines({&granary_engine, &duckdb_engine}, {queries, duckdb_queries}, options,
                   {&granary, &duckdb->suite});
    }
    else
    {
        runEngines({&granary_engine}, {queries}, options, {&granary});
    }
    granary.memory.end();
    printSuiteTable(std::cout, granary);
    if (baseline)
    {
        printBaselineComparison(options, granary, *baseline);
    }
    const ReportInfo info = granaryReportInfo(options, granary);
    if (!options.json_file.empty())
    {
        writeJson(options.json_file, granary, info);
    }
    if (!compare)
    {
        printMemory(granary.engine, granary.load_seconds, granary.memory);
        return 0;
    }
    if (!duckdb)
    {
        // Granary's caches go before DuckDB's phase: the two do not share the memory.
        session->dropCaches();
        const PhaseMemory memory = PhaseMemory::begin();
        duckdb.emplace(options, *session, *duckdb_api);
        duckdb->suite.memory = memory;
        DuckDbEngine duckdb_engine(duckdb->client);
        runEngines({&duckdb_engine}, {duckdb_queries}, options, {&duckdb->suite});
        duckdb->suite.memory.end();
    }
    return reportComparison(options, *duckdb, granary, info);
}

const programs::CommandRegistrar registrar{programs::Command{
    "clickbench",
    "Run a ClickBench-style query suite, write ClickBench's result JSON, compare with DuckDB",
    [](CLI::App& app) -> std::function<int()>
    {
        auto options = std::make_shared<Options>();
        app.add_option("--data", options->data_dir, "Data directory holding the table")->required();
        app.add_option("--baseline-data", options->baseline_dir,
                       "Another data directory of the same table (e.g. raw parts): the suite "
                       "runs on it too, and the times are compared with --data's");
        app.add_option("--queries", options->queries_file,
                       "Query file (';'-separated or one per line); default: Granary's suite");
        app.add_option("--duckdb-queries", options->duckdb_queries_file,
                       "DuckDB dialect of the same queries, in the same order; default: the "
                       "twin next to --queries (clickhouse-X → duckdb-X, X.sql → X.duckdb.sql) "
                       "or the same queries");
        app.add_option("--threads", options->threads, "Threads per query (0: all)");
        programs::addSettingOption(app, options->settings);
        app.add_option("--runs", options->runs, "Runs per query, the first one cold")
            ->check(CLI::PositiveNumber);
        app.add_option("--json", options->json_file, "Write ClickBench's result JSON here");
        app.add_option("--duckdb-json", options->duckdb_json_file,
                       "With --compare: write DuckDB's result JSON here");
        app.add_option("--compare", options->compare, "Engine to compare with")
            ->check(CLI::IsMember({"duckdb"}));
        app.add_flag("--interleave", options->interleave,
                     "With --compare: run each query on both engines, run by run, before the "
                     "next (outside load then reaches both alike); memory is measured for both "
                     "together");
        app.add_flag("--verify", options->verify,
                     "Compare the results with DuckDB's (implies --compare duckdb); exit 1 if "
                     "any differs");
        app.add_option("--duckdb-lib", options->duckdb_library,
                       "libduckdb.so; default: $GRANARY_DUCKDB_LIB or tools/install_duckdb.sh's");
        app.add_option("--duckdb-database", options->duckdb_database,
                       "DuckDB's database file (default: in memory); a table there with the "
                       "data's row count is queried as it is, else loaded and checkpointed");
        app.add_option("--machine", options->machine, "Machine name for the JSON (default: host)");
        app.add_option("--table", options->table, "Table the queries read (loaded into DuckDB)");
        app.add_flag("--print-queries", options->print_queries,
                     "Print the queries as split from the file, each ended by a NUL byte, and "
                     "run nothing");
        return [options] { return runClickBench(*options); };
    }}};

}  // namespace

}  // namespace granary::clickbench
