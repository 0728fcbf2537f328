#pragma once

#include <vector>

#include "programs/scale/inflation_row.h"
#include "programs/scale/inflation_summary.h"
#include "programs/scale/line_chart.h"

namespace granary::scale
{

/// More queries than this make the legend unreadable: only the worst are labelled.
inline constexpr size_t kLabelledQueries = 10;

/// One suite's work inflation against threads (log2 axis): a line per query, or, past
/// kLabelledQueries queries, the worst at their largest thread count coloured and labelled and
/// the rest thin and grey; the geometric mean (from `summary`'s rows of the suite) as a thick
/// black line; the two targets as dashed horizontal lines.
LineChart inflationChart(const InflationSuite& suite,
                         const std::vector<InflationSummaryRow>& summary);

}  // namespace granary::scale
