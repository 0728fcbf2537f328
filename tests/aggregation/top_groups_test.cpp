// TopGroups: an aggregation asked for its first N groups in some order finalizes only the
// groups that can be among them. Sorting and limiting its result must give what sorting and
// limiting the full result gives.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/aggregation/aggregator.h"
#include "engine/columns/sort_permutation.h"
#include "engine/common/exception.h"
#include "reference_aggregator.h"
#include "test_table.h"

namespace granary
{
namespace
{

/// One key set per key method (direct-mapped, 32/64-bit, packed into 8, 16 or 32 bytes,
/// string, serialized).
const std::vector<std::vector<std::string>> kKeySets = {
    {"k_u8"},           {"k_u16"},          {"k_u32"},
    {"k_u64"},          {"k_str"},          {"k_u32", "k_u16"},
    {"k_u64", "k_i32"}, {"k_str", "k_u32"}, {"k_u64", "k_i64", "k_u32"},
};

const std::vector<AggregateDescription> kAggregates = {
    {"count", {}, "c"},
    {"sum", {"v_u32"}, "s"},
    {"min", {"v_str"}, "m"},
    {"uniqExact", {"v_u32"}, "u"},
};

/// 30,000 rows in 3,000 groups of about ten rows: the counts tie by the hundred.
constexpr size_t kRows = 30'000;
constexpr uint64_t kGroups = 3'000;

std::string printRow(const Block& block, size_t row, const std::vector<size_t>& columns)
{
    std::string printed;
    for (size_t c : columns)
    {
        printed += testing::printValue(testing::valueAt(block.columns[c].column.view(), row));
        printed += '|';
    }
    return printed;
}

size_t columnIndex(const Block& block, const std::string& name)
{
    for (size_t c = 0; c < block.columns.size(); ++c)
    {
        if (block.columns[c].name == name)
        {
            return c;
        }
    }
    ADD_FAILURE() << "no column " << name;
    return 0;
}

std::vector<size_t> allColumns(const Block& block)
{
    std::vector<size_t> columns(block.columns.size());
    for (size_t c = 0; c < columns.size(); ++c)
    {
        columns[c] = c;
    }
    return columns;
}

/// The first top.rows rows of `block` in top's order (ties in row order), printed.
std::vector<std::string> firstRows(const Block& block, const TopGroups& top,
                                   const std::vector<size_t>& columns)
{
    std::vector<SortKey> keys;
    for (const TopGroups::OrderColumn& order : top.order)
    {
        keys.push_back({block.find(order.name)->view(), order.descending});
    }
    std::vector<std::string> rows;
    for (uint32_t row : sortedPermutation(keys, block.rows(), top.rows))
    {
        rows.push_back(printRow(block, row, columns));
    }
    return rows;
}

std::vector<TopGroups> requests(const std::vector<std::string>& keys)
{
    return {
        {{{"c", true}}, 10},
        {{{"c", true}, {keys[0], false}}, 10},
        {{{"c", true}}, 1},
        {{{"s", false}, {keys[0], true}}, 37},
        {{{keys.back(), false}}, 5},
        {{{"m", true}, {"u", false}}, 200},
        {{{"c", false}}, 0},
        {{{"c", true}}, 100'000},
        {{}, 25},
    };
}

/// For every key set and every request that orders by columns `aggregates` produce: the kept
/// rows sorted are the full result's first rows.
void expectTopRowsMatchTheFullResult(size_t threads, bool two_level,
                                     const std::vector<AggregateDescription>& aggregates)
{
    const Block table = testing::makeTestTable(
        kRows, [](size_t row) { return (row * 0x9E3779B97F4A7C15ULL >> 20) % kGroups; }, 29);
    const BlockView input = BlockView::of(table);
    AggregationSettings settings;
    settings.morsel_rows = 500;
    settings.deterministic_morsels = true;
    settings.max_threads = threads;
    settings.group_by_two_level_threshold = two_level ? 20 : 1'000'000'000;
    // The finalize's top is tested here; a request without order would otherwise aggregate
    // only its first keys (AnyGroupsFilter, tests/planner/any_groups_test.cpp).
    settings.limit_to_any_groups = false;
    for (const auto& keys : kKeySets)
    {
        const Aggregator aggregator(keys, aggregates, settings);
        QueryContext full_context(threads);
        const Block full = aggregator.execute(input, full_context);
        EXPECT_EQ(full_context.stats().unfinalized_groups, 0u);
        std::vector<size_t> key_columns(keys.size());
        for (size_t k = 0; k < keys.size(); ++k)
        {
            key_columns[k] = k;
        }
        std::map<std::string, std::string> full_row_of_key;
        for (size_t row = 0; row < full.rows(); ++row)
        {
            full_row_of_key[printRow(full, row, key_columns)] =
                printRow(full, row, allColumns(full));
        }
        for (const TopGroups& top : requests(keys))
        {
            if (std::any_of(top.order.begin(), top.order.end(),
                            [&](const auto& order) { return full.find(order.name) == nullptr; }))
            {
                continue;
            }
            SCOPED_TRACE("keys " + keys[0] + (keys.size() > 1 ? ",..." : "") + " order " +
                         (top.order.empty() ? std::string("none") : top.order[0].name) + " rows " +
                         std::to_string(top.rows));
            QueryContext context(threads);
            const Block kept = aggregator.execute(input, context, &top);
            EXPECT_EQ(context.stats().unfinalized_groups + kept.rows(), full.rows());
            // Each of up to 256 fragments (buckets, key ranges) keeps its own first top.rows.
            if (top.rows * 256 < full.rows())
            {
                EXPECT_GT(context.stats().unfinalized_groups, 0u);
            }
            const std::vector<std::string> expected = firstRows(full, top, allColumns(full));
            const std::vector<std::string> got = firstRows(kept, top, allColumns(kept));
            if (threads == 1)
            {
                // One thread builds the same tables twice: the very same rows, ties included.
                EXPECT_EQ(got, expected);
                continue;
            }
            // More threads merge partials in another order each run, which reorders ties: the
            // ordered values must agree, and each row must be its group's full row.
            std::vector<size_t> order_columns;
            for (const TopGroups::OrderColumn& order : top.order)
            {
                order_columns.push_back(columnIndex(full, order.name));
            }
            EXPECT_EQ(firstRows(kept, top, order_columns), firstRows(full, top, order_columns));
            const std::vector<std::string> got_keys = firstRows(kept, top, key_columns);
            for (size_t i = 0; i < got.size(); ++i)
            {
                EXPECT_EQ(got[i], full_row_of_key[got_keys[i]]);
            }
        }
    }
}

class TopGroupsTest : public ::testing::TestWithParam<std::tuple<size_t, bool>>
{
};

TEST_P(TopGroupsTest, SortedFirstRowsMatchTheFullResult)
{
    const auto [threads, two_level] = GetParam();
    expectTopRowsMatchTheFullResult(threads, two_level, kAggregates);
}

/// A lone count keeps its counts in the table cells (inline_count.h), finalized another way.
TEST_P(TopGroupsTest, SortedFirstRowsOfALoneCountMatchTheFullResult)
{
    const auto [threads, two_level] = GetParam();
    expectTopRowsMatchTheFullResult(threads, two_level, {{"count", {}, "c"}});
}

INSTANTIATE_TEST_SUITE_P(Threads, TopGroupsTest,
                         ::testing::Combine(::testing::Values(size_t{1}, size_t{7}, size_t{64}),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<std::tuple<size_t, bool>>& info)
                         {
                             return std::to_string(std::get<0>(info.param)) + "Threads" +
                                    (std::get<1>(info.param) ? "TwoLevel" : "SingleLevel");
                         });

/// Three columns of `count` values with many ties, for tests of one-column orders: integers
/// (Int, of type `integer`: around zero where signed), floats (Float, of type `floating`: every
/// seventh NaN) and strings.
template <typename Int, typename Float>
std::vector<Column> tiedColumns(size_t count, TypeId integer, TypeId floating)
{
    std::vector<Column> columns;
    columns.emplace_back(integer);
    columns.emplace_back(floating);
    columns.emplace_back(TypeId::String);
    for (size_t i = 0; i < count; ++i)
    {
        const uint64_t mixed = i * 0x9E3779B97F4A7C15ULL >> 40;
        columns[0].append(Int(int(mixed % 61) - (std::is_signed_v<Int> ? 30 : 0)));
        columns[1].append(mixed % 7 == 0 ? std::numeric_limits<Float>::quiet_NaN()
                                         : Float(mixed % 300) / 4);
        columns[2].appendString("s" + std::to_string(mixed % 90));
    }
    return columns;
}

/// topCandidates against a full sort of one column: every row of the first `limit` is a
/// candidate, and a candidate is never worse than the limit-th row's value.
TEST(TopCandidates, AreTheRowsNoWorseThanTheLimitThBest)
{
    constexpr size_t kValues = 2'000;
    const std::vector<Column> columns =
        tiedColumns<uint32_t, double>(kValues, TypeId::UInt32, TypeId::Float64);
    for (const Column* column : {&columns[0], &columns[1], &columns[2]})
    {
        for (const bool descending : {false, true})
        {
            for (const size_t limit : {size_t{1}, size_t{10}, size_t{333}, kValues - 1})
            {
                SCOPED_TRACE(std::string(typeName(column->type())) +
                             (descending ? " desc " : " asc ") + std::to_string(limit));
                const SortKey key{column->view(), descending};
                const std::vector<uint32_t> candidates = topCandidates(key, kValues, limit);
                ASSERT_TRUE(std::is_sorted(candidates.begin(), candidates.end()));
                const std::vector<uint32_t> sorted = sortedPermutation({key}, kValues, kValues);
                for (size_t i = 0; i < limit; ++i)
                {
                    EXPECT_TRUE(
                        std::binary_search(candidates.begin(), candidates.end(), sorted[i]));
                }
                // No candidate sorts after the last row tied with the limit-th one.
                std::vector<uint32_t> rank(kValues);
                for (size_t i = 0; i < kValues; ++i)
                {
                    rank[sorted[i]] = uint32_t(i);
                }
                size_t last_tied = limit - 1;
                const auto same = [&](uint32_t a, uint32_t b)
                {
                    return testing::printValue(testing::valueAt(column->view(), a)) ==
                           testing::printValue(testing::valueAt(column->view(), b));
                };
                while (last_tied + 1 < kValues && same(sorted[last_tied + 1], sorted[limit - 1]))
                {
                    ++last_tied;
                }
                EXPECT_EQ(candidates.size(), last_tied + 1);
                for (const uint32_t row : candidates)
                {
                    EXPECT_LE(rank[row], last_tied);
                }
            }
        }
    }
}

/// lastInOrder and rowsAheadOf, which bound the groups a top's pool lets in, against a full
/// sort of one column: the last row sorts last, and the rows ahead of a bound are those that
/// sort before the first row tied with it (or, with ties, no later than the last).
TEST(TopBound, LastRowAndRowsAheadOfABoundFollowTheSortOrder)
{
    constexpr size_t kValues = 1'000;
    const std::vector<Column> columns =
        tiedColumns<int16_t, float>(kValues, TypeId::Int16, TypeId::Float32);
    for (const Column* column : {&columns[0], &columns[1], &columns[2]})
    {
        for (const bool descending : {false, true})
        {
            SCOPED_TRACE(std::string(typeName(column->type())) + (descending ? " desc" : " asc"));
            const SortKey key{column->view(), descending};
            const std::vector<uint32_t> sorted = sortedPermutation({key}, kValues, kValues);
            const auto print = [&](uint32_t row)
            { return testing::printValue(testing::valueAt(column->view(), row)); };
            const std::optional<uint32_t> last = lastInOrder(key, kValues);
            ASSERT_TRUE(last.has_value());
            EXPECT_EQ(print(*last), print(sorted.back()));
            for (const size_t bound_rank : {size_t{0}, size_t{9}, size_t{500}, kValues - 1})
            {
                const uint32_t bound = sorted[bound_rank];
                size_t first_tied = bound_rank;
                while (first_tied > 0 && print(sorted[first_tied - 1]) == print(bound))
                {
                    --first_tied;
                }
                size_t end_tied = bound_rank + 1;
                while (end_tied < kValues && print(sorted[end_tied]) == print(bound))
                {
                    ++end_tied;
                }
                for (const bool with_ties : {false, true})
                {
                    std::vector<uint32_t> expected(
                        sorted.begin(),
                        sorted.begin() + std::ptrdiff_t(with_ties ? end_tied : first_tied));
                    std::sort(expected.begin(), expected.end());
                    std::vector<uint32_t> rows{7, 7};  // replaced, not appended to
                    rowsAheadOf(column->view(), descending, column->view(), bound, with_ties, rows);
                    EXPECT_EQ(rows, expected)
                        << "bound rank " << bound_rank << (with_ties ? " with ties" : "");
                }
            }
        }
    }
    // NULLs bound nothing: no last row, and every row passes.
    Column with_null(TypeId::UInt64);
    with_null.append(uint64_t{3});
    with_null.appendNull();
    with_null.append(uint64_t{1});
    EXPECT_FALSE(lastInOrder({with_null.view(), true}, 3).has_value());
    std::vector<uint32_t> rows;
    rowsAheadOf(with_null.view(), true, columns[0].view(), 0, false, rows);
    EXPECT_EQ(rows, (std::vector<uint32_t>{0, 1, 2}));
}

TEST(TopGroups, AnOrderColumnThatIsNotInTheResultIsNamed)
{
    const Block table = testing::makeTestTable(
        100, [](size_t row) { return row % 10; }, 3);
    const Aggregator aggregator({"k_u64"}, kAggregates);
    QueryContext context(1);
    const TopGroups top{{{"v_u32", true}}, 3};
    try
    {
        aggregator.execute(BlockView::of(table), context, &top);
        FAIL() << "no exception";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownColumn);
        EXPECT_NE(std::string(error.what()).find("v_u32"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace granary
