#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "programs/scale/inflation_curve.h"
#include "programs/scale/inflation_row.h"

namespace granary::scale
{

/// `sql` with every run of whitespace made one space, without leading or trailing whitespace or
/// a final ';'. tools/work_inflation.sh prints each query on one line and names it within its
/// own suite, so a scaling row and an inflation row are the same query when their normalized
/// SQL is the same.
std::string normalizedSql(std::string_view sql);

/// Where an inflation CSV measured one query.
struct InflationQuery
{
    std::string suite;
    std::string query;
    InflationCurve curve;
};

/// The queries of an inflation CSV by normalized SQL, those with SQL and an inflation above 1
/// thread (a query whose runs all failed there matches nothing). The same SQL in two suites is
/// one query: its first suite's rows are kept.
std::map<std::string, InflationQuery> inflationBySql(const std::vector<InflationRow>& rows);

}  // namespace granary::scale
