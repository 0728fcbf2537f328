// AnyGroupsFilter: under 64 threads sinking at once, exactly LIMIT keys are admitted and every
// row of them is kept, none of another; keys compare by their rows' bytes.

#include "engine/aggregation/any_groups_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/columns/column.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// Row `row`'s key of two columns: an integer and a string, with many rows per key.
uint64_t numberOf(size_t row)
{
    return (row * 7919) % 3001;
}
std::string textOf(size_t row)
{
    return std::string(row % 5, 'x');
}

TEST(AnyGroupsFilter, ThreadsAdmitExactlyTheLimitAndKeepEveryRowOfItsKeys)
{
    constexpr size_t kRows = 200'000;
    constexpr size_t kBatchRows = 1'000;
    constexpr size_t kThreads = 64;
    constexpr size_t kGroups = 100;
    Column numbers(TypeId::UInt64);
    Column texts(TypeId::String);
    for (size_t row = 0; row < kRows; ++row)
    {
        numbers.append(numberOf(row));
        texts.appendString(textOf(row));
    }
    AnyGroupsFilter filter({0, 1}, kGroups);
    std::vector<std::vector<uint32_t>> selected_by_batch(kRows / kBatchRows);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t)
    {
        threads.emplace_back(
            [&, t]
            {
                std::vector<uint64_t> hashes;
                for (size_t batch = t; batch < selected_by_batch.size(); batch += kThreads)
                {
                    const size_t begin = batch * kBatchRows;
                    const std::vector<ColumnView> columns = {
                        numbers.view().slice(begin, kBatchRows),
                        texts.view().slice(begin, kBatchRows)};
                    filter.select(columns, kBatchRows, hashes, selected_by_batch[batch]);
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    std::set<std::pair<uint64_t, std::string>> admitted;
    std::vector<bool> selected(kRows, false);
    size_t selected_rows = 0;
    for (size_t batch = 0; batch < selected_by_batch.size(); ++batch)
    {
        for (const uint32_t offset : selected_by_batch[batch])
        {
            const size_t row = batch * kBatchRows + offset;
            selected[row] = true;
            admitted.insert({numberOf(row), textOf(row)});
            ++selected_rows;
        }
    }
    EXPECT_EQ(admitted.size(), kGroups);
    for (size_t row = 0; row < kRows; ++row)
    {
        ASSERT_EQ(selected[row], admitted.count({numberOf(row), textOf(row)}) == 1) << row;
    }
    EXPECT_EQ(filter.droppedRows(), kRows - selected_rows);
}

TEST(AnyGroupsFilter, KeysAreEqualWhenTheirBytesAre)
{
    // ("ab", "c") and ("a", "bc") are two keys; -0.0 and 0.0 are two; a NaN equals itself.
    Column first(TypeId::String);
    Column second(TypeId::String);
    Column number(TypeId::Float64);
    const auto add = [&](std::string_view a, std::string_view b, double x)
    {
        first.appendString(a);
        second.appendString(b);
        number.append(x);
    };
    add("ab", "c", 0.0);
    add("a", "bc", 0.0);
    add("ab", "c", -0.0);
    add("ab", "c", NAN);
    add("ab", "c", 0.0);
    add("a", "bc", 0.0);
    add("ab", "c", NAN);
    add("abc", "", 0.0);
    add("ab", "c", -0.0);
    const std::vector<ColumnView> columns = {first.view(), second.view(), number.view()};
    AnyGroupsFilter filter({0, 1, 2}, 4);
    std::vector<uint64_t> hashes;
    std::vector<uint32_t> selected;
    filter.select(columns, number.size(), hashes, selected);
    EXPECT_EQ(selected, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 8}));
    EXPECT_EQ(filter.droppedRows(), 1u);

    // Frozen now: the same keys pass, another does not.
    selected.clear();
    filter.select(columns, number.size(), hashes, selected);
    EXPECT_EQ(selected, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 8}));
}

TEST(AnyGroupsFilter, RefusesLimitsOutsideItsBound)
{
    EXPECT_THROW(AnyGroupsFilter({0}, 0), Exception);
    EXPECT_THROW(AnyGroupsFilter({0}, AnyGroupsFilter::kMaxGroups + 1), Exception);
    EXPECT_NO_THROW(AnyGroupsFilter({0}, AnyGroupsFilter::kMaxGroups));
}

}  // namespace
}  // namespace granary
