#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "engine/common/exception.h"
#include "engine/storage/storage_files.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

std::vector<std::string> rowsOf(const std::filesystem::path& folder)
{
    return sortedRows(*Database::open(folder)->table("t")->snapshot());
}

std::vector<std::string> expectedRows(size_t rows, uint64_t seed)
{
    const Block block = randomAllTypesBlock(rows, seed);
    return sortedRows(std::vector<Block>{block});
}

void rewriteJson(const std::filesystem::path& file,
                 const std::function<void(nlohmann::json&)>& change)
{
    nlohmann::json json = nlohmann::json::parse(readWholeFile(file));
    change(json);
    std::ofstream(file, std::ios::trunc) << json.dump();
}

TEST(FormatVersions, RawAndCompressedTablesHoldTheSameRows)
{
    for (const char* settings :
         {"", " SETTINGS storage_format = 'raw'", " SETTINGS storage_format = 'compressed'"})
    {
        for (const size_t rows : {size_t(1), size_t(8193), size_t(20000)})
        {
            TemporaryFolder folder;
            {
                auto database = Database::open(folder.path());
                createTable(*database, parseCreate(std::string(kAllTypesTable) + settings));
                database->insert("t", {randomAllTypesBlock(rows, rows)});
            }
            EXPECT_EQ(rowsOf(folder.path()), expectedRows(rows, rows)) << settings << rows;
        }
    }
}

TEST(FormatVersions, CompressedIsTheDefaultAndRecordedInTheSchema)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(*database,
                parseCreate("CREATE TABLE t (k UInt32, s String CODEC(ZSTD(3)), PRIMARY KEY (k))"));
    const TableSchema schema = database->table("t")->schema();
    EXPECT_EQ(schema.part_format, PartFormat::kEncoded);
    EXPECT_EQ(schema.columns[1].codec, (encoding::CodecChoice{encoding::Codec::kZSTD, 3}));
    database.reset();
    const TableSchema reopened = Database::open(folder.path())->table("t")->schema();
    EXPECT_EQ(reopened, schema);
}

TEST(FormatVersions, UnknownCodecOrFormatIsRefusedNamingTheCulprit)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    try
    {
        createTable(*database, parseCreate("CREATE TABLE t (k UInt32 CODEC(GZIP)) ORDER BY k"));
        FAIL() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownCompressionMethod);
        EXPECT_NE(std::string(error.what()).find("column 'k'"), std::string::npos);
    }
    EXPECT_THROW(
        createTable(
            *database,
            parseCreate("CREATE TABLE u (k UInt32) ORDER BY k SETTINGS storage_format = 'zip'")),
        Exception);
    EXPECT_TRUE(database->tableNames().empty());
}

/// A part written before metadata named its layout (format 1, raw columns) still reads; a
/// table from before schemas named a storage format keeps writing raw parts.
TEST(FormatVersions, FormatOnePartsStillRead)
{
    TemporaryFolder folder;
    {
        auto database = Database::open(folder.path());
        createTable(*database,
                    parseCreate(std::string(kAllTypesTable) + " SETTINGS storage_format = 'raw'"));
        database->insert("t", {randomAllTypesBlock(9000, 3)});
    }
    const std::filesystem::path table = folder.path() / "t";
    rewriteJson(table / "part_1" / "metadata.json",
                [](nlohmann::json& json)
                {
                    json["format_version"] = 1;
                    json.erase("storage_format");
                });
    rewriteJson(table / "schema.json",
                [](nlohmann::json& json)
                {
                    json.erase("storage_format");
                    for (nlohmann::json& column : json["columns"])
                    {
                        column.erase("codec");
                    }
                });
    EXPECT_EQ(rowsOf(folder.path()), expectedRows(9000, 3));
    {
        auto database = Database::open(folder.path());
        EXPECT_EQ(database->table("t")->schema().part_format, PartFormat::kRaw);
        database->insert("t", {randomAllTypesBlock(100, 4)});
    }
    EXPECT_TRUE(std::filesystem::exists(table / "part_2" / "c0.bin"));
}

TEST(FormatVersions, NewerFormatIsRefusedWithItsVersion)
{
    TemporaryFolder folder;
    {
        auto database = Database::open(folder.path());
        createTable(*database, parseCreate(kAllTypesTable));
        database->insert("t", {randomAllTypesBlock(100, 3)});
    }
    rewriteJson(folder.path() / "t" / "part_1" / "metadata.json",
                [](nlohmann::json& json) { json["format_version"] = 3; });
    try
    {
        Database::open(folder.path());
        FAIL() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kCorruptedData);
        EXPECT_NE(std::string(error.what()).find("format version 3"), std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace granary::storage_test
