#pragma once

#include <istream>
#include <ostream>
#include <vector>

#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// scaling.csv: a header, then one row per query and thread count (RFC 4180 quoting; numbers
/// in shortest round-trip form, so reading gives back the same values).
void writeScalingCsv(const std::vector<ScalingRow>& rows, std::ostream& out);

/// Columns are found by header name (unknown ones are ignored, missing ones keep defaults: a
/// file from before the median columns loads with medians 0, unknown); work_per_span and
/// work_per_median_span are computed from the other columns, so they are not read. A malformed
/// number or quote throws Exception(kCannotParseInput) naming line and column.
std::vector<ScalingRow> readScalingCsv(std::istream& in);

}  // namespace granary::scale
