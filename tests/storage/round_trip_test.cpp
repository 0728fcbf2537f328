#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/common/exception.h"
#include "engine/storage/database.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

std::shared_ptr<Database> openDatabase(bool on_disk, const TemporaryFolder& folder)
{
    return on_disk ? Database::open(folder.path()) : Database::openInMemory();
}

class RoundTrip : public ::testing::TestWithParam<bool>
{
};

TEST_P(RoundTrip, InsertedValuesReadBackIdenticalAndSorted)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate(kAllTypesTable));
    std::vector<Block> blocks;
    blocks.push_back(randomAllTypesBlock(30000, 1));
    blocks.push_back(randomAllTypesBlock(7, 2));
    const std::vector<std::string> expected = sortedRows(blocks);
    database->insert("t", blocks, 2);

    auto check = [&](const Database& db)
    {
        const auto table = db.table("t");
        const auto snapshot = table->snapshot();
        EXPECT_EQ(snapshot->rows(), 30007u);
        EXPECT_EQ(sortedRows(*snapshot), expected);
        const size_t k = *table->schema().indexOf("k");
        const size_t s = *table->schema().indexOf("s");
        for (const auto& part : snapshot->parts)
        {
            EXPECT_LE(part->rows(), Table::kMaxPartRows);
            const WholeColumn key_column(*part, k);
            const WholeColumn string_column(*part, s);
            const ColumnView keys = key_column.view();
            const ColumnView strings = string_column.view();
            for (size_t row = 1; row < part->rows(); ++row)
            {
                const auto previous =
                    std::make_pair(keys.valueAt<int32_t>(row - 1), strings.stringAt(row - 1));
                const auto current =
                    std::make_pair(keys.valueAt<int32_t>(row), strings.stringAt(row));
                ASSERT_LE(previous, current) << "row " << row;
            }
        }
    };
    check(*database);
    if (GetParam())
    {
        database.reset();
        check(*Database::open(folder.path()));
    }
}

TEST_P(RoundTrip, SnapshotTakenBeforeAnInsertDoesNotSeeIt)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate(kAllTypesTable));
    database->insert("t", {randomAllTypesBlock(100, 3)});
    const auto before = database->table("t")->snapshot();
    const std::vector<std::string> rows_before = sortedRows(*before);
    database->insert("t", {randomAllTypesBlock(50, 4)});
    EXPECT_EQ(before->rows(), 100u);
    EXPECT_EQ(sortedRows(*before), rows_before);
    EXPECT_EQ(database->table("t")->snapshot()->rows(), 150u);
}

TEST_P(RoundTrip, LargeInsertIsSplitIntoParts)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate("CREATE TABLE n (x UInt32) ORDER BY x"));
    Block block;
    block.columns.push_back({"x", Column(TypeId::UInt32)});
    const size_t rows = 2 * Table::kMaxPartRows + 5;
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.append(static_cast<uint32_t>((row * 2654435761u) % 1000003));
    }
    database->insert("n", {std::move(block)}, 2);
    const auto snapshot = database->table("n")->snapshot();
    EXPECT_EQ(snapshot->parts.size(), 3u);
    EXPECT_EQ(snapshot->rows(), rows);
}

TEST_P(RoundTrip, GranuleBoundsEqualNaiveMinMaxOfEachSlice)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate(kAllTypesTable));
    database->insert("t", {randomAllTypesBlock(50000, 5)});
    if (GetParam())
    {
        database = Database::open(folder.path());
    }
    const auto table = database->table("t");
    const auto snapshot = table->snapshot();
    ASSERT_EQ(snapshot->parts.size(), 1u);
    const auto& part = *snapshot->parts[0];
    EXPECT_EQ(part.granules(), (50000 + 8191) / 8192);
    const WholeColumn key_column(part, *table->schema().indexOf("k"));
    const WholeColumn string_column(part, *table->schema().indexOf("s"));
    const ColumnView keys = key_column.view();
    const ColumnView strings = string_column.view();
    for (size_t granule = 0; granule < part.granules(); ++granule)
    {
        const size_t begin = granule * Part::kGranuleRows;
        const size_t end = std::min(part.rows(), begin + Part::kGranuleRows);
        int32_t least_key = keys.valueAt<int32_t>(begin), greatest_key = least_key;
        std::string_view least_string = strings.stringAt(begin), greatest_string = least_string;
        for (size_t row = begin; row < end; ++row)
        {
            least_key = std::min(least_key, keys.valueAt<int32_t>(row));
            greatest_key = std::max(greatest_key, keys.valueAt<int32_t>(row));
            least_string = std::min(least_string, strings.stringAt(row));
            greatest_string = std::max(greatest_string, strings.stringAt(row));
        }
        EXPECT_EQ(part.granuleMin(0).valueAt<int32_t>(granule), least_key);
        EXPECT_EQ(part.granuleMax(0).valueAt<int32_t>(granule), greatest_key);
        EXPECT_EQ(part.granuleMin(1).stringAt(granule), least_string);
        EXPECT_EQ(part.granuleMax(1).stringAt(granule), greatest_string);
    }
}

