#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "programs/scale/inflation_row.h"

namespace granary::scale
{

struct InflationReport
{
    std::string table;  ///< The summary for the console (inflationSummaryTable).
    std::vector<std::filesystem::path> files;
};

/// Writes into `out_dir` (created if missing) inflation_summary.csv and, per suite,
/// inflation_<suite>.svg: suites number their queries apart, so their lines share no chart.
/// Throws Exception(kCannotOpenFile) naming a file it cannot write.
InflationReport writeInflationReport(const std::filesystem::path& out_dir,
                                     const std::vector<InflationRow>& rows);

}  // namespace granary::scale
