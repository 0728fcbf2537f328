#include "programs/clickbench/result_comparison.h"

#include <gtest/gtest.h>

#include "engine/common/exception.h"

namespace granary::clickbench
{
namespace
{

using Outcome = Comparison::Outcome;

Value integer(int64_t value)
{
    return Value::ofInteger(value);
}
Value real(double value)
{
    return Value::ofFloat(value);
}
Value text(std::string value)
{
    return Value::ofString(std::move(value));
}

ResultTable table(std::vector<std::vector<Value>> rows)
{
    ResultTable result;
    const size_t columns = rows.empty() ? 1 : rows.front().size();
    for (size_t column = 0; column < columns; ++column)
    {
        result.column_names.push_back("c" + std::to_string(column));
    }
    result.rows = std::move(rows);
    return result;
}

OrderSpec unordered(bool limited = false)
{
    return OrderSpec{false, {}, false, limited};
}

OrderSpec orderedBy(std::vector<size_t> keys, bool limited = false)
{
    return OrderSpec{true, std::move(keys), true, limited};
}

TEST(ValuesEqual, FloatsWithinRelativeToleranceIntegersExactly)
{
    EXPECT_TRUE(valuesEqual(real(1.0), real(1.0 + 1e-12)));
    EXPECT_TRUE(valuesEqual(real(1e20), real(1e20 * (1 + 5e-10))));
    EXPECT_FALSE(valuesEqual(real(1.0), real(1.0 + 1e-6)));
    EXPECT_TRUE(valuesEqual(integer(3), real(3.0)));
    EXPECT_FALSE(valuesEqual(integer(3), integer(4)));
    EXPECT_TRUE(valuesEqual(Value::ofInteger(static_cast<__int128>(1) << 100),
                            Value::ofInteger(static_cast<__int128>(1) << 100)));
    EXPECT_FALSE(valuesEqual(text("3"), integer(3)));
    EXPECT_TRUE(valuesEqual(Value::null(), Value::null()));
    EXPECT_FALSE(valuesEqual(Value::null(), integer(0)));
}

TEST(ValuesEqual, DateEqualsMidnightTimestamp)
{
    // 2013-07-15 is day 15901 since 1970-01-01.
    EXPECT_TRUE(valuesEqual(Value::ofDate(15901), Value::ofTimestamp(15901LL * 86400 * 1000000)));
    EXPECT_FALSE(
        valuesEqual(Value::ofDate(15901), Value::ofTimestamp(15901LL * 86400 * 1000000 + 1)));
    EXPECT_EQ(formatValue(Value::ofDate(15901)), "2013-07-15");
    EXPECT_EQ(formatValue(Value::ofTimestamp((15901LL * 86400 + 3600 + 61) * 1000000)),
              "2013-07-15 01:01:01");
}

TEST(CompareResults, UnorderedRowsMatchAsMultisets)
{
    const auto expected =
        table({{text("a"), integer(1)}, {text("b"), integer(2)}, {text("b"), integer(2)}});
    const auto permuted =
        table({{text("b"), integer(2)}, {text("a"), integer(1)}, {text("b"), integer(2)}});
    EXPECT_EQ(compareResults(permuted, expected, unordered()).outcome, Outcome::kEqual);

    const auto other_multiset =
        table({{text("a"), integer(1)}, {text("a"), integer(1)}, {text("b"), integer(2)}});
    const Comparison differs = compareResults(other_multiset, expected, unordered());
    EXPECT_EQ(differs.outcome, Outcome::kDiffers);
    EXPECT_NE(differs.detail.find("'a'"), std::string::npos) << differs.detail;
}

TEST(CompareResults, ShapeMismatchesDiffer)
{
    const auto expected = table({{integer(1), integer(2)}});
    EXPECT_EQ(compareResults(table({{integer(1)}}), expected, unordered()).outcome,
              Outcome::kDiffers);
    EXPECT_EQ(compareResults(table({{integer(1), integer(2)}, {integer(1), integer(2)}}), expected,
                             unordered())
                  .outcome,
              Outcome::kDiffers);
}

TEST(CompareResults, FloatColumnsCompareWithTolerance)
{
    const auto expected = table({{text("x"), real(0.1 + 0.2)}});
    EXPECT_EQ(compareResults(table({{text("x"), real(0.3)}}), expected, unordered()).outcome,
              Outcome::kEqual);
    EXPECT_EQ(compareResults(table({{text("x"), real(0.31)}}), expected, unordered()).outcome,
              Outcome::kDiffers);
}

TEST(CompareResults, AToleranceCommentWidensTheComparisonOfEveryNumber)
{
    const std::string sql = "SELECT /* tolerance: 0.02 */ k, uniq(x) FROM t GROUP BY k ORDER BY k";
    const OrderSpec spec = orderSpecOf(sql, {"k", "uniq(x)"});
    EXPECT_DOUBLE_EQ(spec.tolerance, 0.02);
    EXPECT_DOUBLE_EQ(orderSpecOf("SELECT 1", {"1"}).tolerance, kFloatTolerance);
    const auto expected = table({{integer(1), integer(1000)}, {integer(2), integer(2000)}});
    EXPECT_EQ(compareResults(table({{integer(1), integer(1015)}, {integer(2), integer(1970)}}),
                             expected, spec)
                  .outcome,
              Outcome::kEqual);
    EXPECT_EQ(compareResults(table({{integer(1), integer(1030)}, {integer(2), integer(2000)}}),
                             expected, spec)
                  .outcome,
              Outcome::kDiffers);
    // Without the comment integers compare exactly.
    EXPECT_EQ(compareResults(table({{integer(1), integer(1001)}, {integer(2), integer(2000)}}),
                             expected, orderSpecOf("SELECT k, c FROM t ORDER BY k", {"k", "c"}))
                  .outcome,
              Outcome::kDiffers);
    EXPECT_THROW(orderSpecOf("SELECT /* tolerance: lots */ 1", {"1"}), granary::Exception);
}

TEST(CompareResults, OrderMattersUnderOrderBy)
{
    const auto expected = table({{text("a"), integer(3)}, {text("b"), integer(2)}});
    const auto swapped = table({{text("b"), integer(2)}, {text("a"), integer(3)}});
    EXPECT_EQ(compareResults(swapped, expected, unordered()).outcome, Outcome::kEqual);
    const Comparison ordered = compareResults(swapped, expected, orderedBy({1}));
    EXPECT_EQ(ordered.outcome, Outcome::kDiffers);
    EXPECT_NE(ordered.detail.find("row 1"), std::string::npos) << ordered.detail;
}

TEST(CompareResults, RowsTiedOnTheKeysMayComeInAnyOrder)
{
    // ORDER BY c DESC: "b" and "c" tie on 2 in the middle of the result.
    const auto expected = table({{text("a"), integer(3)},
                                 {text("b"), integer(2)},
                                 {text("c"), integer(2)},
                                 {text("d"), integer(1)}});
    const auto tie_swapped = table({{text("a"), integer(3)},
                                    {text("c"), integer(2)},
                                    {text("b"), integer(2)},
                                    {text("d"), integer(1)}});
    EXPECT_EQ(compareResults(tie_swapped, expected, orderedBy({1})).outcome, Outcome::kEqual);
    // Under a limit too: the tied run is not at the cut.
    EXPECT_EQ(compareResults(tie_swapped, expected, orderedBy({1}, true)).outcome, Outcome::kEqual);

    const auto wrong_member = table({{text("a"), integer(3)},
                                     {text("x"), integer(2)},
                                     {text("b"), integer(2)},
                                     {text("d"), integer(1)}});
    EXPECT_EQ(compareResults(wrong_member, expected, orderedBy({1}, true)).outcome,
              Outcome::kDiffers);
}

TEST(CompareResults, LimitCuttingThroughTiesIsReportedNotFailed)
{
    // ORDER BY c DESC LIMIT 3 over c = 3, 2, 2, 2: which two of the 2s come back is arbitrary.
    const auto expected =
        table({{text("a"), integer(3)}, {text("b"), integer(2)}, {text("c"), integer(2)}});
    const auto other_ties =
        table({{text("a"), integer(3)}, {text("d"), integer(2)}, {text("b"), integer(2)}});
    const Comparison limited = compareResults(other_ties, expected, orderedBy({1}, true));
    EXPECT_EQ(limited.outcome, Outcome::kTiesAtLimit);
    EXPECT_NE(limited.detail.find("LIMIT"), std::string::npos) << limited.detail;
    // Without a limit the same rows are a real difference.
    EXPECT_EQ(compareResults(other_ties, expected, orderedBy({1})).outcome, Outcome::kDiffers);
    // A cut-off never excuses a difference in the keys themselves.
    const auto other_keys =
        table({{text("a"), integer(3)}, {text("b"), integer(2)}, {text("c"), integer(1)}});
    EXPECT_EQ(compareResults(other_keys, expected, orderedBy({1}, true)).outcome,
              Outcome::kDiffers);
}

TEST(CompareResults, OffsetCutsTheFirstTiedRunToo)
{
    const auto expected = table({{text("b"), integer(2)}, {text("c"), integer(1)}});
    const auto other_first = table({{text("x"), integer(2)}, {text("c"), integer(1)}});
    EXPECT_EQ(compareResults(other_first, expected, orderedBy({1}, true)).outcome,
              Outcome::kTiesAtLimit);
}

TEST(CompareResults, LimitWithoutOrderByAcceptsAnyRows)
{
    const auto expected = table({{text("a")}, {text("b")}});
    const auto other_rows = table({{text("c")}, {text("a")}});
    EXPECT_EQ(compareResults(other_rows, expected, unordered(true)).outcome, Outcome::kTiesAtLimit);
    EXPECT_EQ(compareResults(other_rows, expected, unordered(false)).outcome, Outcome::kDiffers);
}

TEST(OrderSpecOf, ReadsKeysByAliasPositionAndExpression)
{
    const OrderSpec spec = orderSpecOf(
        "SELECT SearchPhrase, count(*) AS c FROM hits GROUP BY SearchPhrase ORDER BY c DESC, "
        "SearchPhrase LIMIT 10",
        {"SearchPhrase", "c"});
    EXPECT_TRUE(spec.ordered);
    EXPECT_TRUE(spec.limited);
    EXPECT_TRUE(spec.keys_complete);
    EXPECT_EQ(spec.key_columns, (std::vector<size_t>{1, 0}));

    const OrderSpec by_position = orderSpecOf(
        "SELECT a, count(*) FROM t GROUP BY a ORDER BY 2 DESC, count(*)", {"a", "count()"});
    EXPECT_FALSE(by_position.limited);
    EXPECT_EQ(by_position.key_columns, (std::vector<size_t>{1, 1}));
}

TEST(OrderSpecOf, KeysOutsideTheResultEndTheKnownPrefix)
{
    const OrderSpec hidden =
        orderSpecOf("SELECT SearchPhrase FROM hits ORDER BY EventTime, SearchPhrase LIMIT 10",
                    {"SearchPhrase"});
    EXPECT_TRUE(hidden.ordered);
    EXPECT_FALSE(hidden.keys_complete);
    EXPECT_TRUE(hidden.key_columns.empty());

    const OrderSpec star = orderSpecOf("SELECT * FROM hits ORDER BY EventTime LIMIT 10",
                                       {"WatchID", "EventTime", "URL"});
    EXPECT_TRUE(star.keys_complete);
    EXPECT_EQ(star.key_columns, (std::vector<size_t>{1}));

    const OrderSpec offset_only = orderSpecOf("SELECT a FROM t OFFSET 5", {"a"});
    EXPECT_FALSE(offset_only.ordered);
    EXPECT_TRUE(offset_only.limited);
}

TEST(OrderSpecOf, UnparsableTextIsStrict)
{
    const OrderSpec spec = orderSpecOf("SELEC nonsense ((", {"a"});
    EXPECT_FALSE(spec.ordered);
    EXPECT_FALSE(spec.limited);
}

}  // namespace
}  // namespace granary::clickbench
