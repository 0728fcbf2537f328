// ARRAY JOIN and arrayJoin against a naive expansion of the same rows: rows repeated per
// element (LEFT keeping empty arrays once), WHERE before the join, GROUP BY over the elements,
// at one thread and at many (oversubscribed), and the clear refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>

#include "engine/common/exception.h"
#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/sql/formatter.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

struct Row
{
    uint32_t id;
    std::vector<uint32_t> values;
    std::vector<std::string> keys;  ///< The map's keys; each value is "v" + key.
};

/// Rows with 0 to 5 values (a fifth of arrays empty) and 0 to 3 distinct keys of 6.
std::vector<Row> randomRows(size_t count)
{
    std::mt19937_64 random(29);
    std::vector<Row> rows(count);
    for (size_t i = 0; i < count; ++i)
    {
        rows[i].id = static_cast<uint32_t>(i);
        rows[i].values.resize(random() % 5 == 0 ? 0 : 1 + random() % 5);
        for (uint32_t& value : rows[i].values)
        {
            value = static_cast<uint32_t>(random() % 50);
        }
        for (size_t key = 0; key < 6; ++key)
        {
            if (random() % 2 == 0 && rows[i].keys.size() < 3)
            {
                rows[i].keys.push_back("k" + std::to_string(key));
            }
        }
    }
    return rows;
}

