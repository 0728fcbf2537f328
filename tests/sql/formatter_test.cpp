#include "engine/sql/formatter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "engine/sql/parser.h"
#include "tests/sql/expression_dump.h"

namespace granary::sql
{
namespace
{

/// Formats the parsed text, checks that the text parses back to an equal tree and that
/// formatting is idempotent, and returns the text.
std::string roundTripExpression(std::string_view text)
{
    const ExpressionPtr parsed = parseExpression(text);
    const std::string formatted = formatExpression(*parsed);
    const ExpressionPtr reparsed = parseExpression(formatted);
    EXPECT_TRUE(*parsed == *reparsed)
        << text << "\n  formatted: " << formatted << "\n  before: " << dump(*parsed)
        << "\n  after:  " << dump(*reparsed);
    EXPECT_EQ(formatExpression(*reparsed), formatted);
    return formatted;
}

std::string roundTripStatement(std::string_view text)
{
    const Statement parsed = parseStatement(text);
    const std::string formatted = formatStatement(parsed);
    const Statement reparsed = parseStatement(formatted);
    EXPECT_TRUE(parsed == reparsed) << text << "\n  formatted: " << formatted;
    EXPECT_EQ(formatStatement(reparsed), formatted);
    return formatted;
}

TEST(SqlFormatter, ParenthesesOnlyWherePrecedenceNeedsThem)
{
    EXPECT_EQ(roundTripExpression("(a + b) * c"), "(a + b) * c");
    EXPECT_EQ(roundTripExpression("a + (b * c)"), "a + b * c");
    EXPECT_EQ(roundTripExpression("a - (b - c)"), "a - (b - c)");
    EXPECT_EQ(roundTripExpression("(a - b) - c"), "a - b - c");
    EXPECT_EQ(roundTripExpression("a AND (b OR c)"), "a AND (b OR c)");
    EXPECT_EQ(roundTripExpression("(a AND b) OR c"), "a AND b OR c");
    EXPECT_EQ(roundTripExpression("NOT (a AND b)"), "NOT (a AND b)");
    EXPECT_EQ(roundTripExpression("(NOT a) = b"), "(NOT a) = b");
    EXPECT_EQ(roundTripExpression("a = (b = c)"), "a = (b = c)");
    EXPECT_EQ(roundTripExpression("(a IN (1, 2)) IN (true_column)"),
              "a IN (1, 2) IN (true_column)");
}

TEST(SqlFormatter, UnaryMinusNeverMergesIntoLiteralsOrComments)
{
    EXPECT_EQ(roundTripExpression("-1"), "-1");
    EXPECT_EQ(roundTripExpression("-(1)"), "-(1)");
    EXPECT_EQ(roundTripExpression("- -1"), "-(-1)");
    EXPECT_EQ(roundTripExpression("- - x"), "-(-x)");
    EXPECT_EQ(roundTripExpression("-(a + b)"), "-(a + b)");
    EXPECT_EQ(roundTripExpression("a - -1"), "a - -1");
    EXPECT_EQ(roundTripExpression("-9223372036854775809"), "-(9223372036854775809)");
    EXPECT_EQ(roundTripExpression("-f(x) * 2"), "-f(x) * 2");
}

TEST(SqlFormatter, LiteralsReadBackExactly)
{
    EXPECT_EQ(roundTripExpression("18446744073709551615"), "18446744073709551615");
    EXPECT_EQ(roundTripExpression("1.0"), "1.0");
    EXPECT_EQ(roundTripExpression("0.1"), "0.1");
    EXPECT_EQ(roundTripExpression("1e300"), "1e+300");
    EXPECT_EQ(roundTripExpression("-0.0"), "-0.0");
    EXPECT_EQ(roundTripExpression("2.5e-10"), "2.5e-10");
    EXPECT_EQ(roundTripExpression(R"('it''s \\ \n \x01 \1')"), R"('it\'s \\ \n \x01 \\1')");
    EXPECT_EQ(roundTripExpression(R"('^https?://(?:www\.)?([^/]+)/.*$')"),
              R"('^https?://(?:www\\.)?([^/]+)/.*$')");
}

TEST(SqlFormatter, IdentifiersAreQuotedOnlyWhenNeeded)
{
    EXPECT_EQ(formatIdentifier("URL"), "URL");
    EXPECT_EQ(formatIdentifier("_a1"), "_a1");
    EXPECT_EQ(formatIdentifier("from"), "`from`");
    EXPECT_EQ(formatIdentifier("1a"), "`1a`");
    EXPECT_EQ(formatIdentifier("a b"), "`a b`");
    EXPECT_EQ(formatIdentifier("a`b"), "`a\\`b`");
    EXPECT_EQ(roundTripExpression("`from` + \"we`ird\" + `select`(1)"),
              "`from` + `we\\`ird` + `select`(1)");
}

TEST(SqlFormatter, ExpressionForms)
{
    EXPECT_EQ(roundTripExpression("count(*)"), "count(*)");
    EXPECT_EQ(roundTripExpression("COUNT(distinct a, b)"), "COUNT(DISTINCT a, b)");
    EXPECT_EQ(roundTripExpression("x not in (-1, 6)"), "x NOT IN (-1, 6)");
    EXPECT_EQ(roundTripExpression("x not ilike 'a'"), "x NOT ILIKE 'a'");
    EXPECT_EQ(roundTripExpression("case when a then b when c then d else e end"),
              "CASE WHEN a THEN b WHEN c THEN d ELSE e END");
    EXPECT_EQ(roundTripExpression("case x when 1 then 2 end"), "CASE x WHEN 1 THEN 2 END");
    EXPECT_EQ(roundTripExpression("extract(minute from t)"), "extract(MINUTE FROM t)");
    EXPECT_EQ(roundTripExpression("extract(s, 'x')"), "extract(s, 'x')");
    EXPECT_EQ(roundTripExpression("quantile(0.9)(x)"), "quantile(0.9)(x)");
    EXPECT_EQ(roundTripExpression("quantile()(x + 1)"), "quantile()(x + 1)");
    EXPECT_EQ(roundTripExpression("count(*) filter (where a > 1)"),
              "count(*) FILTER (WHERE a > 1)");
    EXPECT_EQ(roundTripExpression("quantileIf(0.5)(x, c) FILTER (WHERE d)"),
              "quantileIf(0.5)(x, c) FILTER (WHERE d)");
}

TEST(SqlFormatter, Statements)
{
    EXPECT_EQ(roundTripStatement("select * from t"), "SELECT * FROM t");
    EXPECT_EQ(roundTripStatement("select a x, b as y from t where a > 1 group by 1, 2 having "
                                 "count(*) > 0 order by x desc, y asc limit 5, 10"),
              "SELECT a AS x, b AS y FROM t WHERE a > 1 GROUP BY 1, 2 HAVING count(*) > 0 "
              "ORDER BY x DESC, y LIMIT 10 OFFSET 5");
    EXPECT_EQ(roundTripStatement("SELECT 1 OFFSET 3"), "SELECT 1 OFFSET 3");
    EXPECT_EQ(roundTripStatement("create or replace table if not exists t (a int not null, b "
                                 "varchar(10) default 'x', primary key (a)) engine = "
                                 "ReplacingMergeTree(a) order by a settings s = 1.5, u = -2"),
              "CREATE OR REPLACE TABLE IF NOT EXISTS t (a Int32 NOT NULL, b String DEFAULT 'x', "
              "PRIMARY KEY (a)) ENGINE = ReplacingMergeTree(a) ORDER BY (a) SETTINGS s = 1.5, "
              "u = -2");
    EXPECT_EQ(roundTripStatement("insert into t (a, `b c`) from infile 'f.tsv' format TSV"),
              "INSERT INTO t (a, `b c`) FROM INFILE 'f.tsv' FORMAT TSV");
    EXPECT_EQ(roundTripStatement("insert into t format CSV"), "INSERT INTO t FORMAT CSV");
    EXPECT_EQ(roundTripStatement("drop table if exists t"), "DROP TABLE IF EXISTS t");
    EXPECT_EQ(roundTripStatement("show tables"), "SHOW TABLES");
    EXPECT_EQ(roundTripStatement("desc t"), "DESCRIBE TABLE t");
}

/// Builds random trees directly, including shapes the parser never makes (right-nested
/// chains, NOT under comparisons, negated literals), to check every parenthesisation rule.
class RandomTrees
{
public:
    explicit RandomTrees(uint64_t seed) : random_(seed) {}

