#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/gather.h"

namespace granary
{
namespace
{

/// The naive reference: a Map(String, Array(UInt32)) row as a vector of pairs.
using MapRow = std::vector<std::pair<std::string, std::vector<uint32_t>>>;

const DataType kMapType = DataType::map(TypeId::String, DataType::array(TypeId::UInt32));

void appendRow(Column& column, const MapRow& row)
{
    for (const auto& [key, values] : row)
    {
        column.child(0).appendString(key);
        for (const uint32_t value : values)
        {
            column.child(1).child(0).append(value);
        }
        column.child(1).closeNestedRow();
    }
    column.closeNestedRow();
}

/// Reads row `row` back through views only, as the engine does.
MapRow rowOf(const ColumnView& view, size_t row)
{
    MapRow result;
    const ColumnView& keys = view.children[0];
    const ColumnView& values = view.children[1];
    for (uint64_t entry = view.offsets[row]; entry < view.offsets[row + 1]; ++entry)
    {
        std::vector<uint32_t> array;
        for (uint64_t i = values.offsets[entry]; i < values.offsets[entry + 1]; ++i)
        {
            array.push_back(values.children[0].valueAt<uint32_t>(i));
        }
        result.emplace_back(std::string(keys.stringAt(entry)), std::move(array));
    }
    return result;
}

std::vector<MapRow> randomRows(size_t count, uint32_t seed)
{
    std::mt19937 random(seed);
    std::vector<MapRow> rows(count);
    for (MapRow& row : rows)
    {
        const size_t entries = random() % 4;
        for (size_t e = 0; e < entries; ++e)
        {
            std::vector<uint32_t> values(random() % 3);
            for (uint32_t& value : values)
            {
                value = static_cast<uint32_t>(random());
            }
            row.emplace_back("k" + std::to_string(random() % 100), std::move(values));
        }
    }
    return rows;
}

void expectRows(const Column& column, const std::vector<MapRow>& expected)
{
    ASSERT_EQ(column.size(), expected.size());
    const ColumnView view = column.view();
    for (size_t row = 0; row < expected.size(); ++row)
    {
        EXPECT_EQ(rowOf(view, row), expected[row]) << row;
    }
}

TEST(NestedColumn, BuildsReadsCopiesAndMoves)
{
    const std::vector<MapRow> rows = randomRows(500, 1);
    Column column(kMapType);
    for (const MapRow& row : rows)
    {
        appendRow(column, row);
    }
    expectRows(column, rows);
    EXPECT_EQ(column.dataType(), kMapType);

    Column copy = column;  // Views must point into the copy, which outlives the original.
    Column moved = std::move(column);
    column = Column(kMapType);
    expectRows(copy, rows);
    expectRows(moved, rows);
    expectRows(column, {});
}

TEST(NestedColumn, AppendRangeDefaultsAndGatherMatchTheReference)
{
    const std::vector<MapRow> rows = randomRows(300, 2);
    Column source(kMapType);
    for (const MapRow& row : rows)
    {
        appendRow(source, row);
    }
    Column ranged(kMapType);
    ranged.appendRange(source.view(), 100, 50);
    ranged.appendDefaults(2);
    ranged.appendRange(source.view().slice(7, 10), 3, 4);
    std::vector<MapRow> expected(rows.begin() + 100, rows.begin() + 150);
    expected.resize(expected.size() + 2);
    expected.insert(expected.end(), rows.begin() + 10, rows.begin() + 14);
    expectRows(ranged, expected);

    const std::vector<uint32_t> picks = {5, 0, 299, 5, 42};
    Column gathered(TypeId::UInt8);  // gatherRows gives an empty column the source's type.
    gatherRows(source.view(), 0, picks, gathered);
    std::vector<MapRow> picked;
    for (const uint32_t pick : picks)
    {
        picked.push_back(rows[pick]);
    }
    expectRows(gathered, picked);

    ranged.clear();
    expectRows(ranged, {});
}

TEST(NestedColumn, RefusesUnevenMapsAndMissingChildTypes)
{
    Column column(kMapType);
    column.child(0).appendString("key without a value");
    EXPECT_THROW(column.closeNestedRow(), std::invalid_argument);
    EXPECT_THROW(Column{TypeId::Array}, std::invalid_argument);
}

}  // namespace
}  // namespace granary
