// NULLs through the streaming operator against a naive oracle: a NULL key is its own group
// (never 0's or ""'s), NULL arguments are skipped, sum/avg/min/max/any over no value are NULL
// and count/uniqExact 0, a filter column (or -If's condition) skips rows per aggregate, and
// NULL rates 0, 10% and 100% give the same answers at any host thread count.

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>

#include "tests/embedding/embedding_test_support.h"

namespace granary
{
namespace
{

struct NullableInput
{
    Block block;  ///< key (UInt32), name (String), value (Int64), keep (UInt8)
};

/// Keys 0..49 (0 on purpose: a NULL must not join it), names "" and "n0".."n9", values with
/// `null_percent` NULLs; NULL keys at 10%. Under a NULL the value bytes are garbage.
NullableInput makeInput(size_t rows, int null_percent, uint64_t seed)
{
    std::mt19937_64 random(seed);
    NullableInput input;
    input.block.columns.push_back({"key", Column(TypeId::UInt32)});
    input.block.columns.push_back({"name", Column(TypeId::String)});
    input.block.columns.push_back({"value", Column(TypeId::Int64)});
    input.block.columns.push_back({"keep", Column(TypeId::UInt8)});
    auto& columns = input.block.columns;
    for (size_t row = 0; row < rows; ++row)
    {
        const bool null_key = random() % 10 == 0;
        columns[0].column.append<uint32_t>(null_key ? 0xDEAD
                                                    : static_cast<uint32_t>(random() % 50));
        const uint64_t name = random() % 11;
        columns[1].column.appendString(name == 10 ? std::string() : "n" + std::to_string(name));
        columns[2].column.append<int64_t>(static_cast<int64_t>(random() % 1000) - 500);
        columns[3].column.append<uint8_t>(random() % 3 == 0 ? 0 : 1);
        if (null_key)
        {
            columns[0].column.setNull(row);
            columns[1].column.setNull(row);
        }
        if (static_cast<int>(random() % 100) < null_percent)
        {
            columns[2].column.setNull(row);
        }
    }
    return input;
}

/// What the oracle expects of one group.
struct Group
{
    uint64_t rows = 0;
    uint64_t count_value = 0;
    uint64_t kept_rows = 0;
    std::optional<int64_t> sum, min, max, filtered_sum;
    std::set<int64_t> distinct;
};

/// Printed key: "NULL" or the value.
std::string keyText(const ColumnView& column, size_t row)
{
    if (!column.isValid(row))
    {
        return "NULL";
    }
    return isString(column.type) ? "'" + std::string(column.stringAt(row)) + "'"
                                 : std::to_string(column.valueAt<uint32_t>(row));
}

std::map<std::string, Group> oracle(const Block& block, size_t key_column)
{
    std::map<std::string, Group> groups;
    const ColumnView key = block.columns[key_column].column.view();
    const ColumnView value = block.columns[2].column.view();
    const ColumnView keep = block.columns[3].column.view();
    for (size_t row = 0; row < block.rows(); ++row)
    {
        Group& group = groups[keyText(key, row)];
        ++group.rows;
        group.kept_rows += keep.valueAt<uint8_t>(row) != 0 ? 1 : 0;
        if (!value.isValid(row))
        {
            continue;
        }
        const int64_t v = value.valueAt<int64_t>(row);
        ++group.count_value;
        group.sum = group.sum.value_or(0) + v;
        group.min = std::min(group.min.value_or(v), v);
        group.max = std::max(group.max.value_or(v), v);
        group.distinct.insert(v);
        if (keep.valueAt<uint8_t>(row) != 0)
        {
            group.filtered_sum = group.filtered_sum.value_or(0) + v;
        }
    }
    return groups;
}

std::optional<int64_t> nullableInt(const Column& column, size_t row)
{
    if (column.isNull(row))
    {
        return std::nullopt;
    }
    return column.valueAt<int64_t>(row);
}

void expectMatchesOracle(const NullableInput& input, size_t key_column, size_t hosts)
{
    const std::string key = input.block.columns[key_column].name;
    GroupBySettings settings;
    settings.threads = 3;
    GroupBy group_by(testing::fieldsOf(input.block, /*nullable=*/true), {key},
                     {{"count", {}, "rows"},
                      {"count", {"value"}, "count_value"},
                      {"sum", {"value"}, "sum"},
                      {"min", {"value"}, "min"},
                      {"max", {"value"}, "max"},
                      {"avg", {"value"}, "avg"},
                      {"any", {"value"}, "any"},
                      {"uniqExact", {"value"}, "distinct"},
                      {"sum", {"value"}, "filtered_sum", "keep"},
                      {"sumIf", {"value", "keep"}, "sum_if"},
                      {"countIf", {"keep"}, "count_if"}},
                     settings);
    testing::sinkFromHosts(group_by, input.block, hosts, 700);
    ResultStream stream = group_by.finish();
    EXPECT_FALSE(stream.schema()[0].name.empty());
    EXPECT_TRUE(stream.schema()[0].nullable);
    EXPECT_FALSE(stream.schema()[1].nullable);  // count(*)
    EXPECT_TRUE(stream.schema()[3].nullable);   // sum
    const Block result = testing::collect(stream);
    const auto expected = oracle(input.block, key_column);
    ASSERT_EQ(result.rows(), expected.size()) << key << ", " << hosts << " hosts";
    const ColumnView keys = result.columns[0].column.view();
    for (size_t row = 0; row < result.rows(); ++row)
    {
        const auto found = expected.find(keyText(keys, row));
        ASSERT_NE(found, expected.end()) << keyText(keys, row);
        const Group& group = found->second;
        auto column = [&](size_t c) -> const Column& { return result.columns[c].column; };
        EXPECT_EQ(column(1).valueAt<uint64_t>(row), group.rows);
        EXPECT_EQ(column(2).valueAt<uint64_t>(row), group.count_value);
        EXPECT_EQ(nullableInt(column(3), row), group.sum);
        EXPECT_EQ(nullableInt(column(4), row), group.min);
        EXPECT_EQ(nullableInt(column(5), row), group.max);
        EXPECT_EQ(column(6).isNull(row), !group.sum.has_value());
        if (group.sum)
        {
            EXPECT_DOUBLE_EQ(
                column(6).valueAt<double>(row),
                static_cast<double>(*group.sum) / static_cast<double>(group.count_value));
        }
        EXPECT_EQ(column(7).isNull(row), !group.sum.has_value());
        if (!column(7).isNull(row))
        {
            EXPECT_TRUE(group.distinct.count(column(7).valueAt<int64_t>(row)));
        }
        EXPECT_EQ(column(8).valueAt<uint64_t>(row), group.distinct.size());
        EXPECT_EQ(nullableInt(column(9), row), group.filtered_sum);
        // -If is a filter given as the last argument.
        EXPECT_EQ(nullableInt(column(10), row), group.filtered_sum);
        EXPECT_EQ(column(11).valueAt<uint64_t>(row), group.kept_rows);
    }
}

TEST(NullableGroupBy, NullKeysAreTheirOwnGroupAndNullArgumentsAreSkipped)
{
    for (const int null_percent : {0, 10, 100})
    {
        const NullableInput input = makeInput(30'000, null_percent, 7 + null_percent);
        for (const size_t hosts : {1, 2, 7})
        {
            expectMatchesOracle(input, 0, hosts);
            expectMatchesOracle(input, 1, hosts);
        }
    }
}

TEST(NullableGroupBy, AggregatesWithoutKeysOverOnlyNullsAreNullOrZero)
{
    const NullableInput input = makeInput(5'000, 100, 3);
    GroupBy group_by(testing::fieldsOf(input.block, true), {},
                     {{"sum", {"value"}, "s"}, {"count", {"value"}, "c"}, {"max", {"value"}, "m"}});
    testing::sinkFromHosts(group_by, input.block, 2, 1000);
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);
    ASSERT_EQ(result.rows(), 1u);
    EXPECT_TRUE(result.columns[0].column.isNull(0));
    EXPECT_EQ(result.columns[1].column.valueAt<uint64_t>(0), 0u);
    EXPECT_TRUE(result.columns[2].column.isNull(0));
}

TEST(NullableGroupBy, ABitmapOnANotNullColumnIsRefusedByName)
{
    const NullableInput input = makeInput(100, 10, 5);
    GroupBy group_by(testing::fieldsOf(input.block, /*nullable=*/false), {"key"},
                     {{"count", {}, "c"}});
    LocalSink sink = group_by.makeLocalSink();
    try
    {
        sink.sink(testing::sliceOf(input.block, 0, 100), 100);
        FAIL() << "a bitmap on a NOT NULL column was accepted";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("'key'"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace granary
