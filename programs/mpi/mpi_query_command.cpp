// `granary mpi-query`: SQL over a table sharded across the ranks of an MPI job
// (`mpirun -np N granary mpi-query --data DIR ...`, DIR/shard-<rank> per rank).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/common/exception.h"
#include "engine/distributed/distributed_select.h"
#include "engine/distributed/rank_exchange.h"
#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "programs/clickbench/query_file.h"
#include "programs/clickbench/result_comparison.h"
#include "programs/command_registry.h"
#include "programs/mpi/mpi_transport.h"

namespace granary::programs
{
namespace
{

struct MpiQueryOptions
{
    std::string data_dir;
    std::vector<std::string> queries;
    std::string query_file;
    size_t threads = 0;
    size_t runs = 1;
    std::string format = "TSV";
    std::string out_dir;
    std::string verify_against;
    std::string json;
    bool stats = false;
    double timeout_seconds = 60;
};

/// The shard directories DIR/shard-0, DIR/shard-1, ... that exist.
size_t countShards(const std::filesystem::path& data_dir)
{
    size_t shards = 0;
    while (std::filesystem::is_directory(data_dir / ("shard-" + std::to_string(shards))))
    {
        ++shards;
    }
    return shards;
}

/// A database's tables and their columns, as one line: what every shard must agree on.
std::string tablesFingerprint(const Database& database)
{
    std::string fingerprint;
    for (const std::string& name : database.tableNames())
    {
        fingerprint += name + "(";
        for (const ColumnSchema& column : database.table(name)->schema().columns)
        {
            fingerprint += column.name + " " + dataTypeName(column.type) + ",";
        }
        fingerprint += ") ";
    }
    return fingerprint;
}

/// Opens this rank's shard after every rank has checked that the shards are there, as many
/// as ranks, and alike: a missing shard or one of another schema stops every rank before
/// any query runs.
std::shared_ptr<Database> openShard(const MpiQueryOptions& options,
                                    distributed::RankExchange& exchange,
                                    distributed::Transport& transport)
{
    const std::filesystem::path data_dir(options.data_dir);
    std::shared_ptr<Database> database;
    exchange.agreeAfter(
        [&]
        {
            const size_t shards = countShards(data_dir);
            if (shards != exchange.ranks())
            {
                throw Exception(ErrorCode::kBadArguments,
                                fmt::format("{} holds {} shards (shard-0 ...), but the job has {} "
                                            "ranks: each rank opens its own shard",
                                            data_dir.string(), shards, exchange.ranks()));
            }
            database =
                Session::openDatabase(data_dir / ("shard-" + std::to_string(exchange.rank())));
        });
    const std::vector<std::string> fingerprints = transport.allGather(tablesFingerprint(*database));
    exchange.agreeAfter(
        [&]
        {
            if (fingerprints[exchange.rank()] != fingerprints[0])
            {
                throw Exception(
                    ErrorCode::kIncorrectData,
                    fmt::format("shard-{} holds other tables than shard-0: {} against {}",
                                exchange.rank(), fingerprints[exchange.rank()], fingerprints[0]));
            }
        });
    return database;
}

std::vector<std::string> queriesOf(const MpiQueryOptions& options)
{
    if (!options.queries.empty())
    {
        return options.queries;
    }
    if (!options.query_file.empty())
    {
        return clickbench::readQueryFile(options.query_file);
    }
    return clickbench::splitQueries(clickbench::defaultQueries());
}

/// One run of `sql` across the ranks; every rank throws the same error if any rank fails.
QueryResult runDistributed(const std::string& sql, Database& database, size_t threads,
                           distributed::Transport& transport)
{
    const auto start = std::chrono::steady_clock::now();
    QueryResult result;
    QueryContext context(threads, 0);
    std::optional<sql::SelectStatement> select;
    std::shared_ptr<Table> table;
    ExchangeStats planning;
    distributed::RankExchange(transport, planning)
        .agreeAfter(
            [&]
            {
                sql::Statement statement = sql::parseStatement(sql);
                auto* parsed = std::get_if<sql::SelectStatement>(&statement);
                if (parsed == nullptr || !parsed->from)
                {
                    throw Exception(ErrorCode::kBadArguments,
                                    "mpi-query runs SELECT ... FROM a table of the shards");
                }
                table = database.table(*parsed->from);
                select = std::move(*parsed);
            });
    SelectOutcome outcome = distributed::executeDistributedSelect(*select, *table, context,
                                                                  SelectSettings{}, transport);
    result.block = std::move(outcome.block);
    result.stats = context.stats();
    result.rows_read = outcome.rows_read;
    result.bytes_read = outcome.bytes_read;
    result.elapsed_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

nlohmann::json exchangeJson(const ExchangeStats& exchange)
{
    nlohmann::json per_rank = nlohmann::json::array();
    for (const ExchangeStats::Rank& rank : exchange.per_rank)
    {
        per_rank.push_back({{"state_bytes", rank.state_bytes},
                            {"result_bytes", rank.result_bytes},
                            {"bytes_sent", rank.bytes_sent},
                            {"bytes_received", rank.bytes_received},
                            {"local_seconds", rank.local_seconds},
                            {"exchange_seconds", rank.exchange_seconds}});
    }
    return {{"ranks", exchange.ranks},
            {"rounds", exchange.rounds},
            {"imbalance", exchange.imbalance()},
            {"per_rank", per_rank}};
}

/// Runs every query on every rank; rank 0 prints, verifies and reports. Returns the exit code.
class MpiQueryRunner
{
public:
    MpiQueryRunner(const MpiQueryOptions& options, MpiTransport& transport)
        : options_(options),
          transport_(transport),
          threads_(options.threads != 0 ? options.threads
                                        : std::max(1U, std::thread::hardware_concurrency())),
          format_(outputFormatFromName(options.format))
    {
    }

    int run()
    {
        ExchangeStats setup;
        distributed::RankExchange exchange(transport_, setup);
        std::shared_ptr<Database> database;
        try
        {
            database = openShard(options_, exchange, transport_);
            exchange.agreeAfter([&] { openReference(); });
        }
        catch (const Exception& e)
        {
            return fail(e.what());
        }
        const std::vector<std::string> queries = queriesOf(options_);
        for (size_t q = 0; q < queries.size(); ++q)
        {
            runQuery(q, queries[q], *database);
        }
        if (isRoot() && !options_.json.empty())
        {
            std::ofstream(options_.json) << report_.dump(2) << "\n";
        }
        if (isRoot() && verifier_)
        {
            std::cerr << fmt::format(
                "mpi-query: {} of {} queries as on one process, {} with "
                "other rows tied at the LIMIT, {} differ, {} failed\n",
                equal_, queries.size(), tied_, differ_, failed_);
        }
        return failed_ + differ_ == 0 ? 0 : 1;
    }

private:
    bool isRoot() const { return transport_.rank() == 0; }

    int fail(const std::string& message) const
    {
        if (isRoot())
        {
            std::cerr << "mpi-query: " << message << "\n";
        }
        return 1;
    }

    void openReference()
    {
        if (isRoot() && !options_.verify_against.empty())
        {
            if (!std::filesystem::is_directory(options_.verify_against))
            {
                throw Exception(ErrorCode::kCannotOpenFile,
                                "--verify-against: no directory " + options_.verify_against);
            }
            verifier_ = std::make_unique<Session>(Session::openDatabase(options_.verify_against));
        }
    }

    void runQuery(size_t q, const std::string& sql, Database& database)
    {
        std::optional<QueryResult> best;
        try
        {
            for (size_t run = 0; run < std::max<size_t>(1, options_.runs); ++run)
            {
                QueryResult result = runDistributed(sql, database, threads_, transport_);
                if (!best || result.elapsed_seconds < best->elapsed_seconds)
                {
                    best = std::move(result);
                }
            }
        }
        catch (const Exception& e)
        {
            ++failed_;
            if (isRoot())
            {
                std::cerr << fmt::format("mpi-query: query {} failed: {}\n", q + 1, e.what());
                report_.push_back({{"query", q + 1}, {"sql", sql}, {"error", e.what()}});
            }
            return;
        }
        if (!isRoot())
        {
            return;
        }
        writeResult(q, best->block);
        nlohmann::json record = {{"query", q + 1},
                                 {"sql", sql},
                                 {"seconds", best->elapsed_seconds},
                                 {"rows", best->block.rows()},
                                 {"threads", threads_},
                                 {"exchange", exchangeJson(best->stats.exchange)}};
        if (verifier_)
        {
            record["verify"] = verify(q, sql, best->block);
        }
        if (options_.stats)
        {
            std::cerr << fmt::format("query {} ({:.3f} s):\n{}", q + 1, best->elapsed_seconds,
                                     best->stats.toString());
        }
        report_.push_back(std::move(record));
    }

    void writeResult(size_t q, const Block& block) const
    {
        if (options_.out_dir.empty())
        {
            writeBlock(block, format_, std::cout);
            std::cout.flush();
            return;
        }
        std::filesystem::create_directories(options_.out_dir);
        std::ofstream out(std::filesystem::path(options_.out_dir) /
                          fmt::format("q{:02}.{}", q + 1, options_.format));
        writeBlock(block, format_, out);
    }

    /// Compares with the same query on one process over the unsharded table.
    std::string verify(size_t q, const std::string& sql, const Block& block)
    {
        QueryOptions query_options;
        query_options.threads = threads_;
        const clickbench::ResultTable expected =
            clickbench::resultTableOf(verifier_->execute(sql, query_options).block);
        const clickbench::ResultTable actual = clickbench::resultTableOf(block);
        const clickbench::Comparison comparison = clickbench::compareResults(
            actual, expected, clickbench::orderSpecOf(sql, actual.column_names));
        switch (comparison.outcome)
        {
            case clickbench::Comparison::Outcome::kEqual:
                ++equal_;
                break;
            case clickbench::Comparison::Outcome::kTiesAtLimit:
                ++tied_;
                break;
            case clickbench::Comparison::Outcome::kDiffers:
                ++differ_;
                std::cerr << fmt::format("mpi-query: query {} differs from one process: {}\n",
                                         q + 1, comparison.detail);
                break;
        }
        return std::string(clickbench::outcomeName(comparison.outcome));
    }

    const MpiQueryOptions& options_;
    MpiTransport& transport_;
    size_t threads_;
    OutputFormat format_;
    std::unique_ptr<Session> verifier_;
    nlohmann::json report_ = nlohmann::json::array();
    size_t equal_ = 0;
    size_t tied_ = 0;
    size_t differ_ = 0;
    size_t failed_ = 0;
};

std::function<int()> setupMpiQuery(CLI::App& app)
{
    auto options = std::make_shared<MpiQueryOptions>();
    app.add_option("--data", options->data_dir,
                   "Directory of the shards: rank r opens DIR/shard-r (granary gen-hits --shards)")
        ->required();
    app.add_option("-q,--query", options->queries, "A SELECT to run (repeatable)");
    app.add_option("--query-file", options->query_file,
                   "File of queries separated by ';' (default: the built-in suite)");
    app.add_option("--threads", options->threads, "Threads per rank (default: all)");
    app.add_option("--runs", options->runs, "Runs per query; the fastest is reported")
        ->capture_default_str();
    app.add_option("--format", options->format, "Output format of results")->capture_default_str();
    app.add_option("--out", options->out_dir, "Write results to DIR/qNN.FORMAT, not stdout");
    app.add_option("--verify-against", options->verify_against,
                   "An unsharded data directory: rank 0 compares each result with the same "
                   "query on one process (exit 1 if any differs)");
    app.add_option("--json", options->json,
                   "Per-query times and exchange figures of every rank, as JSON");
    app.add_flag("--stats", options->stats, "Print each query's statistics to stderr");
    app.add_option("--exchange-timeout", options->timeout_seconds,
                   "Seconds a rank waits in a collective before it stops the job")
        ->capture_default_str();
    return [options]
    {
        MpiTransport transport(std::chrono::duration<double>(options->timeout_seconds));
        return MpiQueryRunner(*options, transport).run();
    };
}

const CommandRegistrar kMpiQuery({"mpi-query",
                                  "Run SELECTs across the shards of an MPI job (mpirun -np N)",
                                  setupMpiQuery});

}  // namespace
}  // namespace granary::programs
