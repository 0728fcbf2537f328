// PartitionedRows against a naive oracle: each bucket's rows, in the order they were appended,
// kept in one vector per bucket and column.
#include "engine/aggregation/partitioned_rows.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/columns/column.h"

namespace granary
{
namespace
{

/// Columns of every width the scatter takes (1, 2, 4, 8 bytes), a string
/// and one the aggregation does not read.
struct Input
{
    std::vector<Column> columns;
    std::vector<bool> used;
};

Input makeInput(size_t rows, std::mt19937_64& random)
{
    Input input;
    for (TypeId type : {TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64,
                        TypeId::Int64, TypeId::String})
    {
        Column& column = input.columns.emplace_back(type);
        if (type == TypeId::String)
        {
            for (size_t row = 0; row < rows; ++row)
            {
                column.appendString(std::string(random() % 20, static_cast<char>('a' + row % 26)));
            }
            continue;
        }
        column.resizeFixed(rows);
        auto* bytes = column.mutableData<unsigned char>();
        for (size_t byte = 0; byte < rows * fixedWidth(type); ++byte)
        {
            bytes[byte] = static_cast<unsigned char>(random());
        }
    }
    input.used = {true, true, true, true, false, true};
    return input;
}

/// The value of row `row` of a column as bytes, for comparing whatever its type.
std::string valueBytes(const ColumnView& column, size_t row)
{
    if (isString(column.type))
    {
        return std::string(column.stringAt(row));
    }
    const size_t width = fixedWidth(column.type);
    return std::string(static_cast<const char*>(column.data) + row * width, width);
}

/// Appends batches of the given sizes (bucket of each row random, or all rows in a few buckets
/// when `skewed`), clearing the rows after the batches numbered in `clear_after`, and checks
/// every bucket's chunks against the rows routed to it since the last clear, in order.
void checkAgainstOracle(const std::vector<size_t>& batch_sizes, bool skewed, uint64_t seed,
                        const std::set<size_t>& clear_after = {})
{
    std::mt19937_64 random(seed);
    std::vector<ColumnView> layout;
    Input first = makeInput(1, random);
    for (const Column& column : first.columns)
    {
        layout.push_back(column.view());
    }
    PartitionedRows partitioned(layout, first.used);
    // expected[bucket][column]: the routed values in order.
    std::vector<std::vector<std::vector<std::string>>> expected(
        kPartitionBuckets, std::vector<std::vector<std::string>>(first.columns.size()));
    std::vector<size_t> expected_rows(kPartitionBuckets, 0);
    size_t total = 0;
    for (size_t batch = 0; batch < batch_sizes.size(); ++batch)
    {
        const size_t rows = batch_sizes[batch];
        const Input input = makeInput(rows, random);
        std::vector<ColumnView> views;
        for (const Column& column : input.columns)
        {
            views.push_back(column.view());
        }
        std::vector<uint8_t> buckets(rows);
        for (size_t row = 0; row < rows; ++row)
        {
            buckets[row] = static_cast<uint8_t>(skewed ? random() % 3 * 101 : random());
            ++expected_rows[buckets[row]];
            for (size_t c = 0; c < views.size(); ++c)
            {
                if (input.used[c])
                {
                    expected[buckets[row]][c].push_back(valueBytes(views[c], row));
                }
            }
        }
        partitioned.append(views, rows, buckets.data());
        total += rows;
        if (clear_after.count(batch))
        {
            partitioned.clear();
            total = 0;
            std::fill(expected_rows.begin(), expected_rows.end(), 0);
            for (auto& columns : expected)
            {
                for (auto& values : columns)
                {
                    values.clear();
                }
            }
        }
    }
    EXPECT_EQ(partitioned.rows(), total);
    for (size_t bucket = 0; bucket < kPartitionBuckets; ++bucket)
    {
        EXPECT_EQ(partitioned.rows(bucket), expected_rows[bucket]) << "bucket " << bucket;
        std::vector<std::vector<std::string>> found(first.columns.size());
        for (size_t chunk = 0; chunk < partitioned.chunks(bucket); ++chunk)
        {
            size_t rows = 0;
            const std::vector<ColumnView> views = partitioned.chunk(bucket, chunk, rows);
            for (size_t c = 0; c < views.size(); ++c)
            {
                ASSERT_EQ(views[c].rows, rows);
                for (size_t row = 0; row < rows && first.used[c]; ++row)
                {
                    found[c].push_back(valueBytes(views[c], row));
                }
            }
        }
        for (size_t c = 0; c < found.size(); ++c)
        {
            ASSERT_EQ(found[c], expected[bucket][c]) << "bucket " << bucket << ", column " << c;
        }
    }
}

TEST(PartitionedRows, BucketsHoldTheirRowsInOrder)
{
    // Batches of one row, of a few rows, of a morsel and odd sizes: a bucket's rows start and
    // end at every offset within a cache line, across chunks of every size up to the largest.
    checkAgainstOracle({1, 1, 3, 7, 64, 65, 100, 1000, 4097, 65536, 1, 30001, 131072}, false, 1);
}

TEST(PartitionedRows, FewBucketsFillWholeChunks)
{
    checkAgainstOracle({5, 17, 20000, 3, 70000, 1, 16384, 9}, true, 2);
}

TEST(PartitionedRows, ClearedChunksTakeTheNextRows)
{
    // Refills smaller and larger than what was cleared, and batches with more rows per bucket
    // than the kept chunk that would take them (it is replaced).
    checkAgainstOracle({65536, 131072, 1000, 7, 30001, 65536, 3, 70000, 1}, false, 4, {1, 4, 6});
    checkAgainstOracle({300, 20000, 5, 70000, 16384, 9, 100000}, true, 5, {0, 1, 3, 5});
}

TEST(PartitionedRows, ClearKeepsTheMemoryThatTheSameRowsRefill)
{
    std::mt19937_64 random(6);
    const Input input = makeInput(70000, random);
    std::vector<ColumnView> views;
    for (const Column& column : input.columns)
    {
        views.push_back(column.view());
    }
    PartitionedRows partitioned(views, input.used);
    std::vector<uint8_t> buckets(70000);
    for (uint8_t& bucket : buckets)
    {
        bucket = static_cast<uint8_t>(random());
    }
    partitioned.append(views, 70000, buckets.data());
    const size_t filled = partitioned.memoryBytes();
    partitioned.clear();
    EXPECT_EQ(partitioned.rows(), 0u);
    EXPECT_EQ(partitioned.chunks(7), 0u);
    EXPECT_EQ(partitioned.memoryBytes(), filled);
    partitioned.append(views, 70000, buckets.data());
    EXPECT_EQ(partitioned.rows(), 70000u);
    EXPECT_EQ(partitioned.memoryBytes(), filled);
}

TEST(PartitionedRows, ReleasedBucketsHoldNothing)
{
    std::mt19937_64 random(3);
    const Input input = makeInput(5000, random);
    std::vector<ColumnView> views;
    for (const Column& column : input.columns)
    {
        views.push_back(column.view());
    }
    PartitionedRows partitioned(views, input.used);
    std::vector<uint8_t> buckets(5000);
    for (uint8_t& bucket : buckets)
    {
        bucket = static_cast<uint8_t>(random() % 2);
    }
    partitioned.append(views, 5000, buckets.data());
    const size_t before = partitioned.memoryBytes();
    partitioned.release(0);
    EXPECT_EQ(partitioned.chunks(0), 0u);
    EXPECT_GT(partitioned.chunks(1), 0u);
    EXPECT_LT(partitioned.memoryBytes(), before);
}

}  // namespace
}  // namespace granary
