// Parts built from several blocks (TableInsert::addPart, used by gen-hits) and the packed-key
// sort they use, against a naive stable sort and naive granule bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <limits>

#include "engine/common/exception.h"
#include "engine/storage/sort_permutation.h"
#include "engine/storage/storage_files.h"
#include "engine/storage/table_insert.h"
#include "engine/storage/value_order.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// Key columns Int8, Float64 (with NaN, -0 and +0, infinities), UInt16, Int64: few distinct
/// values each, so that ties go deep.
std::vector<Column> randomFixedKeys(size_t rows, uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<Column> keys = {Column(TypeId::Int8), Column(TypeId::Float64),
                                Column(TypeId::UInt16), Column(TypeId::Int64)};
    const double floats[] = {std::numeric_limits<double>::quiet_NaN(),
                             -0.0,
                             0.0,
                             -1.5,
                             2.25,
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::infinity()};
    for (size_t row = 0; row < rows; ++row)
    {
        keys[0].append(static_cast<int8_t>(static_cast<int>(random() % 5) - 2));
        keys[1].append(floats[random() % std::size(floats)]);
        keys[2].append(static_cast<uint16_t>(65534 + random() % 2));
        keys[3].append(static_cast<int64_t>(random() % 3) - 1 + (random() % 2 ? INT64_MIN + 1 : 0));
    }
    return keys;
}

int naiveCompare(const ColumnView& column, size_t left, size_t right)
{
    return dispatchType(column.type,
                        [&]<typename T>(TypeTag<T>)
                        {
                            T a, b;
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                a = column.stringAt(left);
                                b = column.stringAt(right);
                            }
                            else
                            {
                                a = column.valueAt<T>(left);
                                b = column.valueAt<T>(right);
                            }
                            return valueLess(a, b) ? -1 : (valueLess(b, a) ? 1 : 0);
                        });
}

/// sortRows over `pieces` equals std::stable_sort of the concatenated rows.
void expectSortMatchesNaive(const std::vector<std::vector<Column>>& pieces)
{
    std::vector<std::vector<ColumnView>> views;
    std::vector<Column> whole;
    std::vector<SourceRow> positions;
    for (size_t piece = 0; piece < pieces.size(); ++piece)
    {
        views.emplace_back();
        for (size_t key = 0; key < pieces[piece].size(); ++key)
        {
            const ColumnView view = pieces[piece][key].view();
            views.back().push_back(view);
            if (whole.size() <= key)
            {
                whole.emplace_back(view.type);
            }
            whole[key].appendRange(view, 0, view.rows);
        }
        for (size_t row = 0; row < views.back().front().rows; ++row)
        {
            positions.push_back({static_cast<uint32_t>(piece), static_cast<uint32_t>(row)});
        }
    }
    std::vector<size_t> expected(positions.size());
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(),
                     [&](size_t left, size_t right)
                     {
                         for (const Column& key : whole)
                         {
                             if (const int order = naiveCompare(key.view(), left, right);
                                 order != 0)
                             {
                                 return order < 0;
                             }
                         }
                         return false;
                     });
    for (const bool parallel : {false, true})
    {
        const std::vector<SourceRow> order = sortRows(views, parallel);
        ASSERT_EQ(order.size(), expected.size());
        for (size_t row = 0; row < order.size(); ++row)
        {
            ASSERT_EQ(order[row].piece, positions[expected[row]].piece) << "row " << row;
            ASSERT_EQ(order[row].row, positions[expected[row]].row) << "row " << row;
        }
    }
}

TEST(SortRows, PackedFixedWidthKeysMatchANaiveStableSort)
{
    expectSortMatchesNaive(
        {randomFixedKeys(70000, 1), randomFixedKeys(3, 2), randomFixedKeys(50000, 3)});
}

TEST(SortRows, KeysWiderThanFourWordsMatchANaiveStableSort)
{
    std::vector<std::vector<Column>> pieces;
    for (uint64_t seed : {4, 5})
    {
        pieces.push_back(randomFixedKeys(20000, seed));
        std::vector<Column> more = randomFixedKeys(20000, seed + 10);
        pieces.back().push_back(std::move(more[3]));
        pieces.back().push_back(std::move(more[1]));
    }
    expectSortMatchesNaive(pieces);
}

