#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace granary::scale
{

/// One row of tools/work_inflation.sh's CSV: one query of one suite at one thread count, its
/// instructions under callgrind and their ratio to the query's first (1-thread) count.
struct InflationRow
{
    std::string suite;
    std::string query;
    size_t threads = 0;
    int64_t instructions = 0;            ///< Outside oneTBB, less `SELECT 1`'s.
    int64_t scheduler_instructions = 0;  ///< oneTBB's own: its idle workers' spinning.
    std::optional<double> inflation;     ///< Missing when the 1-thread count is.
    std::optional<double> one_thread_ms;
    std::string sql;
};

/// Whether the row has a ratio a geometric mean can take: present, finite and positive.
bool hasInflation(const InflationRow& row);

/// The rows of one suite, in the order they were read.
struct InflationSuite
{
    std::string name;
    std::vector<InflationRow> rows;
};

/// Rows grouped by suite, suites in order of first appearance: queries are numbered within
/// their suite, so Q3 of one suite and Q3 of another are different queries.
std::vector<InflationSuite> splitBySuite(const std::vector<InflationRow>& rows);

/// The query names of `rows` in order of first appearance.
std::vector<std::string> queriesOf(const std::vector<InflationRow>& rows);

}  // namespace granary::scale