    ExpressionPtr expression(size_t depth)
    {
        if (depth == 0 || below(4) == 0)
        {
            return leaf();
        }
        switch (below(7))
        {
            case 0:
                return call(depth);
            case 1:
                return makeExpression(UnaryOperation{
                    below(2) ? UnaryOperator::Not : UnaryOperator::Negate, expression(depth - 1)});
            case 2:
            {
                InList in{expression(depth - 1), {}, below(2) == 1};
                for (size_t i = 0, n = 1 + below(3); i < n; ++i)
                {
                    in.list.push_back(expression(depth - 1));
                }
                return makeExpression(std::move(in));
            }
            case 3:
            {
                CaseExpression case_expression;
                case_expression.operand = below(2) ? expression(depth - 1) : nullptr;
                for (size_t i = 0, n = 1 + below(2); i < n; ++i)
                {
                    case_expression.branches.push_back(
                        {expression(depth - 1), expression(depth - 1)});
                }
                case_expression.else_result = below(2) ? expression(depth - 1) : nullptr;
                return makeExpression(std::move(case_expression));
            }
            case 4:
                return makeExpression(
                    Extract{static_cast<DatePart>(below(8)), expression(depth - 1)});
            default:
                return makeExpression(BinaryOperation{static_cast<BinaryOperator>(below(17)),
                                                      expression(depth - 1),
                                                      expression(depth - 1)});
        }
    }

private:
    size_t below(size_t bound)
    {
        return std::uniform_int_distribution<size_t>(0, bound - 1)(random_);
    }