TEST(SortRows, StringKeysMatchANaiveStableSort)
{
    std::vector<std::vector<Column>> pieces;
    for (uint64_t seed : {6, 7})
    {
        Block block = randomAllTypesBlock(20000, seed);
        pieces.push_back({std::move(block.columns[4].column), std::move(block.columns[12].column)});
    }
    expectSortMatchesNaive(pieces);
}

TEST(SortRows, FewAndManyDistinctStringsMatchANaiveStableSort)
{
    // A key of few names (sorted by ranks) before one of more distinct values than are ranked
    // (compared as strings), across two pieces, with prefixes and bytes above 0x7f.
    std::mt19937_64 random(9);
    std::vector<std::vector<Column>> pieces;
    for (const size_t rows : {50000, 30000})
    {
        Column names(TypeId::String);
        Column ids(TypeId::String);
        for (size_t row = 0; row < rows; ++row)
        {
            const uint64_t name = random() % 12;
            names.appendString(name % 3 == 0 ? "svc\xe9-" + std::to_string(name)
                                             : "svc-" + std::to_string(name));
            ids.appendString(std::to_string(random() % 200000));
        }
        pieces.push_back({std::move(names), std::move(ids)});
    }
    expectSortMatchesNaive(pieces);
}

TEST(SortRows, SortedRowsGiveNoOrder)
{
    Column keys(TypeId::UInt32);
    for (uint32_t row = 0; row < 1000; ++row)
    {
        keys.append(row / 3);
    }
    EXPECT_TRUE(sortRows({{keys.view()}, {keys.view().slice(999, 1)}}, false).empty());
}

class MultiBlockPart : public ::testing::TestWithParam<bool>
{
};

