#include "programs/scale/inflation_match.h"

#include <cctype>

namespace granary::scale
{

namespace
{

std::vector<InflationRow> rowsOfQuery(const InflationSuite& suite, const std::string& query)
{
    std::vector<InflationRow> rows;
    for (const InflationRow& row : suite.rows)
    {
        if (row.query == query)
        {
            rows.push_back(row);
        }
    }
    return rows;
}

}  // namespace

std::string normalizedSql(std::string_view sql)
{
    std::string normalized;
    bool after_space = false;
    for (const char ch : sql)
    {
        if (std::isspace(static_cast<unsigned char>(ch)))
        {
            after_space = !normalized.empty();
            continue;
        }
        if (after_space)
        {
            normalized += ' ';
            after_space = false;
        }
        normalized += ch;
    }
    while (!normalized.empty() && (normalized.back() == ';' || normalized.back() == ' '))
    {
        normalized.pop_back();
    }
    return normalized;
}

std::map<std::string, InflationQuery> inflationBySql(const std::vector<InflationRow>& rows)
{
    std::map<std::string, InflationQuery> by_sql;
    for (const InflationSuite& suite : splitBySuite(rows))
    {
        for (const std::string& query : queriesOf(suite.rows))
        {
            const std::vector<InflationRow> query_rows = rowsOfQuery(suite, query);
            InflationQuery measured{suite.name, query, inflationCurveOf(query_rows)};
            const std::string sql = normalizedSql(query_rows.front().sql);
            if (!sql.empty() && !measured.curve.points.empty())
            {
                by_sql.try_emplace(sql, std::move(measured));
            }
        }
    }
    return by_sql;
}

}  // namespace granary::scale
