// NULL keys and arguments through the parallel aggregation: 60,000 rows over 20,000 groups
// (two-level tables, parallel merges) at 1, 2, 64 and 256 threads, against answers computed
// here from the rows; and result types that depend on the schema, not on whether the parts
// hold a NULL.

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

constexpr size_t kRows = 60'000;
constexpr uint32_t kGroups = 20'000;

/// Row r: key g = r % kGroups, value v = r % 1000, both Nullable; `with_nulls` makes g NULL
/// where r % 7 == 3 and v where r % 5 == 1 (so every row of a group g % 5 == 1 lacks v).
Block rows(bool with_nulls)
{
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt64)});
    block.columns.push_back({"g", Column(DataType::makeNullable(TypeId::UInt32))});
    block.columns.push_back({"v", Column(DataType::makeNullable(TypeId::Int64))});
    for (size_t row = 0; row < kRows; ++row)
    {
        block.columns[0].column.append(static_cast<uint64_t>(row));
        block.columns[1].column.append(static_cast<uint32_t>(row % kGroups));
        block.columns[2].column.append(static_cast<int64_t>(row % 1000));
        if (with_nulls && row % 7 == 3)
        {
            block.columns[1].column.setNull(row);
        }
        if (with_nulls && row % 5 == 1)
        {
            block.columns[2].column.setNull(row);
        }
    }
    return block;
}

std::shared_ptr<Database> tableOf(bool with_nulls)
{
    auto database = Database::openInMemory();
    Session(database).execute(
        "CREATE TABLE t (k UInt64, g Nullable(UInt32), v Nullable(Int64)) ORDER BY k");
    database->insert("t", {rows(with_nulls)});
    return database;
}

std::string tsv(const Block& block)
{
    std::ostringstream text;
    writeBlockRows(block, OutputFormat::kTSV, text);
    return text.str();
}

class Nulls : public ::testing::TestWithParam<size_t>
{
};

TEST_P(Nulls, NullKeysAreOneGroupAndAggregatesSkipNullArguments)
{
    // The oracle: per key (nullopt for NULL), the count of rows, of known v, and their sum.
    struct Group
    {
        uint64_t rows = 0;
        uint64_t known = 0;
        int64_t sum = 0;
    };
    std::map<std::optional<uint32_t>, Group> groups;
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::optional<uint32_t> key =
            row % 7 == 3 ? std::nullopt : std::optional<uint32_t>(row % kGroups);
        Group& group = groups[key];
        ++group.rows;
        if (row % 5 != 1)
        {
            ++group.known;
            group.sum += static_cast<int64_t>(row % 1000);
        }
    }
    std::string expected;
    // ORDER BY g puts the NULL key last; a group without a known v sums to NULL.
    for (const auto& [key, group] : groups)
    {
        if (key)
        {
            expected += std::to_string(*key) + "\t" + std::to_string(group.rows) + "\t" +
                        std::to_string(group.known) + "\t" +
                        (group.known ? std::to_string(group.sum) : "\\N") + "\n";
        }
    }
    const Group& null_group = groups.at(std::nullopt);
    expected += "\\N\t" + std::to_string(null_group.rows) + "\t" +
                std::to_string(null_group.known) + "\t" + std::to_string(null_group.sum) + "\n";

    Session session(tableOf(true));
    QueryOptions options;
    options.threads = GetParam();
    EXPECT_EQ(tsv(session
                      .execute("SELECT g, count(), count(v), sum(v) FROM t GROUP BY g ORDER BY g",
                               options)
                      .block),
              expected);
    EXPECT_EQ(
        tsv(session.execute("SELECT count(DISTINCT g), sum(v) IS NULL FROM t", options).block),
        std::to_string(kGroups) + "\t0\n");
    EXPECT_EQ(tsv(session.execute("SELECT sum(v), min(v) FROM t WHERE v IS NULL", options).block),
              "\\N\t\\N\n");

    // Most rows pass a filter of v, so v * 2 is computed over every row and gathered, its
    // NULLs with it.
    uint64_t passing = 0;
    uint64_t known = 0;
    int64_t doubled = 0;
    for (size_t row = 0; row < kRows; ++row)
    {
        const int64_t v = static_cast<int64_t>(row % 1000);
        if (row % 5 == 1 || v != 500)
        {
            ++passing;
            if (row % 5 != 1)
            {
                ++known;
                doubled += 2 * v;
            }
        }
    }
    EXPECT_EQ(tsv(session
                      .execute("SELECT count(), count(v * 2), sum(v * 2) FROM t "
                               "WHERE v IS NULL OR v <> 500",
                               options)
                      .block),
              std::to_string(passing) + "\t" + std::to_string(known) + "\t" +
                  std::to_string(doubled) + "\n");
}

TEST_P(Nulls, NullKeysStayNullUnderArrayJoin)
{
    // Row r: g as in rows(true), an array of r % 4 elements 0, 1, ..., r % 4 - 1.
    auto database = tableOf(true);
    Session(database).execute(
        "CREATE TABLE a (k UInt64, g Nullable(UInt32), arr Array(UInt32)) ORDER BY k");
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt64)});
    block.columns.push_back({"g", Column(DataType::makeNullable(TypeId::UInt32))});
    block.columns.push_back({"arr", Column(DataType::array(TypeId::UInt32))});
    std::map<std::optional<uint32_t>, std::pair<uint64_t, uint64_t>> groups;  // rows, sum
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::optional<uint32_t> key =
            row % 7 == 3 ? std::nullopt : std::optional<uint32_t>(row % 3);
        block.columns[0].column.append(static_cast<uint64_t>(row));
        block.columns[1].column.append(key.value_or(0));
        if (!key)
        {
            block.columns[1].column.setNull(row);
        }
        for (uint32_t element = 0; element < row % 4; ++element)
        {
            block.columns[2].column.child(0).append(element);
            ++groups[key].first;
            groups[key].second += element;
        }
        block.columns[2].column.closeNestedRow();
    }
    database->insert("a", {std::move(block)});
    std::string expected;
    for (const auto& [key, group] : groups)
    {
        if (key)
        {
            expected += std::to_string(*key) + "\t" + std::to_string(group.first) + "\t" +
                        std::to_string(group.second) + "\n";
        }
    }
    expected += "\\N\t" + std::to_string(groups.at(std::nullopt).first) + "\t" +
                std::to_string(groups.at(std::nullopt).second) + "\n";
    QueryOptions options;
    options.threads = GetParam();
    EXPECT_EQ(tsv(Session(database)
                      .execute("SELECT g, count(), sum(e) FROM a ARRAY JOIN arr AS e GROUP BY g "
                               "ORDER BY g",
                               options)
                      .block),
              expected);
}

INSTANTIATE_TEST_SUITE_P(Threads, Nulls, ::testing::Values(1, 2, 64, 256));

TEST(NullTypes, DependOnTheSchemaNotOnTheRows)
{
    for (const std::string query :
         {"SELECT g, sum(v), count(v), min(v) FROM t GROUP BY g", "SELECT sum(v), max(g) FROM t",
          "SELECT g, v + 1, coalesce(v, 0), v IS NULL FROM t", "SELECT DISTINCT g FROM t"})
    {
        std::vector<std::string> types[2];
        for (const bool with_nulls : {false, true})
        {
            for (const Block::Entry& entry :
                 Session(tableOf(with_nulls)).execute(query).block.columns)
            {
                types[with_nulls].push_back(dataTypeName(entry.column.dataType()));
            }
        }
        EXPECT_EQ(types[0], types[1]) << query;
    }
}

}  // namespace
}  // namespace granary