TEST_P(RoundTrip, CatalogOperations)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate("CREATE TABLE b (x UInt8)"));
    createTable(*database, parseCreate("CREATE TABLE `a/../weird name` (x UInt8)"));
    EXPECT_EQ(database->tableNames(), (std::vector<std::string>{"a/../weird name", "b"}));
    try
    {
        createTable(*database, parseCreate("CREATE TABLE b (y String)"));
        FAIL() << "expected kTableAlreadyExists";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kTableAlreadyExists);
        EXPECT_NE(std::string(error.what()).find("'b'"), std::string::npos);
    }
    createTable(*database, parseCreate("CREATE TABLE IF NOT EXISTS b (y String)"));
    EXPECT_EQ(database->table("b")->schema().columns[0].name, "x");
    createTable(*database, parseCreate("CREATE OR REPLACE TABLE b (y String)"));
    EXPECT_EQ(database->table("b")->schema().columns[0].name, "y");
    database->dropTable("a/../weird name", false);
    database->dropTable("missing", true);
    try
    {
        database->table("missing");
        FAIL() << "expected kUnknownTable";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownTable);
        EXPECT_NE(std::string(error.what()).find("missing"), std::string::npos);
    }
    EXPECT_THROW(database->dropTable("missing", false), Exception);
    if (GetParam())
    {
        database = Database::open(folder.path());
        EXPECT_EQ(database->tableNames(), (std::vector<std::string>{"b"}));
        EXPECT_EQ(database->table("b")->schema().columns[0].type, TypeId::String);
    }
}

TEST_P(RoundTrip, InsertWithWrongColumnsIsRefusedAndChangesNothing)
{
    TemporaryFolder folder;
    auto database = openDatabase(GetParam(), folder);
    createTable(*database, parseCreate("CREATE TABLE t (x UInt8, y String)"));
    Block wrong_type;
    wrong_type.columns.push_back({"x", Column(TypeId::UInt16)});
    wrong_type.columns.push_back({"y", Column(TypeId::String)});
    Block good;
    good.columns.push_back({"x", Column(TypeId::UInt8)});
    good.columns.push_back({"y", Column(TypeId::String)});
    good.columns[0].column.append(uint8_t{1});
    good.columns[1].column.appendString("one");
    try
    {
        database->insert("t", {good, std::move(wrong_type)});
        FAIL() << "expected kTypeMismatch";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kTypeMismatch);
        EXPECT_NE(std::string(error.what()).find("'x'"), std::string::npos);
    }
    EXPECT_EQ(database->table("t")->snapshot()->rows(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Storage, RoundTrip, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "OnDisk" : "InMemory"; });

TEST(TableSchema, ClickBenchCreateStatementMakesATable)
{
    const char* from_environment = std::getenv("GRANARY_CLICKBENCH_DIR");
    const std::string directory = from_environment ? from_environment : GRANARY_CLICKBENCH_DIR;
    std::ifstream file(directory + "/clickhouse-create.sql");
    if (!file)
    {
        GTEST_SKIP() << "no ClickBench schema in " << directory;
    }
    std::stringstream text;
    text << file.rdbuf();
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(*database, parseCreate(text.str()));
    database = Database::open(folder.path());
    const TableSchema& schema = database->table("hits")->schema();
    EXPECT_EQ(schema.columns.size(), 105u);
    EXPECT_EQ(schema.sort_key, (std::vector<std::string>{"CounterID", "EventDate", "UserID",
                                                         "EventTime", "WatchID"}));
    EXPECT_EQ(schema.columns[*schema.indexOf("EventTime")].type, TypeId::DateTime);
    EXPECT_EQ(schema.columns[*schema.indexOf("URL")].type, TypeId::String);
}

TEST(TableSchema, KeyErrorsNameTheColumn)
{
    try
    {
        tableSchemaOf(parseCreate("CREATE TABLE t (a UInt8) ORDER BY nope"));
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownColumn);
        EXPECT_NE(std::string(error.what()).find("nope"), std::string::npos);
    }
    try
    {
        tableSchemaOf(parseCreate("CREATE TABLE t (a UInt8, a String)"));
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("'a'"), std::string::npos);
    }
}

}  // namespace
}  // namespace granary::storage_test
