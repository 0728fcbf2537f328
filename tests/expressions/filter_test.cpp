// filterRows equals evaluating the condition and keeping the non-zero rows; gatherRows copies.
#include "engine/expressions/filter.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

constexpr size_t kRows = 5000;

Block hitsLikeBlock()
{
    std::mt19937_64 random(11);
    Block block;
    block.columns.push_back({"CounterID", randomColumn(TypeId::Int32, kRows, random)});
    block.columns.push_back({"IsRefresh", randomColumn(TypeId::Int16, kRows, random)});
    block.columns.push_back({"TraficSourceID", randomColumn(TypeId::Int16, kRows, random)});
    block.columns.push_back({"EventDate", randomColumn(TypeId::Date, kRows, random)});
    block.columns.push_back({"URL", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"Title", randomColumn(TypeId::String, kRows, random)});
    block.columns.push_back({"Ratio", randomColumn(TypeId::Float64, kRows, random)});
    return block;
}

TEST(Filter, EqualsEvaluateThenSelect)
{
    const Block block = hitsLikeBlock();
    const BlockView view = BlockView::of(block);
    const std::vector<std::string> conditions = {
        "IsRefresh = 0",
        "IsRefresh <> 0",
        "URL <> ''",
        "URL LIKE '%google%'",
        "URL LIKE '%google%' AND Title <> ''",
        "Title LIKE '%Go%' AND URL NOT LIKE '%.go%' AND URL <> ''",
        "CounterID < 50 AND EventDate >= '1970-01-02' AND EventDate <= '2100-07-31' AND "
        "IsRefresh = 0 AND TraficSourceID IN (-1, 6, 0)",
        "IsRefresh = 0 AND CounterID % 3 = 1",
        "IsRefresh = 0 AND (URL LIKE '%o%' OR Ratio > 0)",
        "IsRefresh > 100 AND length(URL) > 3",
        "CounterID",
        "NOT IsRefresh AND CounterID > 0",
        "IsRefresh = 0 AND lower(URL) ILIKE 'G%'",
        // LIKE '%x%' after a tenth of the rows survive (the whole column searched) and after
        // a hundredth (the survivors one by one).
        "CounterID % 10 = 0 AND URL LIKE '%a%'",
        "CounterID % 10 = 0 AND URL NOT LIKE '%a%'",
        "CounterID % 100 = 0 AND URL LIKE '%a%'",
        "CounterID % 100 = 0 AND URL NOT LIKE '%a%'",
        "1",
        "0",
        "1 = 1 AND IsRefresh = 0",
        "IsRefresh = 70000",
    };
    const std::vector<std::pair<size_t, size_t>> ranges = {{0, kRows},   {0, 0}, {17, 1000},
                                                           {4000, 1000}, {1, 1}, {100, 3000}};
    for (const std::string& text : conditions)
    {
        SCOPED_TRACE(text);
        const CompiledExpression condition = compileText(text, block);
        for (const auto& [begin, count] : ranges)
        {
            Column holder;
            const ColumnView values = condition.evaluate(view, begin, count, holder);
            Column values_copy(values.type);
            values_copy.appendRange(values, 0, count);
            std::vector<uint32_t> expected = {42};
            for (size_t row = 0; row < count; ++row)
            {
                if (bitsAt(values_copy, row) != 0)
                {
                    expected.push_back(static_cast<uint32_t>(row));
                }
            }
            std::vector<uint32_t> selected = {42};  // appended to, never cleared
            filterRows(condition, view, begin, count, selected);
            ASSERT_EQ(selected, expected) << begin << "+" << count;
            std::vector<uint32_t> fresh;  // an empty selection is built in place
            filterRows(condition, view, begin, count, fresh);
            ASSERT_EQ(fresh, std::vector<uint32_t>(expected.begin() + 1, expected.end()));
        }
    }
}

