#pragma once

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/session/create_table.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/support/temporary_folder.h"

namespace granary::storage_test
{

using testing::TemporaryFolder;

inline sql::CreateTableStatement parseCreate(std::string_view text)
{
    return std::get<sql::CreateTableStatement>(sql::parseStatement(text));
}

/// Every column type, keyed by (k, s).
inline constexpr const char* kAllTypesTable =
    "CREATE TABLE t (u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, i8 Int8, i16 Int16, "
    "k Int32, i64 Int64, f32 Float32, f64 Float64, d Date, dt DateTime, s String, "
    "nu Nullable(UInt32), ns Nullable(String), PRIMARY KEY (k, s))";

/// Random rows for kAllTypesTable: keys repeat (so ties are sorted by the string), strings
/// include empty ones, tabs, newlines, NUL bytes, quotes, backslashes and a few long ones; a
/// quarter of the Nullable columns' rows are NULL.
inline Block randomAllTypesBlock(size_t rows, uint64_t seed)
{
    std::mt19937_64 random(seed);
    const TypeId types[] = {TypeId::UInt8,   TypeId::UInt16,  TypeId::UInt32, TypeId::UInt64,
                            TypeId::Int8,    TypeId::Int16,   TypeId::Int32,  TypeId::Int64,
                            TypeId::Float32, TypeId::Float64, TypeId::Date,   TypeId::DateTime,
                            TypeId::String};
    const char* names[] = {"u8",  "u16", "u32", "u64", "i8", "i16", "k",
                           "i64", "f32", "f64", "d",   "dt", "s"};
    Block block;
    for (size_t index = 0; index < std::size(types); ++index)
    {
        block.columns.push_back({names[index], Column(types[index])});
    }
    block.columns.push_back({"nu", Column(DataType::makeNullable(TypeId::UInt32))});
    block.columns.push_back({"ns", Column(DataType::makeNullable(TypeId::String))});
    const std::string pieces[] = {
        "",         "a",           "tab\there", "new\nline", std::string("nul\0byte", 8),
        "quote\"s", "back\\slash", "comma,",    "é"};
    for (size_t row = 0; row < rows; ++row)
    {
        const uint64_t bits = random();
        block.columns[0].column.append(static_cast<uint8_t>(bits));
        block.columns[1].column.append(static_cast<uint16_t>(bits >> 8));
        block.columns[2].column.append(static_cast<uint32_t>(bits >> 16));
        block.columns[3].column.append(static_cast<uint64_t>(random()));
        block.columns[4].column.append(static_cast<int8_t>(bits >> 3));
        block.columns[5].column.append(static_cast<int16_t>(bits >> 5));
        block.columns[6].column.append(static_cast<int32_t>(random() % 1000) - 500);
        block.columns[7].column.append(static_cast<int64_t>(random()));
        block.columns[8].column.append(static_cast<float>(static_cast<int32_t>(bits)) / 64.0f);
        block.columns[9].column.append(static_cast<double>(static_cast<int64_t>(random())) / 1e6);
        block.columns[10].column.append(static_cast<uint16_t>(random() % 65536));
        block.columns[11].column.append(static_cast<uint32_t>(random()));
        std::string value;
        if (random() % 5000 == 0)
        {
            value.assign(100000 + random() % 1000, 'L');
        }
        else
        {
            for (size_t piece = random() % 4; piece > 0; --piece)
            {
                value += pieces[random() % std::size(pieces)];
            }
        }
        block.columns[12].column.appendString(value);
        if (random() % 4 == 0)
        {
            block.columns[13].column.appendNull();
            block.columns[14].column.appendNull();
        }
        else
        {
            block.columns[13].column.append(static_cast<uint32_t>(bits >> 24));
            block.columns[14].column.appendString(value.substr(0, 16));
        }
    }
    return block;
}

/// One row of `columns` as bytes (strings length-prefixed): rows compare as multisets.
inline std::string encodeRow(const std::vector<ColumnView>& columns, size_t row)
{
    std::string encoded;
    for (const ColumnView& column : columns)
    {
        if (!column.isValid(row))
        {
            encoded += "NULL;";  // whatever value the row holds
        }
        else if (isString(column.type))
        {
            const std::string_view value = column.stringAt(row);
            encoded += std::to_string(value.size()) + ":";
            encoded += value;
        }
        else
        {
            const size_t width = fixedWidth(column.type);
            encoded.append(static_cast<const char*>(column.data) + row * width, width);
        }
    }
    return encoded;
}

inline std::vector<std::string> sortedRows(const std::vector<ColumnView>& columns, size_t rows)
{
    std::vector<std::string> encoded;
    for (size_t row = 0; row < rows; ++row)
    {
        encoded.push_back(encodeRow(columns, row));
    }
    std::sort(encoded.begin(), encoded.end());
    return encoded;
}

inline std::vector<std::string> sortedRows(const std::vector<Block>& blocks)
{
    std::vector<std::string> all;
    for (const Block& block : blocks)
    {
        std::vector<ColumnView> views;
        for (const Block::Entry& entry : block.columns)
        {
            views.push_back(entry.column.view());
        }
        const std::vector<std::string> rows = sortedRows(views, block.rows());
        all.insert(all.end(), rows.begin(), rows.end());
    }
    std::sort(all.begin(), all.end());
    return all;
}

/// A part's column read whole (decoded, when the part is encoded).
class WholeColumn
{
public:
    WholeColumn(const Part& part, size_t column)
        : buffer_(part.columnType(column)), view_(part.read(column, 0, part.rows(), buffer_))
    {
    }
    WholeColumn(const WholeColumn&) = delete;
    WholeColumn& operator=(const WholeColumn&) = delete;

    const ColumnView& view() const { return view_; }

private:
    Column buffer_;
    ColumnView view_;
};

inline std::vector<std::string> sortedRows(const TableSnapshot& snapshot)
{
    std::vector<std::string> all;
    for (const auto& part : snapshot.parts)
    {
        std::vector<std::unique_ptr<WholeColumn>> columns;
        std::vector<ColumnView> views;
        for (size_t column = 0; column < part->columnCount(); ++column)
        {
            columns.push_back(std::make_unique<WholeColumn>(*part, column));
            views.push_back(columns.back()->view());
        }
        const std::vector<std::string> rows = sortedRows(views, part->rows());
        all.insert(all.end(), rows.begin(), rows.end());
    }
    std::sort(all.begin(), all.end());
    return all;
}

}  // namespace granary::storage_test