    std::string name()
    {
        static const std::vector<std::string> kNames = {"x",  "URL",    "from",    "Select", "a b",
                                                        "1a", "we`ird", "extract", "minute", "_"};
        return kNames[below(kNames.size())];
    }

    /// Literals as the parser types them: Int64 only for negative integers.
    ExpressionPtr leaf()
    {
        if (below(2) == 0)
        {
            return makeExpression(ColumnRef{name()});
        }
        return makeExpression(Literal{literalValue()});
    }

    LiteralValue literalValue()
    {
        switch (below(4))
        {
            case 0:
                return static_cast<uint64_t>(random_() >> below(64));
            case 1:
                return -1 - static_cast<int64_t>(random_() >> (1 + below(63)));
            case 2:
            {
                const double magnitude = std::ldexp(static_cast<double>(random_() >> 11),
                                                    static_cast<int>(below(200)) - 150);
                return below(2) ? magnitude : -magnitude;
            }
            default:
            {
                std::string bytes(below(6), '\0');
                for (char& c : bytes)
                {
                    c = static_cast<char>(below(256));
                }
                return bytes;
            }
        }
    }

    ExpressionPtr call(size_t depth)
    {
        FunctionCall function{name(), {}, false};
        if (below(6) == 0)
        {
            function.filter = expression(depth - 1);
        }
        if (below(5) == 0)
        {
            function.arguments.push_back(makeExpression(Asterisk{}));
            return makeExpression(std::move(function));
        }
        function.distinct = below(4) == 0;
        for (size_t i = 0, n = below(3) + (function.distinct ? 1 : 0); i < n; ++i)
        {
            function.arguments.push_back(expression(depth - 1));
        }
        function.parametric = below(5) == 0;
        for (size_t i = 0, n = function.parametric ? below(3) : 0; i < n; ++i)
        {
            function.parameters.push_back(expression(depth - 1));
        }
        return makeExpression(std::move(function));
    }

