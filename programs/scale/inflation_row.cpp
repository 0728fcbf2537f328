#include "programs/scale/inflation_row.h"

#include <algorithm>
#include <cmath>

namespace granary::scale
{

bool hasInflation(const InflationRow& row)
{
    return row.inflation && std::isfinite(*row.inflation) && *row.inflation > 0;
}

std::vector<InflationSuite> splitBySuite(const std::vector<InflationRow>& rows)
{
    std::vector<InflationSuite> suites;
    for (const InflationRow& row : rows)
    {
        auto suite = std::find_if(suites.begin(), suites.end(),
                                  [&](const InflationSuite& s) { return s.name == row.suite; });
        if (suite == suites.end())
        {
            suite = suites.insert(suites.end(), InflationSuite{row.suite, {}});
        }
        suite->rows.push_back(row);
    }
    return suites;
}

std::vector<std::string> queriesOf(const std::vector<InflationRow>& rows)
{
    std::vector<std::string> queries;
    for (const InflationRow& row : rows)
    {
        if (std::find(queries.begin(), queries.end(), row.query) == queries.end())
        {
            queries.push_back(row.query);
        }
    }
    return queries;
}

}  // namespace granary::scale
