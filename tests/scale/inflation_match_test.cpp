#include "programs/scale/inflation_match.h"

#include <gtest/gtest.h>

namespace granary::scale
{
namespace
{

InflationRow rowOf(const std::string& suite, const std::string& query, size_t threads,
                   std::optional<double> inflation, const std::string& sql)
{
    InflationRow row;
    row.suite = suite;
    row.query = query;
    row.threads = threads;
    row.inflation = inflation;
    row.sql = sql;
    return row;
}

TEST(InflationMatch, NormalizesWhitespaceAndAFinalSemicolon)
{
    EXPECT_EQ(normalizedSql("  SELECT RegionID,\n\tcount(*)   FROM hits\r\n GROUP BY RegionID ;\n"),
              "SELECT RegionID, count(*) FROM hits GROUP BY RegionID");
    EXPECT_EQ(normalizedSql("SELECT 1"), "SELECT 1");
    EXPECT_EQ(normalizedSql(" \n "), "");
}

TEST(InflationMatch, FindsAQueryByItsSqlWhateverItsWhitespace)
{
    const std::vector<InflationRow> rows = {
        rowOf("default", "Q3", 1, 1.0, "SELECT count(*) FROM hits"),
        rowOf("default", "Q3", 16, 1.25, "SELECT count(*) FROM hits"),
        rowOf("default", "Q4", 1, 1.0, "SELECT  UserID\nFROM hits"),
        rowOf("default", "Q4", 16, std::nullopt, "SELECT  UserID\nFROM hits"),
        rowOf("official", "Q0", 1, 1.0, "SELECT count(*) FROM hits"),
        rowOf("official", "Q0", 16, 2.0, "SELECT count(*) FROM hits"),
    };
    const std::map<std::string, InflationQuery> by_sql = inflationBySql(rows);
    const auto found = by_sql.find(normalizedSql("SELECT count(*)\n    FROM hits;"));
    ASSERT_NE(found, by_sql.end());
    // The same SQL in both suites: the first suite's measurement.
    EXPECT_EQ(found->second.suite, "default");
    EXPECT_EQ(found->second.query, "Q3");
    EXPECT_EQ(found->second.curve.at(16), 1.25);
    // Q4 has no inflation above 1 thread: nothing to predict with.
    EXPECT_EQ(by_sql.count("SELECT UserID FROM hits"), 0u);
    EXPECT_EQ(by_sql.size(), 1u);
}

}  // namespace
}  // namespace granary::scale