    std::mt19937_64 random_;
};

TEST(SqlFormatter, RandomTreesFormatToTextThatParsesBackToThem)
{
    constexpr size_t kTrees = 3000;
    constexpr size_t kMaxDepth = 6;
    constexpr uint64_t kSeed = 7;
    RandomTrees trees(kSeed);
    for (size_t i = 0; i < kTrees; ++i)
    {
        const ExpressionPtr tree = trees.expression(kMaxDepth);
        const std::string text = formatExpression(*tree);
        ExpressionPtr reparsed;
        ASSERT_NO_THROW(reparsed = parseExpression(text)) << text;
        ASSERT_TRUE(*reparsed == *tree)
            << text << "\n  built:    " << dump(*tree) << "\n  reparsed: " << dump(*reparsed);
    }
}

TEST(SqlFormatter, QueriesWithSubqueriesRoundTrip)
{
    EXPECT_EQ(roundTripStatement("with s as (select a from t) select distinct a from s"),
              "WITH s AS (SELECT a FROM t) SELECT DISTINCT a FROM s");
    EXPECT_EQ(roundTripStatement("SELECT a FROM (SELECT a FROM t) x WHERE a IN (SELECT b FROM u)"),
              "SELECT a FROM (SELECT a FROM t) AS x WHERE a IN (SELECT b FROM u)");
    EXPECT_EQ(roundTripStatement("SELECT (SELECT 1) + 1, a FROM t ORDER BY a LIMIT 1, 2 BY a "
                                 "LIMIT 3 UNION ALL SELECT 1, 2 OFFSET 4"),
              "SELECT (SELECT 1) + 1, a FROM t ORDER BY a LIMIT 2 OFFSET 1 BY a LIMIT 3 "
              "UNION ALL SELECT 1, 2 OFFSET 4");
    EXPECT_EQ(roundTripStatement("INSERT INTO t (a, b) VALUES (1, 'x'), (-2, 'y')"),
              "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, 'y')");
    EXPECT_EQ(roundTripStatement("insert into t (a) with q as (select 1 as x) select x from q "
                                 "union all select 2"),
              "INSERT INTO t (a) WITH q AS (SELECT 1 AS x) SELECT x FROM q UNION ALL SELECT 2");
}

TEST(SqlFormatter, GroupingSetsRoundTrip)
{
    EXPECT_EQ(roundTripStatement("SELECT a, b FROM t GROUP BY rollup(a, b)"),
              "SELECT a, b FROM t GROUP BY ROLLUP(a, b)");
    EXPECT_EQ(roundTripStatement("SELECT a FROM t GROUP BY a, b WITH CUBE WITH TOTALS"),
              "SELECT a FROM t GROUP BY CUBE(a, b) WITH TOTALS");
    EXPECT_EQ(roundTripStatement("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, ())"),
              "SELECT a FROM t GROUP BY GROUPING SETS ((a, b), (a), ())");
    EXPECT_EQ(roundTripStatement("SELECT a FROM t GROUP BY a WITH TOTALS"),
              "SELECT a FROM t GROUP BY a WITH TOTALS");
    const auto select = std::get<SelectStatement>(
        parseStatement("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), ())"));
    EXPECT_EQ(select.grouping, Grouping::kGroupingSets);
    ASSERT_EQ(select.grouping_sets.size(), 2u);
    EXPECT_EQ(select.grouping_sets[0].size(), 2u);
    EXPECT_TRUE(select.grouping_sets[1].empty());
    EXPECT_TRUE(select.group_by.empty());
}

TEST(SqlFormatter, Scripts)
{
    const std::vector<Statement> script = parseScript("SELECT 1; SHOW TABLES;");
    EXPECT_EQ(formatScript(script), "SELECT 1;\nSHOW TABLES");
}

}  // namespace
}  // namespace granary::sql
