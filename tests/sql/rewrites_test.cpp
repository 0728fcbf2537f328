#include "engine/sql/rewrites.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/parser.h"
#include "tests/sql/expression_dump.h"

namespace granary::sql
{
namespace
{

std::string rewrittenItem(std::string_view item, const SumRewriteOptions& options = {})
{
    const SelectStatement select = parseSelect("SELECT " + std::string(item) + " FROM t");
    return dump(*rewriteSumOfColumnAndConstant(select, options).items.front().expression);
}

TEST(SqlSumRewrite, RewritesSumOfColumnAndConstant)
{
    EXPECT_EQ(rewrittenItem("sum(x + 3)"), "(+ (sum x) (* 3:UInt64 (count x)))");
    EXPECT_EQ(rewrittenItem("SUM(3 + x)"), "(+ (SUM x) (* 3:UInt64 (count x)))");
    EXPECT_EQ(rewrittenItem("sum(x - 3)"), "(- (sum x) (* 3:UInt64 (count x)))");
    EXPECT_EQ(rewrittenItem("sum(3 - x)"), "(- (* 3:UInt64 (count x)) (sum x))");
    EXPECT_EQ(rewrittenItem("sum(x + -2)"), "(+ (sum x) (* -2:Int64 (count x)))");
    EXPECT_EQ(rewrittenItem("sum(x + 0.5)"), "(+ (sum x) (* 0.5:Float64 (count x)))");
    EXPECT_EQ(rewrittenItem("sum(x + 1) / count(*)"),
              "(/ (+ (sum x) (* 1:UInt64 (count x))) (count *))");
    EXPECT_EQ(rewrittenItem("sumWithOverflow(x + 9223372036854775807)"),
              "(+ (sumWithOverflow x) (* 9223372036854775807:UInt64 (count x)))");
}

/// sum refuses an overflow that sumWithOverflow wraps: it is rewritten only where neither
/// form can overflow (|k| below 2^31, and a column the planner accepts as narrow enough).
TEST(SqlSumRewrite, CheckedSumsOnlyWithSmallShiftsAndAcceptedColumns)
{
    EXPECT_EQ(rewrittenItem("sum(x + 2147483647)"),
              "(+ (sum x) (* 2147483647:UInt64 (count x)))");
    EXPECT_EQ(rewrittenItem("sum(x - 2147483648)"), "(sum (- x 2147483648:UInt64))");
    EXPECT_EQ(rewrittenItem("sum(x + -2147483648)"), "(sum (+ x -2147483648:Int64))");
    const SumRewriteOptions narrow_only{[](std::string_view column, bool checked)
                                        { return !checked || column != "wide"; }};
    EXPECT_EQ(rewrittenItem("sum(wide + 1)", narrow_only), "(sum (+ wide 1:UInt64))");
    EXPECT_EQ(rewrittenItem("sumWithOverflow(wide + 1)", narrow_only),
              "(+ (sumWithOverflow wide) (* 1:UInt64 (count wide)))");
}

TEST(SqlSumRewrite, LeavesEverythingElseAlone)
{
    for (const std::string_view item :
         {"sum(DISTINCT x + 1)", "sum(x * 2)", "sum(x + y)", "sum(1 + 2)", "sum(f(x) + 1)",
          "sum(x + 'a')", "avg(x + 1)", "count(x + 1)", "sum(x)", "sum(-(x + 1))", "x + 1"})
    {
        const SelectStatement select = parseSelect("SELECT " + std::string(item) + " FROM t");
        const SelectStatement rewritten = rewriteSumOfColumnAndConstant(select);
        EXPECT_TRUE(rewritten == select) << item;
        EXPECT_EQ(rewritten.items[0].expression, select.items[0].expression) << item;
    }
}

TEST(SqlSumRewrite, ColumnPredicateRestrictsTheRewrite)
{
    const SumRewriteOptions integers_only{[](std::string_view column, bool)
                                          { return column != "f"; }};
    EXPECT_EQ(rewrittenItem("sum(i + 1)", integers_only), "(+ (sum i) (* 1:UInt64 (count i)))");
    EXPECT_EQ(rewrittenItem("sum(f + 1)", integers_only), "(sum (+ f 1:UInt64))");
}

TEST(SqlSumRewrite, KeepsResultNamesAndRewritesHavingAndOrderBy)
{
    const SelectStatement select = parseSelect(
        "SELECT a, sum(x + 1), sum(x - 2) AS s FROM t GROUP BY a HAVING sum(x + 3) > 0 "
        "ORDER BY sum(x - 4) DESC");
    const SelectStatement rewritten = rewriteSumOfColumnAndConstant(select);
    EXPECT_FALSE(rewritten.items[0].alias);
    EXPECT_EQ(rewritten.items[1].alias, "sum(x + 1)");
    EXPECT_EQ(rewritten.items[2].alias, "s");
    EXPECT_EQ(dump(*rewritten.having), "(> (+ (sum x) (* 3:UInt64 (count x))) 0:UInt64)");
    EXPECT_EQ(dump(*rewritten.order_by[0].expression), "(- (sum x) (* 4:UInt64 (count x)))");
    EXPECT_TRUE(rewritten.order_by[0].descending);
    EXPECT_EQ(countDistinctAggregates(select, "sum"), 4u);
    EXPECT_EQ(countDistinctAggregates(rewritten, "sum"), 1u);
    EXPECT_EQ(countDistinctAggregates(rewritten, "count"), 1u);

    // The rewritten statement is ordinary SQL: it formats and parses back unchanged.
    const std::string text = formatStatement(rewritten);
    EXPECT_TRUE(parseSelect(text) == rewritten) << text;
}

TEST(SqlSumRewrite, CreatedCallsAreSharedNodes)
{
    const SelectStatement rewritten = rewriteSumOfColumnAndConstant(
        parseSelect("SELECT sum(x + 1), sum(x + 2), sum(y + 1) FROM t"));
    const auto sum_of = [&](size_t item)
    { return rewritten.items[item].expression->as<BinaryOperation>()->left; };
    EXPECT_EQ(sum_of(0), sum_of(1));
    EXPECT_NE(sum_of(0), sum_of(2));
}

/// Two's-complement arithmetic on uint64_t: what Int64 sums do when they wrap around.
uint64_t literalBits(const Literal& literal)
{
    if (const auto* value = std::get_if<uint64_t>(&literal.value))
    {
        return *value;
    }
    return static_cast<uint64_t>(std::get<int64_t>(literal.value));
}

uint64_t apply(BinaryOperator op, uint64_t left, uint64_t right)
{
    switch (op)
    {
        case BinaryOperator::Plus:
            return left + right;
        case BinaryOperator::Minus:
            return left - right;
        case BinaryOperator::Multiply:
            return left * right;
        default:
            ADD_FAILURE() << "operator outside the evaluator";
            return 0;
    }
}

/// A row-level expression over the one column x.
uint64_t evaluateRow(const Expression& expression, int64_t x)
{
    if (const auto* literal = expression.as<Literal>())
    {
        return literalBits(*literal);
    }
    if (expression.as<ColumnRef>())
    {
        return static_cast<uint64_t>(x);
    }
    const auto& binary = std::get<BinaryOperation>(expression.node);
    return apply(binary.op, evaluateRow(*binary.left, x), evaluateRow(*binary.right, x));
}

/// An expression over aggregates (sum, count) of the rows.
uint64_t evaluateOverRows(const Expression& expression, const std::vector<int64_t>& rows)
{
    if (const auto* call = expression.as<FunctionCall>())
    {
        if (call->name == "count")
        {
            return rows.size();
        }
        uint64_t sum = 0;
        for (const int64_t x : rows)
        {
            sum += evaluateRow(*call->arguments.front(), x);
        }
        return sum;
    }
    if (const auto* literal = expression.as<Literal>())
    {
        return literalBits(*literal);
    }
    const auto& binary = std::get<BinaryOperation>(expression.node);
    return apply(binary.op, evaluateOverRows(*binary.left, rows),
                 evaluateOverRows(*binary.right, rows));
}

/// sumWithOverflow wraps: the rewrite is exact in wrap-around arithmetic at any k.
TEST(SqlSumRewrite, RewrittenSumsEqualTheOriginalsWithWrapAround)
{
    const SelectStatement select = parseSelect(
        "SELECT sumWithOverflow(x + 7), sumWithOverflow(-3 + x), "
        "sumWithOverflow(x - 9223372036854775807), sumWithOverflow(5 - x), "
        "sumWithOverflow(x + 18446744073709551615), sumWithOverflow(x - -9223372036854775808) "
        "FROM t");
    const SelectStatement rewritten = rewriteSumOfColumnAndConstant(select);
    ASSERT_EQ(countDistinctAggregates(rewritten, "sumWithOverflow"), 1u);

    std::mt19937_64 random(42);
    std::vector<int64_t> rows = {std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min(), -1, 0, 1};
    for (int i = 0; i < 1000; ++i)
    {
        rows.push_back(static_cast<int64_t>(random()));
    }
    for (size_t item = 0; item < select.items.size(); ++item)
    {
        EXPECT_EQ(evaluateOverRows(*rewritten.items[item].expression, rows),
                  evaluateOverRows(*select.items[item].expression, rows))
            << formatExpression(*select.items[item].expression);
    }
}

TEST(SqlAggregates, DistinctCallsByCanonicalKeyInFirstAppearanceOrder)
{
    const SelectStatement select = parseSelect(
        "SELECT COUNT(*), sum(a), SUM(a) + count(*), uniqExact(b), max(sum(c)), f(a) FROM t "
        "GROUP BY a HAVING count(DISTINCT b) > 1 ORDER BY Avg(a), min(a)");
    std::vector<std::string> keys;
    for (const AggregateCall& call : collectAggregates(select))
    {
        keys.push_back(call.key);
    }
    EXPECT_EQ(keys, (std::vector<std::string>{"count(*)", "sum(a)", "uniqexact(b)", "max(sum(c))",
                                              "count(DISTINCT b)", "avg(a)", "min(a)"}));
    EXPECT_EQ(countDistinctAggregates(select, "COUNT"), 2u);
    EXPECT_EQ(countDistinctAggregates(select, "sum"), 1u);
    EXPECT_TRUE(isAggregateCall(*parseExpression("AVG(x)")));
    EXPECT_FALSE(isAggregateCall(*parseExpression("length(x)")));
}

}  // namespace
}  // namespace granary::sql