class ArrayJoinTest : public ::testing::TestWithParam<size_t>
{
protected:
    void SetUp() override
    {
        rows_ = randomRows(150'000);  // Several morsels of 64 Ki rows.
        session_.execute(
            "CREATE TABLE t (id UInt32, arr Array(UInt32), m Map(String, String)) ORDER BY id");
        Block block;
        block.columns.push_back({"id", Column(TypeId::UInt32)});
        block.columns.push_back({"arr", Column(DataType::array(TypeId::UInt32))});
        block.columns.push_back({"m", Column(DataType::map(TypeId::String, TypeId::String))});
        for (const Row& row : rows_)
        {
            block.columns[0].column.append(row.id);
            for (const uint32_t value : row.values)
            {
                block.columns[1].column.child(0).append(value);
            }
            block.columns[1].column.closeNestedRow();
            for (const std::string& key : row.keys)
            {
                block.columns[2].column.child(0).appendString(key);
                block.columns[2].column.child(1).appendString("v" + key);
            }
            block.columns[2].column.closeNestedRow();
        }
        std::vector<Block> blocks;
        blocks.push_back(std::move(block));
        session_.database().insert("t", std::move(blocks));
        options_.threads = GetParam();
    }

    std::string tsv(const std::string& query)
    {
        std::ostringstream out;
        writeBlock(session_.execute(query, options_).block, OutputFormat::kTSV, out);
        return out.str();
    }

    ErrorCode errorOf(const std::string& query)
    {
        try
        {
            session_.execute(query, options_);
        }
        catch (const Exception& error)
        {
            return error.code();
        }
        return ErrorCode{};
    }

    std::vector<Row> rows_;
    Session session_{Database::openInMemory()};
    QueryOptions options_;
};

TEST_P(ArrayJoinTest, RepeatsRowsPerElementAndNamesTheElement)
{
    std::string expected;
    std::string expected_same_name;
    for (const Row& row : rows_)
    {
        std::vector<uint32_t> sorted = row.values;
        std::sort(sorted.begin(), sorted.end());
        for (const uint32_t value : sorted)
        {
            const std::string line = std::to_string(row.id) + "\t" + std::to_string(value);
            expected += line + "\t" + std::to_string(row.values.size()) + "\n";
            expected_same_name += line + "\n";
        }
    }
    // The alias names the element; the array keeps its name. Without an alias the element
    // takes the array's name.
    EXPECT_EQ(tsv("SELECT id, x, length(arr) FROM t ARRAY JOIN arr AS x ORDER BY id, x"), expected);
    EXPECT_EQ(tsv("SELECT id, arr FROM t ARRAY JOIN arr ORDER BY id, arr"), expected_same_name);
}

TEST_P(ArrayJoinTest, LeftArrayJoinKeepsEmptyArraysOnce)
{
    uint64_t rows = 0;
    uint64_t sum = 0;
    for (const Row& row : rows_)
    {
        rows += std::max<size_t>(row.values.size(), 1);
        for (const uint32_t value : row.values)
        {
            sum += value;
        }
    }
    EXPECT_EQ(tsv("SELECT count(), sum(x) FROM t LEFT ARRAY JOIN arr AS x"),
              std::to_string(rows) + "\t" + std::to_string(sum) + "\n");
}

TEST_P(ArrayJoinTest, WhereFiltersTheRowsBeforeTheJoin)
{
    uint64_t elements = 0;
    for (const Row& row : rows_)
    {
        elements += row.id % 3 == 0 ? row.values.size() : 0;
    }
    EXPECT_EQ(tsv("SELECT count() FROM t ARRAY JOIN arr AS x WHERE id % 3 = 0"),
              std::to_string(elements) + "\n");
}

TEST_P(ArrayJoinTest, ArrayJoinCallsGroupByTheElements)
{
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> per_value;  // count, sum of ids
    std::map<std::string, uint64_t> per_key;
    for (const Row& row : rows_)
    {
        for (const uint32_t value : row.values)
        {
            per_value[value].first += 1;
            per_value[value].second += row.id;
        }
        for (const std::string& key : row.keys)
        {
            per_key[key] += 1;
        }
    }
    std::string expected_values;
    for (const auto& [value, counts] : per_value)
    {
        expected_values += std::to_string(value) + "\t" + std::to_string(counts.first) + "\t" +
                           std::to_string(counts.second) + "\n";
    }
    std::string expected_keys;
    for (const auto& [key, count] : per_key)
    {
        expected_keys += key + "\t" + std::to_string(count) + "\n";
    }
    EXPECT_EQ(tsv("SELECT arrayJoin(arr) AS v, count(), sum(id) FROM t GROUP BY v ORDER BY v"),
              expected_values);
    EXPECT_EQ(tsv("SELECT arrayJoin(mapKeys(m)) AS k, count() FROM t GROUP BY k ORDER BY k"),
              expected_keys);
}

TEST_P(ArrayJoinTest, AggregateConditionsOnTheElementFilterAfterTheJoin)
{
    // Every aggregate's condition reads the element: it must stay in the aggregates (WHERE
    // would filter before the join), whatever optimize_aggregate_filters_to_where says.
    uint64_t elements = 0;
    uint64_t ids = 0;
    for (const Row& row : rows_)
    {
        for (const uint32_t value : row.values)
        {
            elements += value > 25 ? 1 : 0;
            ids += value > 25 ? row.id : 0;
        }
    }
    EXPECT_EQ(tsv("SELECT countIf(arrayJoin(arr) > 25), sumIf(id, arrayJoin(arr) > 25) FROM t"),
              std::to_string(elements) + "\t" + std::to_string(ids) + "\n");
}

TEST_P(ArrayJoinTest, RefusesWhatItCannotDo)
{
    EXPECT_EQ(errorOf("SELECT x FROM t ARRAY JOIN id AS x"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("SELECT arrayJoin(arr), arrayJoin(mapKeys(m)) FROM t"),
              ErrorCode::kNotImplemented);
    EXPECT_EQ(errorOf("SELECT arrayJoin(arr) FROM t ARRAY JOIN arr AS x"),
              ErrorCode::kNotImplemented);
    EXPECT_EQ(errorOf("SELECT id FROM t ARRAY JOIN arr AS x WHERE x > 3"),
              ErrorCode::kNotImplemented);
    EXPECT_NE(errorOf("SELECT id FROM t ARRAY JOIN mapKeys(m)"), ErrorCode{});
    EXPECT_NE(errorOf("SELECT id FROM t ARRAY JOIN arr AS x, arr AS y"), ErrorCode{});
}

INSTANTIATE_TEST_SUITE_P(Threads, ArrayJoinTest, ::testing::Values(1, 64));

TEST(ArrayJoinSyntax, FormatsBackToTheSameStatement)
{
    for (const std::string query : {"SELECT id, x FROM t ARRAY JOIN arr AS x WHERE id > 1",
                                    "SELECT k FROM t LEFT ARRAY JOIN mapKeys(m) AS k"})
    {
        const std::string formatted = sql::formatStatement(sql::parseStatement(query));
        EXPECT_EQ(sql::formatStatement(sql::parseStatement(formatted)), formatted) << query;
        EXPECT_NE(formatted.find("ARRAY JOIN"), std::string::npos) << formatted;
    }
}

}  // namespace
}  // namespace granary
