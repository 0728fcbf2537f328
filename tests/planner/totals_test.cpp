// WITH TOTALS through the parallel aggregation: 90,000 rows over 30,000 groups (two-level
// tables, parallel merges) at 1, 2, 64 and 256 threads. The totals row, folded from the
// groups' states, is checked against the same aggregates computed by another path: one
// aggregation without keys over the rows of the groups HAVING keeps (an IN subquery).

#include <gtest/gtest.h>

#include <sstream>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

constexpr size_t kRows = 90'000;
constexpr uint32_t kGroups = 30'000;

/// Row r: key g = r % kGroups (a group of 3 rows), n = g as Nullable, NULL where g % 11 == 4;
/// v = r % 1000, NULL where r % 5 == 1; w = (r * 7) % 97.
Block rows()
{
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt64)});
    block.columns.push_back({"g", Column(TypeId::UInt32)});
    block.columns.push_back({"n", Column(DataType::makeNullable(TypeId::UInt32))});
    block.columns.push_back({"v", Column(DataType::makeNullable(TypeId::Int64))});
    block.columns.push_back({"w", Column(TypeId::UInt32)});
    for (size_t row = 0; row < kRows; ++row)
    {
        const auto group = static_cast<uint32_t>(row % kGroups);
        block.columns[0].column.append(static_cast<uint64_t>(row));
        block.columns[1].column.append(group);
        block.columns[2].column.append(group);
        block.columns[3].column.append(static_cast<int64_t>(row % 1000));
        block.columns[4].column.append(static_cast<uint32_t>((row * 7) % 97));
        if (group % 11 == 4)
        {
            block.columns[2].column.setNull(row);
        }
        if (row % 5 == 1)
        {
            block.columns[3].column.setNull(row);
        }
    }
    return block;
}

std::string tsv(const Block& block)
{
    std::ostringstream text;
    writeBlockRows(block, OutputFormat::kTSV, text);
    return text.str();
}

std::vector<std::string> typeNames(const Block& block)
{
    std::vector<std::string> names;
    for (const Block::Entry& entry : block.columns)
    {
        names.push_back(dataTypeName(entry.column.dataType()));
    }
    return names;
}

/// Aggregates whose states differ in kind: counts, sums over NULLs, averages, exact and
/// sketched distinct counts, sorted samples, -If, and a distinct count.
constexpr const char* kAggregates =
    "count(), sum(v), avg(w), min(w), max(v), uniqExact(w), uniq(v), quantileExact(0.5)(w), "
    "sumIf(w, w > 50), count(DISTINCT v)";

class Totals : public ::testing::TestWithParam<size_t>
{
protected:
    void SetUp() override
    {
        database_ = Database::openInMemory();
        Session(database_).execute(
            "CREATE TABLE t (k UInt64, g UInt32, n Nullable(UInt32), v Nullable(Int64), w UInt32) "
            "ORDER BY k");
        database_->insert("t", {rows()});
    }

    QueryResult run(const std::string& sql)
    {
        QueryOptions options;
        options.threads = GetParam();
        return Session(database_).execute(sql, options);
    }

    std::shared_ptr<Database> database_;
};

TEST_P(Totals, AfterHavingAndBeforeLimitAsTheRowsOfTheKeptGroupsGive)
{
    const QueryResult result =
        run(std::string("SELECT g, ") + kAggregates +
            " FROM t GROUP BY g WITH TOTALS HAVING max(w) > 90 ORDER BY g LIMIT 5");
    ASSERT_EQ(result.block.rows(), 5u);
    ASSERT_TRUE(result.totals.has_value());
    const QueryResult oracle =
        run(std::string("SELECT 0, ") + kAggregates +
            " FROM t WHERE g IN (SELECT g FROM t GROUP BY g HAVING max(w) > 90)");
    EXPECT_EQ(tsv(*result.totals), tsv(oracle.block));
    EXPECT_EQ(typeNames(*result.totals), typeNames(result.block));
}

TEST_P(Totals, WithoutHavingEveryRowCounts)
{
    const QueryResult result =
        run(std::string("SELECT g % 1000 AS m, ") + kAggregates + " FROM t GROUP BY m WITH TOTALS");
    ASSERT_TRUE(result.totals.has_value());
    const QueryResult oracle = run(std::string("SELECT 0, ") + kAggregates + " FROM t");
    EXPECT_EQ(tsv(*result.totals), tsv(oracle.block));
}

TEST_P(Totals, NullableKeyIsNullAndNullGroupCounts)
{
    const QueryResult result =
        run("SELECT n, count(), sum(v) FROM t GROUP BY n WITH TOTALS ORDER BY n LIMIT 1");
    ASSERT_TRUE(result.totals.has_value());
    const QueryResult oracle = run("SELECT NULL, count(), sum(v) FROM t");
    EXPECT_EQ(tsv(*result.totals), tsv(oracle.block));
    EXPECT_EQ(typeNames(*result.totals), typeNames(result.block));
}

TEST_P(Totals, OverNoKeptGroupAreTheAggregatesOfNoRow)
{
    const QueryResult result =
        run("SELECT g, count(), sum(v), uniqExact(w) FROM t GROUP BY g WITH TOTALS "
            "HAVING count() > 3");
    EXPECT_EQ(result.block.rows(), 0u);
    ASSERT_TRUE(result.totals.has_value());
    EXPECT_EQ(tsv(*result.totals), "0\t0\t\\N\t0\n");
}

TEST_P(Totals, OfRollupAreItsGrandTotal)
{
    const QueryResult result =
        run("SELECT g % 3 AS a, g % 5 AS b, count(), sum(v), uniqExact(w) FROM t "
            "GROUP BY ROLLUP(a, b) WITH TOTALS ORDER BY a, b");
    ASSERT_TRUE(result.totals.has_value());
    const QueryResult grand = run("SELECT 0, 0, count(), sum(v), uniqExact(w) FROM t");
    EXPECT_EQ(tsv(*result.totals), tsv(grand.block));
}

TEST_P(Totals, SubqueriesDropTheirs)
{
    const QueryResult result =
        run("SELECT count() FROM (SELECT g, count() FROM t GROUP BY g WITH TOTALS)");
    EXPECT_EQ(tsv(result.block), std::to_string(kGroups) + "\n");
    EXPECT_FALSE(result.totals.has_value());
}

INSTANTIATE_TEST_SUITE_P(Threads, Totals, ::testing::Values(1, 2, 64, 256));

}  // namespace
}  // namespace granary
