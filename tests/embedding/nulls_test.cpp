// NULLs through the streaming operator against a naive oracle: a NULL key is its own group
// (never 0's or ""'s), NULL arguments are skipped, sum/avg/min/max/any over no value are NULL
// and count/uniqExact 0, a filter column (or -If's condition) skips rows per aggregate, and
// NULL rates 0, 10% and 100% give the same answers at any host thread count.

#include <gtest/gtest.h>

#include <functional>
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
    std::set<int64_t> filtered_distinct;  ///< Of the rows `keep` keeps.
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
            group.filtered_distinct.insert(v);
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

/// Two nullable keys with NULLs of their own, and a first block without any bitmap: rows with
/// and without NULL keys, in one sink, batch by batch.
struct TwoKeyInput
{
    Block without_nulls;  ///< a (UInt32), b (String), no bitmap
    Block with_nulls;     ///< the same columns, NULLs in both
};

TwoKeyInput makeTwoKeyInput(size_t rows, uint64_t seed)
{
    std::mt19937_64 random(seed);
    TwoKeyInput input;
    for (Block* block : {&input.without_nulls, &input.with_nulls})
    {
        block->columns.push_back({"a", Column(TypeId::UInt32)});
        block->columns.push_back({"b", Column(TypeId::String)});
        for (size_t row = 0; row < rows; ++row)
        {
            block->columns[0].column.append<uint32_t>(static_cast<uint32_t>(random() % 7));
            block->columns[1].column.appendString("b" + std::to_string(random() % 5));
            if (block == &input.with_nulls && random() % 4 == 0)
            {
                block->columns[0].column.setNull(row);
            }
            if (block == &input.with_nulls && random() % 5 == 0)
            {
                block->columns[1].column.setNull(row);
            }
        }
    }
    return input;
}

TEST(NullableGroupBy, RowsWithAndWithoutNullKeysMeetInOneResult)
{
    const TwoKeyInput input = makeTwoKeyInput(9'000, 11);
    // The NULL-free block twice (without a bitmap), the other between: the same keys arrive
    // with and without bitmaps.
    const std::vector<const Block*> blocks = {&input.without_nulls, &input.with_nulls,
                                              &input.without_nulls};
    struct Expected
    {
        uint64_t rows = 0;
        uint64_t count_a = 0;
        std::optional<int64_t> max_a;
    };
    std::map<std::string, Expected> expected;
    for (const Block* block : blocks)
    {
        const ColumnView a = block->columns[0].column.view();
        const ColumnView b = block->columns[1].column.view();
        for (size_t row = 0; row < block->rows(); ++row)
        {
            Expected& group = expected[keyText(a, row) + "," + keyText(b, row)];
            ++group.rows;
            if (a.isValid(row))
            {
                ++group.count_a;
                group.max_a = std::max<int64_t>(group.max_a.value_or(0), a.valueAt<uint32_t>(row));
            }
        }
    }
    GroupBy group_by(testing::fieldsOf(input.with_nulls, /*nullable=*/true), {"a", "b"},
                     {{"count", {}, "rows"}, {"count", {"a"}, "count_a"}, {"max", {"a"}, "max_a"}});
    LocalSink sink = group_by.makeLocalSink();
    for (const Block* block : blocks)
    {
        for (size_t begin = 0; begin < block->rows(); begin += 1000)
        {
            sink.sink(testing::sliceOf(*block, begin, 1000), 1000);
        }
    }
    group_by.combine(std::move(sink));
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);
    ASSERT_EQ(result.rows(), expected.size());
    EXPECT_EQ(group_by.statistics().result_rows, result.rows());
    const ColumnView a = result.columns[0].column.view();
    const ColumnView b = result.columns[1].column.view();
    for (size_t row = 0; row < result.rows(); ++row)
    {
        const std::string key = keyText(a, row) + "," + keyText(b, row);
        const auto found = expected.find(key);
        ASSERT_NE(found, expected.end()) << key;
        EXPECT_EQ(result.columns[2].column.valueAt<uint64_t>(row), found->second.rows) << key;
        EXPECT_EQ(result.columns[3].column.valueAt<uint64_t>(row), found->second.count_a) << key;
        const Column& max_a = result.columns[4].column;
        EXPECT_EQ(
            max_a.isNull(row) ? std::nullopt : std::optional<int64_t>(max_a.valueAt<uint32_t>(row)),
            found->second.max_a)
            << key;
    }
}

TEST(NullableGroupBy, TheTopGroupsIncludeTheNullKey)
{
    Block block;
    block.columns.push_back({"key", Column(TypeId::UInt32)});
    const size_t rows = 20'000;
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.append<uint32_t>(static_cast<uint32_t>(row % 1000));
        if (row % 5 == 0)  // 4,000 NULL keys; every other group has 16 rows
        {
            block.columns[0].column.setNull(row);
        }
    }
    GroupBy group_by(testing::fieldsOf(block, /*nullable=*/true), {"key"}, {{"count", {}, "c"}});
    testing::sinkFromHosts(group_by, block, 2, 1500);
    const TopN top{{{"c", /*descending=*/true}}, 1};
    ResultStream stream = group_by.finish(&top);
    const Block result = testing::collect(stream);
    ASSERT_GE(result.rows(), 1u);
    size_t largest = 0;
    for (size_t row = 1; row < result.rows(); ++row)
    {
        const auto count = [&](size_t r) { return result.columns[1].column.valueAt<uint64_t>(r); };
        largest = count(row) > count(largest) ? row : largest;
    }
    EXPECT_TRUE(result.columns[0].column.isNull(largest));
    EXPECT_EQ(result.columns[1].column.valueAt<uint64_t>(largest), rows / 5);
}

