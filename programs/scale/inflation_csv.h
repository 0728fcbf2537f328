#pragma once

#include <istream>
#include <string_view>
#include <vector>

#include "programs/scale/inflation_row.h"

namespace granary::scale
{

/// Reads tools/work_inflation.sh's CSV. Columns are found by header name: suite, query, threads,
/// inflation and one_thread_ms are required, instructions, scheduler_instructions and sql are
/// read when present. Empty inflation or one_thread_ms fields are missing values. A missing
/// column, a malformed number or quote throws Exception(kCannotParseInput) naming `source` (the
/// file) and the line.
std::vector<InflationRow> readInflationCsv(std::istream& in, std::string_view source);

}  // namespace granary::scale