/// Three blocks, each above gen-hits' old 65,536-row part size, make one part on disk:
/// same rows, in key order, with naive granule bounds; a flipped byte is still caught.
TEST_P(MultiBlockPart, BlocksBecomeOneSortedPartThatRoundTrips)
{
    TemporaryFolder folder;
    const std::vector<Block> blocks = {randomAllTypesBlock(70000, 31), randomAllTypesBlock(1, 32),
                                       randomAllTypesBlock(66000, 33)};
    {
        auto database = Database::open(folder.path());
        createTable(*database, parseCreate(kAllTypesTable));
        TableInsert insert(*database->table("t"));
        insert.addPart(blocks, GetParam() ? 2 : 1);
        insert.addPart({}, 1);
        EXPECT_EQ(insert.rows(), 136001u);
        insert.commit();
    }
    auto database = Database::open(folder.path());
    const auto table = database->table("t");
    const auto snapshot = table->snapshot();
    ASSERT_EQ(snapshot->parts.size(), 1u);
    EXPECT_EQ(sortedRows(*snapshot), sortedRows(blocks));

    const Part& part = *snapshot->parts[0];
    const WholeColumn key_column(part, *table->schema().indexOf("k"));
    const WholeColumn string_column(part, *table->schema().indexOf("s"));
    const ColumnView keys = key_column.view();
    const ColumnView strings = string_column.view();
    for (size_t row = 1; row < part.rows(); ++row)
    {
        const int order = naiveCompare(keys, row - 1, row);
        ASSERT_TRUE(order < 0 || (order == 0 && naiveCompare(strings, row - 1, row) <= 0))
            << "row " << row;
    }
    for (size_t granule = 0; granule < part.granules(); ++granule)
    {
        const size_t begin = granule * Part::kGranuleRows;
        const size_t end = std::min(part.rows(), begin + Part::kGranuleRows);
        int32_t least = keys.valueAt<int32_t>(begin), greatest = least;
        for (size_t row = begin; row < end; ++row)
        {
            least = std::min(least, keys.valueAt<int32_t>(row));
            greatest = std::max(greatest, keys.valueAt<int32_t>(row));
        }
        EXPECT_EQ(part.granuleMin(0).valueAt<int32_t>(granule), least);
        EXPECT_EQ(part.granuleMax(0).valueAt<int32_t>(granule), greatest);
    }

    const std::filesystem::path damaged = folder.path() / "t" / "part_1" / "c7.blocks";
    {
        std::fstream stream(damaged, std::ios::in | std::ios::out | std::ios::binary);
        stream.seekp(std::streamoff(std::filesystem::file_size(damaged) / 2));
        stream.write("\x5A\xA5", 2);
    }
    auto reopened = Database::open(folder.path());
    const auto& damaged_part = *reopened->table("t")->snapshot()->parts[0];
    try
    {
        WholeColumn read(damaged_part, 7);
        FAIL() << "no error for damaged " << damaged;
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kCorruptedData);
        EXPECT_NE(std::string(error.what()).find("c7.blocks"), std::string::npos) << error.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Storage, MultiBlockPart, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Parallel" : "Serial"; });

/// Rows [begin, begin + rows) of each range of `part`, one block per range.
std::vector<Block> partSlices(const Part& part, const TableSchema& schema,
                              const std::vector<std::pair<size_t, size_t>>& ranges)
{
    std::vector<Block> blocks;
    for (const auto& [begin, rows] : ranges)
    {
        Block& block = blocks.emplace_back();
        for (size_t column = 0; column < schema.columns.size(); ++column)
        {
            Column values(schema.columns[column].type);
            values.appendRange(WholeColumn(part, column).view(), begin, rows);
            block.columns.push_back({schema.columns[column].name, std::move(values)});
        }
    }
    return blocks;
}

/// A database with table `t`: one part of 80,000 random rows, sorted by the insert.
class SortedPieces : public ::testing::Test
{
protected:
    void SetUp() override
    {
        database_ = Database::open(folder_.path());
        createTable(*database_, parseCreate(kAllTypesTable));
        TableInsert insert(*database_->table("t"));
        insert.addPart({randomAllTypesBlock(50000, 41), randomAllTypesBlock(30000, 42)}, 1);
        insert.commit();
    }
    const Part& sorted() const { return *database_->table("t")->snapshot()->parts[0]; }
    const TableSchema& schema() const { return database_->table("t")->schema(); }
    std::shared_ptr<Table> createU()
    {
        sql::CreateTableStatement create = parseCreate(kAllTypesTable);
        create.table = "u";
        createTable(*database_, create);
        return database_->table("u");
    }
    /// Every file of `t`'s part equals the file of that name in `u`'s part `name`.
    void expectSameFiles(const std::string& name) const
    {
        for (const auto& file :
             std::filesystem::directory_iterator(folder_.path() / "t" / "part_1"))
        {
            const std::filesystem::path written =
                folder_.path() / "u" / name / file.path().filename();
            EXPECT_EQ(readWholeFile(written), readWholeFile(file.path())) << written;
        }
    }

    TemporaryFolder folder_;
    std::shared_ptr<Database> database_;
};

/// Blocks already in key order are written from their own memory, not gathered, also where a
/// block ends inside a write chunk (20,000 and 1 rows); and a sorted part appended block by
/// block (TableInsert::appendSorted, gen-hits' way): both give the files of the part the
/// insert sorted itself, at 1 and 2 threads.
TEST_F(SortedPieces, GiveTheSameFilesAsSortedRows)
{
    const auto table = createU();
    const size_t rows = sorted().rows();
    for (const size_t threads : {1, 2})
    {
        TableInsert insert(*table);
        insert.addPart(
            partSlices(sorted(), schema(), {{0, 20000}, {20000, 1}, {20001, rows - 20001}}),
            threads);
        insert.commit();
    }
    for (const size_t threads : {1, 2})
    {
        TableInsert insert(*table);
        insert.beginSortedPart();
        for (Block& block :
             partSlices(sorted(), schema(), {{0, 16384}, {16384, 8192}, {24576, rows - 24576}}))
        {
            insert.appendSorted(std::move(block), threads);
        }
        insert.finishSortedPart(threads);
        EXPECT_EQ(insert.rows(), rows);
        insert.commit();
    }
    for (const char* part : {"part_1", "part_2", "part_3", "part_4"})
    {
        expectSameFiles(part);
    }
}

TEST_F(SortedPieces, RowsOutOfOrderOrAfterAPartialGranuleAreRefused)
{
    const auto table = createU();
    const size_t rows = sorted().rows();
    {
        TableInsert insert(*table);
        insert.beginSortedPart();
        std::vector<Block> blocks = partSlices(sorted(), schema(), {{8192, 8192}, {0, 8192}});
        insert.appendSorted(std::move(blocks[0]));
        try
        {
            insert.appendSorted(std::move(blocks[1]));
            FAIL() << "rows out of order were accepted";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        }
    }
    {
        TableInsert insert(*table);
        insert.beginSortedPart();
        std::vector<Block> blocks = partSlices(sorted(), schema(), {{0, 100}, {100, rows - 100}});
        insert.appendSorted(std::move(blocks[0]));
        EXPECT_THROW(insert.appendSorted(std::move(blocks[1])), Exception);
        EXPECT_THROW(insert.commit(), Exception) << "the part is not finished";
    }
    for (const auto& entry : std::filesystem::directory_iterator(folder_.path() / "u"))
    {
        EXPECT_EQ(entry.path().filename().string().find("part_"), std::string::npos)
            << entry.path() << " left behind";
    }
    EXPECT_TRUE(table->snapshot()->parts.empty());
}

/// A sorted part's fsyncs and rename run after finishSortedPart() returns: an error there
/// reaches commit(), which publishes nothing, and the insert leaves no folder behind.
TEST_F(SortedPieces, ErrorMakingAPartDurableReachesCommit)
{
    const auto table = createU();
    const size_t rows = sorted().rows();
    std::atomic<int> renames{0};
    setStorageWriteHookForTesting(
        [&](const std::filesystem::path& path)
        {
            if (path.filename() == "part_1" && renames.fetch_add(1) == 0)
            {
                throw Exception(ErrorCode::kCannotOpenFile,
                                "injected: cannot sync " + path.string());
            }
        });
    {
        TableInsert insert(*table);
        for (const auto& range :
             std::vector<std::pair<size_t, size_t>>{{0, 40960}, {40960, rows - 40960}})
        {
            insert.beginSortedPart();
            insert.appendSorted(std::move(partSlices(sorted(), schema(), {range})[0]), 2);
            insert.finishSortedPart(2);
        }
        EXPECT_EQ(insert.rows(), rows);
        try
        {
            insert.commit();
            FAIL() << "the injected error did not reach commit()";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kCannotOpenFile);
            EXPECT_NE(std::string(error.what()).find("injected"), std::string::npos);
        }
    }
    setStorageWriteHookForTesting(nullptr);
    EXPECT_EQ(renames.load(), 1);
    for (const auto& entry : std::filesystem::directory_iterator(folder_.path() / "u"))
    {
        EXPECT_EQ(entry.path().filename().string().find("part_"), std::string::npos)
            << entry.path() << " left behind";
    }
    EXPECT_TRUE(table->snapshot()->parts.empty());
}

