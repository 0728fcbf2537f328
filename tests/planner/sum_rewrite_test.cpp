// The sum(x ± k) → sum(x) ± k · count(x) rewrite (ClickBench Q30): the same answer with and
// without it, equal to the naive evaluator (which never rewrites), wrap-around included.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "engine/common/exception.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/planner/result_check.h"
#include "tests/planner/table_conversion.h"
#include "tests/planner/test_tables.h"

namespace granary::oracle
{
namespace
{

constexpr const char* kRewriteSetting = "optimize_arithmetic_operations_in_aggregate_functions";

QueryOptions withRewrite(bool enabled)
{
    QueryOptions options;
    options.settings[kRewriteSetting] = enabled ? "1" : "0";
    return options;
}

/// The integer columns of two results are equal exactly (float sums may differ in the last
/// bits between runs, as threads add in different orders).
void expectSameIntegers(const Block& left, const Block& right)
{
    ASSERT_EQ(left.columns.size(), right.columns.size());
    ASSERT_EQ(left.rows(), right.rows());
    for (size_t c = 0; c < left.columns.size(); ++c)
    {
        EXPECT_EQ(left.columns[c].name, right.columns[c].name);
        EXPECT_EQ(left.columns[c].column.type(), right.columns[c].column.type());
        if (isFloat(left.columns[c].column.type()))
        {
            continue;
        }
        for (size_t r = 0; r < left.rows(); ++r)
        {
            EXPECT_EQ(valueAt(left.columns[c].column, r), valueAt(right.columns[c].column, r))
                << left.columns[c].name << " row " << r;
        }
    }
}

TEST(SumRewrite, ClickBenchQ30WithAndWithout)
{
    const HitsFixture* hits = sharedHits();
    if (!hits)
    {
        GTEST_SKIP() << "ClickBench files not found (set GRANARY_CLICKBENCH_DIR)";
    }
    const std::string& q30 = hits->queries[29];
    ASSERT_NE(q30.find("SUM(ResolutionWidth + 89)"), std::string::npos);
    const QueryResult rewritten = hits->session->execute(q30, withRewrite(true));
    const QueryResult plain = hits->session->execute(q30, withRewrite(false));
    EXPECT_EQ(rewritten.block.columns.size(), 90u);
    expectSameIntegers(rewritten.block, plain.block);
    const NaiveResult expected = evaluateNaively(sql::parseSelect(q30), hits->table);
    EXPECT_EQ(differenceFromOracle(rewritten.block, expected), "");
    EXPECT_EQ(differenceFromOracle(plain.block, expected), "");

    ASSERT_EQ(rewritten.stats.aggregates.size(), 2u);
    const auto& aggregates = rewritten.stats.aggregates;
    auto has = [&](std::string_view prefix)
    {
        return std::count_if(aggregates.begin(), aggregates.end(),
                             [&](const std::string& name) { return name.starts_with(prefix); });
    };
    EXPECT_EQ(has("sum("), 1);
    EXPECT_EQ(has("count("), 1);
    EXPECT_EQ(plain.stats.aggregates.size(), 90u);
}

constexpr std::string_view kWideCreate =
    "CREATE TABLE wide (g INTEGER, x BIGINT, w SMALLINT, f DOUBLE) ORDER BY g";

/// A BIGINT column near both ends of Int64, so that the sums wrap around.
RowTable wideTable()
{
    RowTable table = emptyTableFor(kWideCreate);
    uint64_t state = 12345;
    auto next = [&state]
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 11;
    };
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    for (int i = 0; i < 40000; ++i)
    {
        const uint64_t r = next();
        int64_t x = static_cast<int64_t>(next() << 11);
        if (r % 3 == 0)
        {
            x = kMax - static_cast<int64_t>(r % 1000);
        }
        else if (r % 3 == 1)
        {
            x = kMin + static_cast<int64_t>(r % 1000);
        }
        table.rows.push_back({int64_t{i % 7}, x, static_cast<int64_t>(static_cast<int16_t>(r)),
                              static_cast<double>(r % 100000) / 64});
    }
    return table;
}

/// sumWithOverflow(x ± k) is rewritten for any integer column and wraps exactly as the original;
/// sum refuses the overflow, and over a 64-bit column it is not rewritten.
TEST(SumRewrite, WrapsAroundLikeTheOriginalSums)
{
    const RowTable table = wideTable();
    __int128 exact = 0;
    for (const Row& row : table.rows)
    {
        exact += exactInteger(row[1]);
    }
    ASSERT_TRUE(exact > std::numeric_limits<int64_t>::max() ||
                exact < std::numeric_limits<int64_t>::min())
        << "the data must make SUM(x) overflow";

    Session session(Database::openInMemory());
    createAndFill(session, kWideCreate, table);
    struct Case
    {
        std::string query;
        size_t rewritten_aggregates;  ///< Distinct sum(x), count(x) (and count(), float sums).
        size_t plain_aggregates;
    };
    const std::vector<Case> cases = {
        {"SELECT sumWithOverflow(x), sumWithOverflow(x + 1), sumWithOverflow(x - 3), "
         "sumWithOverflow(5 - x), sumWithOverflow(x + 9223372036854775807), "
         "sumWithOverflow(x + -9), SUM(w + 40000), SUM(w - 1), COUNT(*) FROM wide",
         5, 9},
        {"SELECT g, sumWithOverflow(x + 2) AS s2, sumWithOverflow(1000 - x), SUM(w - 7), "
         "SUM(f + 1) FROM wide GROUP BY g ORDER BY g",
         5, 4},
        {"SELECT g, sumWithOverflow(x + 1) AS s FROM wide GROUP BY g "
         "HAVING sumWithOverflow(x + 1) <> 0 ORDER BY sumWithOverflow(x + 1) DESC LIMIT 3",
         2, 1},
    };
    for (const auto& [query, rewritten_aggregates, plain_aggregates] : cases)
    {
        SCOPED_TRACE(query);
        const QueryResult rewritten = session.execute(query, withRewrite(true));
        const QueryResult plain = session.execute(query, withRewrite(false));
        expectSameIntegers(rewritten.block, plain.block);
        EXPECT_EQ(rewritten.stats.aggregates.size(), rewritten_aggregates);
        EXPECT_EQ(plain.stats.aggregates.size(), plain_aggregates);
        const NaiveResult expected = evaluateNaively(sql::parseSelect(query), table);
        EXPECT_EQ(differenceFromOracle(rewritten.block, expected), "");
        EXPECT_EQ(differenceFromOracle(plain.block, expected), "");
    }
    for (const bool rewrite : {true, false})
    {
        try
        {
            session.execute("SELECT SUM(x + 1) FROM wide", withRewrite(rewrite));
            ADD_FAILURE() << "the sum of x overflows Int64";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kValueOutOfRangeOfDataType) << error.what();
        }
    }
}

}  // namespace
}  // namespace granary::oracle
