// Arrow between DuckDB 1.5.6 and Granary, each checked against the other's own values: DuckDB
// exports generated data (duckdb_data_chunk_to_arrow) that Granary imports, and Granary exports
// blocks (exportBlock) that DuckDB appends to a table and selects back.

#include <gtest/gtest.h>

#include <optional>

#include "engine/arrow/arrow_export.h"
#include "engine/arrow/arrow_import.h"
#include "tests/arrow/arrow_round_trip.h"
#include "tests/arrow/column_rendering.h"
#include "tests/interop/duckdb_session.h"
#include "tests/interop/duckdb_vectors.h"

namespace granary::interop
{
namespace
{

using arrow::ArrowField;
using arrow::testing::kNullText;
using Rendered = std::vector<std::string>;

constexpr size_t kGeneratedRows = 5000;  ///< Three DuckDB chunks, the last one partial.
constexpr size_t kGranaryRows = 3000;
constexpr std::string_view kLargeStringsSetting = "SET arrow_large_buffer_size = true";

/// A column DuckDB generates from the row number i, and what Granary should read it as.
struct GeneratedColumn
{
    std::string name;
    std::string sql_type;
    std::string values;  ///< An SQL expression of i.
    std::string arrow_format;
    TypeId granary_type;
};

const std::vector<GeneratedColumn> kGeneratedColumns = {
    {"utinyint", "UTINYINT", "hash(i) % 256", "C", TypeId::UInt8},
    {"usmallint", "USMALLINT", "hash(i) % 65536", "S", TypeId::UInt16},
    {"uinteger", "UINTEGER", "hash(i) % 4294967296", "I", TypeId::UInt32},
    {"ubigint", "UBIGINT", "hash(i)", "L", TypeId::UInt64},
    {"tinyint", "TINYINT", "(hash(i) % 256)::INTEGER - 128", "c", TypeId::Int8},
    {"smallint", "SMALLINT", "(hash(i) % 65536)::INTEGER - 32768", "s", TypeId::Int16},
    {"integer", "INTEGER", "(hash(i) % 4294967296)::BIGINT - 2147483648", "i", TypeId::Int32},
    {"bigint", "BIGINT", "(hash(i) >> 1)::BIGINT * (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END)", "l",
     TypeId::Int64},
    {"float", "FLOAT", "(hash(i) % 1000000)::FLOAT / 7 - 5000", "f", TypeId::Float32},
    {"double", "DOUBLE", "(hash(i) % 1000000000)::DOUBLE / 13 - 3e7", "g", TypeId::Float64},
    {"date", "DATE", "DATE '1970-01-01' + ((hash(i) % 100000)::INTEGER - 40000)", "tdD",
     TypeId::Int32},
    {"timestamp", "TIMESTAMP",
     "TIMESTAMP '1970-01-01' + to_microseconds((hash(i) % 4000000000000000)::BIGINT - "
     "1000000000000000)",
     "tsu:", TypeId::Int64},
    {"timestamp_s", "TIMESTAMP_S",
     "TIMESTAMP '1970-01-01' + to_seconds((hash(i) % 4000000000)::BIGINT - 1000000000)",
     "tss:", TypeId::Int64},
    {"boolean", "BOOLEAN", "hash(i) % 2 = 0", "b", TypeId::UInt8},
    {"varchar", "VARCHAR",
     "CASE WHEN i % 17 = 0 THEN '' ELSE repeat(chr(97 + (hash(i) % 26)::INTEGER), "
     "(hash(i) % 20)::INTEGER) || i::VARCHAR END",
     "u", TypeId::String},
};

/// NULL rates of the generated columns, in percent.
constexpr int kNullRates[] = {0, 10, 100};

std::string nullCondition(int rate, size_t column)
{
    constexpr int kAllRows = 100;
    return rate == kAllRows
               ? "true"
               : "hash(i * 31 + " + std::to_string(column) + ") % 100 < " + std::to_string(rate);
}

/// Every generated column at every NULL rate ("<name>_<rate>"), then an ENUM (which DuckDB
/// exports dictionary-encoded) and its text, over kGeneratedRows rows.
std::string generatingQuery()
{
    std::string columns;
    for (size_t column = 0; column < kGeneratedColumns.size(); ++column)
    {
        const GeneratedColumn& generated = kGeneratedColumns[column];
        for (const int rate : kNullRates)
        {
            columns += "CASE WHEN " + nullCondition(rate, column) + " THEN NULL ELSE (" +
                       generated.values + ")::" + generated.sql_type + " END AS " + generated.name +
                       "_" + std::to_string(rate) + ", ";
        }
    }
    return "SELECT " + columns +
           "mood, mood::VARCHAR AS mood_text FROM (SELECT i, CASE WHEN hash(i) % 10 = 0 THEN "
           "NULL ELSE (['sad', 'ok', 'happy', 'ecstatic'])[(hash(i) % 4)::INTEGER + 1]::mood "
           "END AS mood FROM range(" +
           std::to_string(kGeneratedRows) + ") AS numbers(i))";
}

class ArrowDuckDb : public ::testing::Test
{
protected:
    void SetUp() override
    {
        try
        {
            session_.emplace(DuckDbArrowApi::load());
        }
        catch (const std::exception& error)
        {
            FAIL() << error.what();
        }
        session_->execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'ecstatic')");
    }