TEST(MultiBlockPart, SortedPartInMemoryHoldsItsRows)
{
    auto database = Database::openInMemory();
    createTable(*database, parseCreate(kAllTypesTable));
    const auto table = database->table("t");
    {
        TableInsert insert(*table);
        insert.addPart({randomAllTypesBlock(20000, 51)}, 1);
        insert.commit();
    }
    const Part& sorted = *table->snapshot()->parts[0];
    const std::vector<std::string> expected = sortedRows(*table->snapshot());
    {
        TableInsert insert(*table);
        insert.beginSortedPart();
        for (Block& block : partSlices(sorted, table->schema(), {{0, 8192}, {8192, 20000 - 8192}}))
        {
            insert.appendSorted(std::move(block));
        }
        insert.finishSortedPart();
        insert.commit();
    }
    const auto snapshot = table->snapshot();
    ASSERT_EQ(snapshot->parts.size(), 2u);
    EXPECT_EQ(snapshot->parts[1]->rows(), 20000u);
    std::vector<std::string> doubled = expected;
    doubled.insert(doubled.end(), expected.begin(), expected.end());
    std::sort(doubled.begin(), doubled.end());
    EXPECT_EQ(sortedRows(*snapshot), doubled);
}

TEST(MultiBlockPart, WrongBlockIsRefusedNamingTheColumn)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(*database, parseCreate(kAllTypesTable));
    Block wrong = randomAllTypesBlock(10, 1);
    wrong.columns[3].name = "other";
    TableInsert insert(*database->table("t"));
    try
    {
        insert.addPart({randomAllTypesBlock(10, 2), std::move(wrong)});
        FAIL() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("other"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace granary::storage_test
