// `granary local`: SQL over a data directory (or over one ad-hoc file) without a server.
#include <editline/readline.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "engine/common/exception.h"
#include "engine/formats/output_format.h"
#include "engine/observe/query_profiler.h"
#include "engine/session/session.h"
#include "engine/sql/formatter.h"
#include "engine/sql/statement_splitter.h"
#include "engine/storage/database.h"
#include "programs/command_registry.h"
#include "programs/setting_option.h"

namespace granary::programs
{
namespace
{

struct LocalOptions
{
    std::string data_dir;
    std::string query;
    std::string query_file;
    std::string file;
    std::string structure;
    std::string table = "table";
    std::string input_format = "TSV";
    std::string format;
    size_t threads = 0;
    size_t max_memory_usage = 0;
    bool time = false;
    bool stats = false;
    std::string profile_folded;
    /// Query settings by name (`--setting max_threads=4`), as the native protocol sends them.
    std::map<std::string, std::string, std::less<>> settings;
};

class LocalShell
{
public:
    explicit LocalShell(const LocalOptions& options)
        : options_(options),
          session_(options.data_dir.empty() ? Database::openInMemory()
                                            : Session::openDatabase(options.data_dir)),
          format_(outputFormatFromName(options.format.empty()
                                           ? (isatty(STDOUT_FILENO) ? "PrettyCompact" : "TSV")
                                           : options.format))
    {
    }

    /// Makes `--file` with `--structure` a table of the in-memory database.
    void attachFile()
    {
        if (options_.file.empty())
        {
            return;
        }
        if (options_.structure.empty())
        {
            throw Exception(ErrorCode::kBadArguments, "--file needs --structure");
        }
        const std::string table = sql::formatIdentifier(options_.table);
        run("CREATE TABLE " + table + " (" + options_.structure + ") ENGINE = Memory", false);
        run("INSERT INTO " + table + " FROM INFILE " + sql::formatStringLiteral(options_.file) +
                " FORMAT " + options_.input_format,
            false);
    }

    /// Runs every statement of `script`; stops at the first error, which it rethrows.
    void runScript(std::string_view script)
    {
        for (std::string_view statement : sql::splitStatements(script))
        {
            run(statement, true);
        }
    }

    int interactive()
    {
        const char* home = std::getenv("HOME");
        const std::string history =
            home ? (std::filesystem::path(home) / ".granary_history").string() : "";
        if (!history.empty())
        {
            read_history(history.c_str());
        }
        std::string pending;
        while (char* raw = readline(pending.empty() ? "granary :) " : "        :-] "))
        {
            std::string line(raw);
            std::free(raw);
            if (pending.empty() && (line == "exit" || line == "quit" || line == "\\q"))
            {
                break;
            }
            pending += pending.empty() ? line : "\n" + line;
            const size_t last = pending.find_last_not_of(" \t\r\n");
            if (last == std::string::npos || pending[last] != ';')
            {
                continue;
            }
            add_history(pending.c_str());
            try
            {
                runScript(pending);
            }
            catch (const Exception& error)
            {
                std::cerr << "Error " << static_cast<int>(error.code()) << " ("
                          << errorCodeName(error.code()) << "): " << error.what() << "\n";
            }
            pending.clear();
        }
        if (!history.empty())
        {
            write_history(history.c_str());
        }
        return 0;
    }

private:
    void run(std::string_view statement, bool print)
    {
        QueryOptions query;
        query.threads = options_.threads;
        query.memory_limit_bytes = options_.max_memory_usage;
        query.settings = options_.settings;
        query.insert_data = &std::cin;
        std::optional<QueryProfiler> profiler;
        if (!options_.profile_folded.empty())
        {
            query.profiler = &profiler.emplace();
        }
        const QueryResult result = session_.execute(statement, query);
        if (profiler && profiler->sampleCount() > 0)
        {
            profiler->writeFoldedStacks(options_.profile_folded);
        }
        if (print && !result.block.columns.empty())
        {
            writeBlock(result.block, format_, std::cout, {},
                       result.totals ? &*result.totals : nullptr);
            std::cout.flush();
        }
        if (options_.time)
        {
            const double seconds = std::max(result.elapsed_seconds, 1e-9);
            std::cerr << fmt::format(
                "Elapsed: {:.3f} sec. Processed {} rows, {:.2f} MB ({:.2f} million rows/s., "
                "{:.2f} MB/s.)\n",
                result.elapsed_seconds, result.rows_read + result.rows_written,
                result.bytes_read / 1e6, (result.rows_read + result.rows_written) / seconds / 1e6,
                result.bytes_read / seconds / 1e6);
        }
        if (options_.stats)
        {
            std::cerr << result.stats.toString();
        }
    }

    const LocalOptions& options_;
    Session session_;
    OutputFormat format_;
};

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot open query file " + path);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::function<int()> setupLocal(CLI::App& app)
{
    auto options = std::make_shared<LocalOptions>();
    app.add_option("--data", options->data_dir,
                   "Data directory (created if missing); without it, an in-memory database");
    app.add_option("-q,--query", options->query, "SQL to run (statements separated by ';')");
    app.add_option("--query-file", options->query_file, "File of SQL statements to run");
    app.add_option("--file", options->file, "A TSV/CSV file to query as a table");
    app.add_option("--structure", options->structure,
                   "Columns of --file, e.g. \"a UInt32, b String\"");
    app.add_option("--table", options->table, "Table name for --file")->capture_default_str();
    app.add_option("--input-format", options->input_format, "Format of --file (TSV, CSV...)")
        ->capture_default_str();
    app.add_option("--format", options->format,
                   "Output: PrettyCompact (default on a terminal), TSV, CSV, JSONEachRow");
    app.add_option("--threads", options->threads, "Threads per query (default: all)");
    app.add_option("--max-memory-usage", options->max_memory_usage,
                   "Per-query memory limit in bytes (0: none)");
    app.add_flag("--time", options->time, "Print elapsed time and rows/s to stderr");
    app.add_option("--profile-folded", options->profile_folded,
                   "Sample the query's threads every 10 ms of CPU time and write folded stacks "
                   "(flamegraph.pl input) of the last statement that took samples to this file");
    addSettingOption(app, options->settings);
    app.add_flag("--stats", options->stats,
                 "Print query statistics (phases, work/span, ProfileEvents) to stderr");
    return [options]
    {
        LocalShell shell(*options);
        shell.attachFile();
        if (!options->query.empty())
        {
            shell.runScript(options->query);
        }
        else if (!options->query_file.empty())
        {
            shell.runScript(readFile(options->query_file));
        }
        else if (isatty(STDIN_FILENO))
        {
            return shell.interactive();
        }
        else
        {
            std::ostringstream script;
            script << std::cin.rdbuf();
            shell.runScript(script.str());
        }
        return 0;
    };
}

const CommandRegistrar kLocal({"local", "Run SQL over a data directory or a file", setupLocal});

}  // namespace
}  // namespace granary::programs
