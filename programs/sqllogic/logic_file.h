#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace granary::sqllogic
{

/// One record of a SQL logic test file (the sqllogictest layout, cut to what Granary needs):
///
///     # comments and conditions come first
///     onlyif granary
///     statement ok | statement error CODE [message part] | query [nosort|rowsort]
///     SQL, one or more lines
///     ----                  (queries only; --generate adds it and the rows)
///     expected rows, TSV as `granary local --format TSV` prints them
///     [totals: WITH TOTALS' row]
///
/// and a blank line ends it. `onlyif granary` marks a record DuckDB does not run: ClickHouse
/// semantics that DuckDB does not share (its expectations are written by hand, with a
/// comment saying why) or Granary-only syntax. Error records are Granary's alone.
struct Record
{
    enum class Kind
    {
        kStatementOk,
        kStatementError,
        kQuery,
    };

    size_t line = 0;                    ///< Of the record's kind line, for messages.
    std::vector<std::string> preamble;  ///< Comment lines before it, kept when rewriting.
    bool granary_only = false;
    Kind kind = Kind::kStatementOk;
    int error_code = 0;
    std::string error_text;  ///< Must occur in the error message; empty: any message.
    bool row_sort = false;   ///< rowsort: rows compare as sorted text lines.
    std::string sql;
    /// False for a query written without `----` and rows: --generate fills them in, and a
    /// run reports the record until then.
    bool has_expected = false;
    std::vector<std::string> expected;
};

struct LogicFile
{
    std::filesystem::path path;
    std::vector<Record> records;
    std::vector<std::string> trailing;  ///< Comment lines after the last record.
};

/// Throws std::runtime_error naming the file and line of a malformed record.
LogicFile parseLogicFile(std::string_view text, const std::filesystem::path& path);
LogicFile readLogicFile(const std::filesystem::path& path);
/// The file's text: parseLogicFile(formatLogicFile(f)) gives f back.
std::string formatLogicFile(const LogicFile& file);

/// How an empty value is written in expected rows: a blank line would end the record, and an
/// empty field at the end of a line would be invisible.
inline constexpr std::string_view kEmptyField = "(empty)";

/// Marks WITH TOTALS' row, written after the rows as `totals: ` and its TSV line (rowsort
/// leaves it last).
inline constexpr std::string_view kTotalsPrefix = "totals: ";

/// The rows of `tsv` (one per line, each empty field as kEmptyField), sorted when `row_sort`,
/// then those of `totals_tsv` with kTotalsPrefix: what a query record compares.
std::vector<std::string> resultLines(std::string_view tsv, bool row_sort,
                                     std::string_view totals_tsv = {});
/// Expected lines as resultLines gives them: sorted when `row_sort`, totals last.
void sortExpectedLines(std::vector<std::string>& lines, bool row_sort);

}  // namespace granary::sqllogic
