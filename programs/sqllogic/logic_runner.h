#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "programs/clickbench/duckdb_client.h"
#include "programs/sqllogic/logic_file.h"

namespace granary::sqllogic
{

struct Failure
{
    size_t line = 0;  ///< The record's kind line.
    std::string message;
};

/// Runs the records of `file` in order on a fresh in-memory Granary database, every statement
/// on `threads` threads, and returns where results or errors differ from the expected ones.
std::vector<Failure> runOnGranary(const LogicFile& file, size_t threads);

/// Fills the expected rows of every query record DuckDB runs (not `onlyif granary`) with
/// DuckDB's answer, written as Granary's TSV writes the same values; statement records run
/// too (error records do not). Returns the records DuckDB refused, with its message.
std::vector<Failure> fillExpectedFromDuckDb(LogicFile& file, clickbench::DuckDbClient& duckdb);

/// "file:line: message" for each failure, one per line.
std::string describeFailures(const LogicFile& file, const std::vector<Failure>& failures);

}  // namespace granary::sqllogic
