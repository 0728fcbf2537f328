// The oracle checked on its own, against answers worked out by hand, so that an agreement
// between it and the engine means something.

#include "tests/planner/naive_evaluator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "engine/columns/block.h"
#include "engine/sql/parser.h"
#include "tests/planner/result_check.h"

namespace granary::oracle
{
namespace
{

RowTable smallTable()
{
    RowTable table;
    table.names = {"k", "s", "x", "d"};
    table.types = {TypeId::Int32, TypeId::String, TypeId::Int64, TypeId::Date};
    const int64_t july_first = daysFromCivil(2013, 7, 1);
    table.rows = {
        {int64_t{1}, std::string("apple"), int64_t{10}, DateValue{july_first}},
        {int64_t{2}, std::string("banana"), int64_t{20}, DateValue{july_first + 1}},
        {int64_t{1}, std::string("cherry"), int64_t{30}, DateValue{july_first + 2}},
        {int64_t{3}, std::string(""), int64_t{40}, DateValue{july_first + 40}},
    };
    return table;
}

NaiveResult run(std::string_view sql, const RowTable& table)
{
    return evaluateNaively(sql::parseSelect(sql), table);
}

std::vector<Row> valuesOf(const NaiveResult& result)
{
    std::vector<Row> rows;
    for (const KeyedRow& row : result.rows)
    {
        rows.push_back(row.values);
    }
    return rows;
}

TEST(NaiveEvaluator, LikeMatcher)
{
    EXPECT_TRUE(likeMatches("http://www.google.com/", "%google%", false));
    EXPECT_FALSE(likeMatches("http://www.Google.com/", "%google%", false));
    EXPECT_TRUE(likeMatches("http://www.Google.com/", "%google%", true));
    EXPECT_TRUE(likeMatches("abc", "a_c", false));
    EXPECT_FALSE(likeMatches("abbc", "a_c", false));
    EXPECT_TRUE(likeMatches("a%c", "a\\%c", false));
    EXPECT_FALSE(likeMatches("abc", "a\\%c", false));
    EXPECT_TRUE(likeMatches("", "%", false));
    EXPECT_TRUE(likeMatches("aaab", "%a%ab", false));
    EXPECT_FALSE(likeMatches("x.google.y", "%.google.%x", false));
}

TEST(NaiveEvaluator, GroupByWithHavingAndOrder)
{
    const NaiveResult result =
        run("SELECT k, COUNT(*) AS c, SUM(x), MIN(s), AVG(x) FROM t WHERE d >= '2013-07-01' AND "
            "d <= '2013-07-31' GROUP BY k HAVING COUNT(*) >= 1 ORDER BY c DESC, k",
            smallTable());
    const std::vector<Row> expected = {
        {int64_t{1}, uint64_t{2}, int64_t{40}, std::string("apple"), 20.0},
        {int64_t{2}, uint64_t{1}, int64_t{20}, std::string("banana"), 20.0},
    };
    EXPECT_EQ(valuesOf(result), expected);
    EXPECT_EQ(result.names[1], "c");
    EXPECT_EQ(result.names[2], "SUM(x)");
}

TEST(NaiveEvaluator, PositionsAliasesAndExpressions)
{
    const NaiveResult result =
        run("SELECT 1, k - 1 AS km, COUNT(DISTINCT s) FROM t GROUP BY 1, km ORDER BY 2 DESC",
            smallTable());
    const std::vector<Row> expected = {
        {uint64_t{1}, int64_t{2}, uint64_t{1}},
        {uint64_t{1}, int64_t{1}, uint64_t{1}},
        {uint64_t{1}, int64_t{0}, uint64_t{2}},
    };
    EXPECT_EQ(valuesOf(result), expected);
}

TEST(NaiveEvaluator, SumsWrapAroundLikeInt64)
{
    RowTable table;
    table.names = {"x"};
    table.types = {TypeId::Int64};
    const int64_t max = std::numeric_limits<int64_t>::max();
    table.rows = {{max}, {max}, {int64_t{3}}};
    const NaiveResult result = run("SELECT SUM(x), SUM(x + 1), AVG(x) FROM t", table);
    ASSERT_EQ(result.rows.size(), 1u);
    // max + max + 3 = 2^64 + 1 → 1; each max + 1 wraps to INT64_MIN: 2 · INT64_MIN + 4 → 4.
    EXPECT_EQ(result.rows[0].values[0], Value(int64_t{1}));
    EXPECT_EQ(result.rows[0].values[1], Value(int64_t{4}));
    EXPECT_DOUBLE_EQ(std::get<double>(result.rows[0].values[2]),
                     (2.0 * static_cast<double>(max) + 3) / 3);
}

TEST(NaiveEvaluator, RegexpReplaceAndDates)
{
    RowTable table;
    table.names = {"r", "t"};
    table.types = {TypeId::String, TypeId::DateTime};
    table.rows = {
        {std::string("https://www.example.com/a/b"), parseDateTimeText("2013-07-14 10:37:59")},
        {std::string("https://example.org"), parseDateTimeText("2013-07-14 23:59:00")}};
    const NaiveResult result =
        run("SELECT REGEXP_REPLACE(r, '^https?://(?:www\\.)?([^/]+)/.*$', '\\1'), "
            "extract(minute FROM t), DATE_TRUNC('minute', t) FROM t",
            table);
    const std::vector<Row> expected = {
        {std::string("example.com"), uint64_t{37}, parseDateTimeText("2013-07-14 10:37:00")},
        {std::string("https://example.org"), uint64_t{59},
         parseDateTimeText("2013-07-14 23:59:00")},
    };
    EXPECT_EQ(valuesOf(result), expected);
    EXPECT_EQ(formatDateTime(parseDateTimeText("2013-07-14 10:37:59")), "2013-07-14 10:37:59");
    EXPECT_EQ(daysFromCivil(1970, 1, 1), 0);
    EXPECT_EQ(daysFromCivil(2013, 7, 1), 15887);
}

/// The checker accepts any choice among rows tied at the LIMIT, and nothing else.
TEST(ResultCheck, TiesAtTheLimitAcceptAnyTiedRow)
{
    RowTable table;
    table.names = {"g", "v"};
    table.types = {TypeId::Int32, TypeId::Int32};
    table.rows = {{int64_t{1}, int64_t{0}}, {int64_t{1}, int64_t{0}}, {int64_t{2}, int64_t{0}},
                  {int64_t{3}, int64_t{0}}, {int64_t{4}, int64_t{0}}, {int64_t{4}, int64_t{0}}};
    const NaiveResult expected =
        run("SELECT g, COUNT(*) AS c FROM t GROUP BY g ORDER BY c DESC LIMIT 2", table);
    auto block_of = [](std::vector<std::pair<int32_t, uint64_t>> rows)
    {
        Column g(TypeId::Int32);
        Column c(TypeId::UInt64);
        for (const auto& [group, count] : rows)
        {
            g.append(group);
            c.append(count);
        }
        Block block;
        block.columns.push_back({"g", std::move(g)});
        block.columns.push_back({"c", std::move(c)});
        return block;
    };
    EXPECT_EQ(differenceFromOracle(block_of({{4, 2}, {1, 2}}), expected), "");
    EXPECT_EQ(differenceFromOracle(block_of({{1, 2}, {4, 2}}), expected), "");
    EXPECT_NE(differenceFromOracle(block_of({{1, 2}, {2, 1}}), expected), "");
    EXPECT_NE(differenceFromOracle(block_of({{1, 2}, {1, 2}}), expected), "");

    const NaiveResult cut =
        run("SELECT g, COUNT(*) AS c FROM t GROUP BY g ORDER BY c DESC LIMIT 1 OFFSET 2", table);
    EXPECT_EQ(differenceFromOracle(block_of({{3, 1}}), cut), "");
    EXPECT_EQ(differenceFromOracle(block_of({{2, 1}}), cut), "");
    EXPECT_NE(differenceFromOracle(block_of({{4, 2}}), cut), "");
}

}  // namespace
}  // namespace granary::oracle