/// A lone count(DISTINCT) over nullable values (or with a filter) is routed by value (no set
/// merged), the NULL or filtered rows' keys still groups: 0 where no row gives a value.
TEST(NullableGroupBy, ALoneDistinctCountSkipsNullValuesAndKeepsTheirKeys)
{
    for (const int null_percent : {0, 10, 100})
    {
        NullableInput input = makeInput(20'000, null_percent, 21 + null_percent);
        const ColumnView keys = input.block.columns[0].column.view();
        for (size_t row = 0; row < input.block.rows(); ++row)
        {
            if (keys.isValid(row) && keys.valueAt<uint32_t>(row) == 7)  // 7 never has a value
            {
                input.block.columns[2].column.setNull(row);
            }
        }
        for (const size_t key_column : {0, 1})
        {
            const auto expected = oracle(input.block, key_column);
            for (const bool filtered : {false, true})
            {
                GroupBy group_by(testing::fieldsOf(input.block, /*nullable=*/true),
                                 {input.block.columns[key_column].name},
                                 {{"uniqExact", {"value"}, "d", filtered ? "keep" : ""}});
                testing::sinkFromHosts(group_by, input.block, 3, 900);
                ResultStream stream = group_by.finish();
                const Block result = testing::collect(stream);
                EXPECT_EQ(group_by.statistics().merge_path, "value_buckets");
                ASSERT_EQ(result.rows(), expected.size());
                for (size_t row = 0; row < result.rows(); ++row)
                {
                    const std::string key = keyText(result.columns[0].column.view(), row);
                    const Group& group = expected.at(key);
                    std::set<int64_t> distinct = group.distinct;
                    if (filtered)
                    {
                        distinct = group.filtered_distinct;
                    }
                    EXPECT_EQ(result.columns[1].column.valueAt<uint64_t>(row), distinct.size())
                        << key << (filtered ? " filtered" : "") << ", " << null_percent << "%";
                }
            }
        }
    }
}

TEST(NullableGroupBy, BatchesWhoseKeysAreAllNullLeaveTheOtherLaneEmpty)
{
    Block block;
    block.columns.push_back({"key", Column(TypeId::String)});
    block.columns.push_back({"value", Column(TypeId::Int64)});
    for (size_t row = 0; row < 3000; ++row)
    {
        block.columns[0].column.appendString(row < 2000 ? "" : "k");
        block.columns[1].column.append<int64_t>(static_cast<int64_t>(row));
        if (row < 2000)  // the first two 1000-row batches have only NULL keys
        {
            block.columns[0].column.setNull(row);
        }
    }
    GroupBy group_by(testing::fieldsOf(block, /*nullable=*/true), {"key"},
                     {{"count", {}, "c"}, {"sum", {"value"}, "s"}});
    LocalSink sink = group_by.makeLocalSink();
    for (size_t begin = 0; begin < 3000; begin += 1000)
    {
        sink.sink(testing::sliceOf(block, begin, 1000), 1000);
    }
    group_by.combine(std::move(sink));
    ResultStream stream = group_by.finish();
    const Block result = testing::collect(stream);
    ASSERT_EQ(result.rows(), 2u);
    for (size_t row = 0; row < 2; ++row)
    {
        const bool null_key = result.columns[0].column.isNull(row);
        EXPECT_EQ(result.columns[1].column.valueAt<uint64_t>(row), null_key ? 2000u : 1000u);
        // sum of 0..1999 and of 2000..2999
        EXPECT_EQ(result.columns[2].column.valueAt<int64_t>(row),
                  null_key ? 1999 * 2000 / 2 : (2000 + 2999) * 1000 / 2);
    }
}

TEST(NullableGroupBy, ACombinedSinkIsRefused)
{
    const NullableInput input = makeInput(100, 10, 5);
    GroupBy group_by(testing::fieldsOf(input.block, /*nullable=*/true), {"key"},
                     {{"count", {}, "c"}});
    LocalSink sink = group_by.makeLocalSink();
    sink.sink(testing::sliceOf(input.block, 0, 100), 100);
    group_by.combine(std::move(sink));
    for (const auto& use :
         std::vector<std::function<void()>>{
             [&] { sink.sink(testing::sliceOf(input.block, 0, 100), 100); },
             [&] { group_by.combine(std::move(sink)); }})
    {
        try
        {
            use();
            FAIL() << "a combined sink was used again";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        }
    }
}

}  // namespace
}  // namespace granary
