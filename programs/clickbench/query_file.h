#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace granary::clickbench
{

/// Splits a query file into queries: separated by ';' (outside quotes and comments), or, in
/// a file without any ';', one per line. Leading comments and surrounding blanks are trimmed;
/// pieces holding only comments are dropped.
std::vector<std::string> splitQueries(std::string_view text);

/// splitQueries of a file's text; throws Exception(kCannotOpenFile) naming the file.
std::vector<std::string> readQueryFile(const std::filesystem::path& path);

/// The DuckDB dialect twin of a query file, if one lies next to it: for
/// ".../clickhouse-queries.sql", ".../duckdb-queries.sql"; for ".../x.sql", ".../x.duckdb.sql".
/// Empty when there is none.
std::filesystem::path duckDbTwinOf(const std::filesystem::path& queries);

/// Granary's own suite (bench/clickbench/default-queries.sql, built into the program).
std::string_view defaultQueries();

}  // namespace granary::clickbench
