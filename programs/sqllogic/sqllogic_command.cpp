// `granary sqllogic`: runs SQL logic test files (tests/sql/logic/*.test) on Granary, and with
// --generate first fills their expected rows from DuckDB (the developer's step; the files
// with DuckDB's answers are committed, and CI runs them on Granary alone).
#include <fstream>
#include <iostream>

#include "engine/common/exception.h"
#include "programs/clickbench/duckdb_api.h"
#include "programs/command_registry.h"
#include "programs/sqllogic/logic_runner.h"

namespace granary::programs
{
namespace
{

struct SqlLogicOptions
{
    std::vector<std::filesystem::path> files;
    size_t threads = 2;
    bool generate = false;
    std::filesystem::path duckdb_library;
};

/// Rewrites `file` with DuckDB's answers; false when DuckDB refused a record.
bool generateExpected(sqllogic::LogicFile& file, const clickbench::DuckDbApi& api)
{
    clickbench::DuckDbClient duckdb(api);
    const std::vector<sqllogic::Failure> refused = sqllogic::fillExpectedFromDuckDb(file, duckdb);
    std::cerr << sqllogic::describeFailures(file, refused);
    std::ofstream(file.path) << sqllogic::formatLogicFile(file);
    return refused.empty();
}

int runSqlLogic(const SqlLogicOptions& options)
{
    std::optional<clickbench::DuckDbApi> api;
    if (options.generate)
    {
        const std::filesystem::path library = options.duckdb_library.empty()
                                                  ? clickbench::DuckDbApi::findLibrary()
                                                  : options.duckdb_library;
        if (library.empty())
        {
            throw Exception(ErrorCode::kCannotOpenFile,
                            "libduckdb.so not found: run tools/install_duckdb.sh, or name it "
                            "with --duckdb-lib or GRANARY_DUCKDB_LIB");
        }
        api = clickbench::DuckDbApi::load(library);
    }
    size_t records = 0;
    size_t failed = 0;
    for (const std::filesystem::path& path : options.files)
    {
        sqllogic::LogicFile file = sqllogic::readLogicFile(path);
        if (api && !generateExpected(file, *api))
        {
            ++failed;
        }
        const std::vector<sqllogic::Failure> failures =
            sqllogic::runOnGranary(file, options.threads);
        std::cout << sqllogic::describeFailures(file, failures);
        records += file.records.size();
        failed += failures.size();
    }
    std::cout << records << " records in " << options.files.size() << " files, " << failed
              << " failed\n";
    return failed == 0 ? 0 : 1;
}

std::function<int()> setupSqlLogic(CLI::App& app)
{
    auto options = std::make_shared<SqlLogicOptions>();
    app.add_option("files", options->files, "SQL logic test files (.test)")
        ->required()
        ->check(CLI::ExistingFile);
    app.add_option("--threads", options->threads, "Threads per statement")->capture_default_str();
    app.add_flag("--generate", options->generate,
                 "First write DuckDB's answers into the files' query records (not those marked "
                 "'onlyif granary')");
    app.add_option("--duckdb-lib", options->duckdb_library,
                   "libduckdb.so for --generate (default: tools/install_duckdb.sh's)");
    return [options] { return runSqlLogic(*options); };
}

const CommandRegistrar kSqlLogic({"sqllogic",
                                  "Run SQL logic test files; --generate fills their expected "
                                  "rows from DuckDB first",
                                  setupSqlLogic});

}  // namespace
}  // namespace granary::programs