    /// Imports the generated data DuckDB exports and compares every value with DuckDB's own.
    void expectGeneratedDataReads(const std::string& string_format);

    std::optional<DuckDbSession> session_;
};

void expectFields(const std::vector<ArrowField>& fields, const std::string& string_format)
{
    const size_t generated = kGeneratedColumns.size() * std::size(kNullRates);
    ASSERT_EQ(fields.size(), generated + 2);
    for (size_t i = 0; i < generated; ++i)
    {
        const GeneratedColumn& column = kGeneratedColumns[i / std::size(kNullRates)];
        const bool is_string = column.granary_type == TypeId::String;
        EXPECT_EQ(fields[i].format, is_string ? string_format : column.arrow_format)
            << fields[i].name;
        EXPECT_EQ(fields[i].type, column.granary_type) << fields[i].name;
        EXPECT_FALSE(fields[i].dictionary) << fields[i].name;
    }
    const ArrowField& mood = fields[generated];
    EXPECT_TRUE(mood.dictionary);
    EXPECT_EQ(mood.type, TypeId::String);
    EXPECT_EQ(mood.format, "u");
}

void ArrowDuckDb::expectGeneratedDataReads(const std::string& string_format)
{
    std::vector<ArrowField> fields;
    size_t rows = 0;
    std::vector<size_t> nulls;
    session_->queryArrow(
        generatingQuery(),
        [&](const ArrowSchema& schema)
        {
            fields = arrow::importSchema(schema);
            expectFields(fields, string_format);
            nulls.assign(fields.size(), 0);
        },
        [&](const DuckDbSession::Chunk& chunk, const ArrowArray& array)
        {
            const arrow::ImportedBatch batch = arrow::importBatch(array, fields);
            ASSERT_EQ(batch.rows, chunk.rows);
            rows += batch.rows;
            const size_t mood = fields.size() - 2;
            for (size_t column = 0; column < fields.size() - 1; ++column)
            {
                SCOPED_TRACE(fields[column].name);
                const Rendered granary = arrow::testing::renderRows(batch.columns[column]);
                const size_t reference = column == mood ? column + 1 : column;
                EXPECT_EQ(granary, renderDuckDbColumn(session_->api(), chunk, reference));
                nulls[column] += std::count(granary.begin(), granary.end(), kNullText);
            }
        });
    EXPECT_EQ(rows, kGeneratedRows);
    // Rates 0, 10 and 100 percent: none, some, all.
    for (size_t column = 0; column + 2 < fields.size(); column += std::size(kNullRates))
    {
        EXPECT_EQ(nulls[column], 0u) << fields[column].name;
        EXPECT_GT(nulls[column + 1], kGeneratedRows / 20) << fields[column + 1].name;
        EXPECT_LT(nulls[column + 1], kGeneratedRows / 5) << fields[column + 1].name;
        EXPECT_EQ(nulls[column + 2], kGeneratedRows) << fields[column + 2].name;
    }
}

TEST_F(ArrowDuckDb, GeneratedDataReadsAsDuckDbHasIt)
{
    expectGeneratedDataReads("u");
}

TEST_F(ArrowDuckDb, GeneratedDataWithLargeStringsReadsAsDuckDbHasIt)
{
    session_->execute(std::string(kLargeStringsSetting));
    expectGeneratedDataReads("U");
}

template <typename T>
Column columnOf(TypeId type, size_t rows, uint64_t multiplier)
{
    Column column(type);
    column.resizeFixed(rows);
    for (size_t row = 0; row < rows; ++row)
    {
        column.mutableData<T>()[row] = static_cast<T>(row * multiplier + row / 3);
    }
    return column;
}

/// Every Granary type, with NULLs in every column but id (in one column every row).
Block granaryBlock()
{
    Block block;
    block.columns.push_back({"id", columnOf<uint32_t>(TypeId::UInt32, kGranaryRows, 1)});
    block.columns.push_back({"u8", columnOf<uint8_t>(TypeId::UInt8, kGranaryRows, 37)});
    block.columns.push_back({"u16", columnOf<uint16_t>(TypeId::UInt16, kGranaryRows, 4099)});
    block.columns.push_back({"u32", columnOf<uint32_t>(TypeId::UInt32, kGranaryRows, 2654435761)});
    block.columns.push_back(
        {"u64", columnOf<uint64_t>(TypeId::UInt64, kGranaryRows, 0x9E3779B97F4A7C15)});
    block.columns.push_back({"i8", columnOf<int8_t>(TypeId::Int8, kGranaryRows, 59)});
    block.columns.push_back({"i16", columnOf<int16_t>(TypeId::Int16, kGranaryRows, 7919)});
    block.columns.push_back({"i32", columnOf<int32_t>(TypeId::Int32, kGranaryRows, 2246822519)});
    block.columns.push_back(
        {"i64", columnOf<int64_t>(TypeId::Int64, kGranaryRows, 0xC2B2AE3D27D4EB4F)});
    block.columns.push_back({"f32", columnOf<float>(TypeId::Float32, kGranaryRows, 3)});
    block.columns.push_back({"f64", columnOf<double>(TypeId::Float64, kGranaryRows, 1000003)});
    block.columns.push_back({"day", columnOf<uint16_t>(TypeId::Date, kGranaryRows, 23)});
    block.columns.push_back(
        {"moment", columnOf<uint32_t>(TypeId::DateTime, kGranaryRows, 1400009)});
    Column strings(TypeId::String);
    for (size_t row = 0; row < kGranaryRows; ++row)
    {
        strings.appendString(std::string(row % 23, static_cast<char>('a' + row % 26)));
    }
    block.columns.push_back({"s", std::move(strings)});
    Column all_null = columnOf<int32_t>(TypeId::Int32, kGranaryRows, 1);
    for (size_t row = 0; row < kGranaryRows; ++row)
    {
        all_null.setNull(row);
        for (size_t column = 1; column < block.columns.size(); ++column)
        {
            if ((row + column) % 7 == 0)
            {
                block.columns[column].column.setNull(row);
            }
        }
    }
    block.columns.push_back({"nothing", std::move(all_null)});
    return block;
}

/// What DuckDB selects back from a table of granaryBlock()'s columns, in id order.
std::vector<Rendered> selectBack(DuckDbSession& session, const std::string& table)
{
    std::vector<Rendered> columns;
    session.forEachChunk(
        "SELECT * FROM " + table + " ORDER BY id",
        [&](const DuckDbSession::Chunk& chunk)
        {
            columns.resize(chunk.types.size());
            for (size_t column = 0; column < chunk.types.size(); ++column)
            {
                const Rendered rows = renderDuckDbColumn(session.api(), chunk, column);
                columns[column].insert(columns[column].end(), rows.begin(), rows.end());
            }
        });
    return columns;
}

TEST_F(ArrowDuckDb, GranaryBlocksAppendToDuckDbTables)
{
    const Block block = granaryBlock();
    const std::vector<Rendered> expected = arrow::testing::renderBlock(block);
    for (const std::string string_format : {"U", "u"})
    {
        SCOPED_TRACE("strings as " + string_format);
        const std::string table = string_format == "U" ? "large_strings" : "strings";
        session_->execute("CREATE TABLE " + table +
                          " (id UINTEGER, u8 UTINYINT, u16 USMALLINT, u32 UINTEGER, u64 UBIGINT, "
                          "i8 TINYINT, i16 SMALLINT, i32 INTEGER, i64 BIGINT, f32 FLOAT, "
                          "f64 DOUBLE, day DATE, moment TIMESTAMP_S, s VARCHAR, nothing INTEGER)");
        std::vector<std::string> formats(block.columns.size());
        formats[13] = string_format;
        arrow::testing::ExportedBatch exported;
        arrow::exportBlock(Block(block), &exported.array, &exported.schema, formats);
        session_->appendArrow(table, exported.schema, exported.array);
        EXPECT_EQ(exported.array.release, nullptr);  // DuckDB took the array over.
        EXPECT_EQ(selectBack(*session_, table), expected);
    }
}

}  // namespace
}  // namespace granary::interop