TEST(Filter, MaskedRowsEqualANaiveSelection)
{
    std::mt19937_64 random(5);
    for (const size_t count : {0, 1, 7, 8, 9, 63, 64, 65, 1000, 8193})
    {
        for (const double density : {0.0, 0.001, 0.05, 0.5, 0.97, 1.0})
        {
            std::bernoulli_distribution passes(density);
            std::vector<uint8_t> mask(count);
            for (uint8_t& byte : mask)
            {
                byte = passes(random) ? uint8_t(1 + random() % 255) : 0;
            }
            std::vector<uint32_t> expected;
            std::vector<uint32_t> expected_even;  // of the even rows only
            for (size_t row = 0; row < count; ++row)
            {
                if (mask[row] != 0)
                {
                    expected.push_back(uint32_t(row));
                    if (row % 2 == 0)
                    {
                        expected_even.push_back(uint32_t(row));
                    }
                }
            }
            std::vector<uint32_t> selected = {9, 9, 9};  // overwritten, not appended to
            selectMaskedRows(mask.data(), count, selected);
            ASSERT_EQ(selected, expected) << count << " rows, density " << density;
            // keepMaskedRows over every row (built from the mask) and over a part of them.
            std::vector<uint32_t> every(count);
            std::iota(every.begin(), every.end(), uint32_t{0});
            keepMaskedRows(mask.data(), count, every);
            ASSERT_EQ(every, expected) << count << " rows, density " << density;
            std::vector<uint32_t> even;
            for (size_t row = 0; row < count; row += 2)
            {
                even.push_back(uint32_t(row));
            }
            if (even.size() < count)
            {
                keepMaskedRows(mask.data(), count, even);
                ASSERT_EQ(even, expected_even) << count << " rows, density " << density;
            }
        }
    }
}

TEST(Filter, AndChainSkipsErrorsOnDroppedRows)
{
    Block block;
    block.columns.push_back({"d", Column(TypeId::Int32)});
    for (int32_t value : {0, 2, 0, 5})
    {
        block.columns[0].column.append(value);
    }
    const CompiledExpression condition = compileText("d <> 0 AND 10 % d = 0", block);
    std::vector<uint32_t> selected;
    filterRows(condition, BlockView::of(block), 0, 4, selected);
    EXPECT_EQ(selected, (std::vector<uint32_t>{1, 3}));
}

TEST(Filter, RejectsNonIntegerConditions)
{
    const Block block = hitsLikeBlock();
    std::vector<uint32_t> selected;
    EXPECT_THROW(filterRows(compileText("URL", block), BlockView::of(block), 0, 10, selected),
                 Exception);
    EXPECT_THROW(filterRows(compileText("Ratio", block), BlockView::of(block), 0, 10, selected),
                 Exception);
}

TEST(Gather, CopiesChosenRowsOfEveryType)
{
    const Block block = hitsLikeBlock();
    const BlockView view = BlockView::of(block);
    const std::vector<uint32_t> offsets = {0, 3, 3, 99, 7, 1};
    for (const BlockView::Entry& entry : view.columns)
    {
        Column gathered;
        gatherRows(entry.column, 10, offsets, gathered);
        gatherRows(entry.column, 20, offsets, gathered);
        ASSERT_EQ(gathered.type(), entry.column.type);
        ASSERT_EQ(gathered.size(), 2 * offsets.size());
        for (size_t i = 0; i < gathered.size(); ++i)
        {
            const size_t row = (i < offsets.size() ? 10 : 20) + offsets[i % offsets.size()];
            if (isString(entry.column.type))
            {
                ASSERT_EQ(gathered.stringAt(i), entry.column.stringAt(row));
            }
            else
            {
                const Column& source = *block.find(entry.name);
                ASSERT_EQ(bitsAt(gathered, i), bitsAt(source, row));
                ASSERT_EQ(numericAt(gathered, i), numericAt(source, row));
            }
        }
    }
    Column wrong(TypeId::Int8);
    wrong.append<int8_t>(1);
    EXPECT_THROW(gatherRows(view.columns[0].column, 0, offsets, wrong), Exception);
}

TEST(Gather, KeepsNulls)
{
    for (const TypeId type : {TypeId::Int32, TypeId::String})
    {
        Column source(type);
        for (int row = 0; row < 20; ++row)
        {
            if (type == TypeId::String)
            {
                source.appendString(std::to_string(row));
            }
            else
            {
                source.append<int32_t>(row);
            }
            if (row % 3 == 0)
            {
                source.setNull(static_cast<size_t>(row));
            }
        }
        const std::vector<uint32_t> offsets = {0, 1, 3, 4, 9, 10};
        Column gathered(type);
        gatherRows(source.view(), 0, offsets, gathered);
        gatherRows(source.view(), 2, offsets, gathered);
        ASSERT_EQ(gathered.size(), 2 * offsets.size());
        for (size_t i = 0; i < gathered.size(); ++i)
        {
            const size_t row = (i < offsets.size() ? 0 : 2) + offsets[i % offsets.size()];
            EXPECT_EQ(gathered.isNull(i), source.isNull(row)) << typeName(type) << " row " << i;
        }
    }
}

}  // namespace
}  // namespace granary::testing
