#include "engine/storage/decoded_chunk_cache.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "engine/storage/database.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// A chunk whose values tell its key: `rows` copies of key.chunk.
Column chunkFor(const DecodedChunkKey& key, size_t rows)
{
    Column column(TypeId::UInt32);
    for (size_t row = 0; row < rows; ++row)
    {
        column.append(key.chunk);
    }
    return column;
}

/// `count` keys that all fall in shard 0.
std::vector<DecodedChunkKey> keysOfOneShard(size_t count)
{
    std::vector<DecodedChunkKey> keys;
    for (uint32_t chunk = 0; keys.size() < count; ++chunk)
    {
        const DecodedChunkKey key{7, 1, chunk};
        if (DecodedChunkCache::shardIndex(key) == 0)
        {
            keys.push_back(key);
        }
    }
    return keys;
}

TEST(DecodedChunkCache, KeepsWithinItsBoundAndEvictsTheLeastRecentlyUsedFirst)
{
    const size_t chunk_bytes = chunkFor({}, 1000).allocatedBytes();
    // Room for three chunks per shard.
    DecodedChunkCache cache(DecodedChunkCache::kShards * (3 * chunk_bytes + 3 * 256));
    const std::vector<DecodedChunkKey> keys = keysOfOneShard(4);
    for (size_t i = 0; i < 3; ++i)
    {
        cache.insert(keys[i], chunkFor(keys[i], 1000));
    }
    ASSERT_NE(cache.find(keys[0]), nullptr);  // keys[1] is now the least recently used
    cache.insert(keys[3], chunkFor(keys[3], 1000));
    EXPECT_EQ(cache.find(keys[1]), nullptr);
    for (const size_t i : {0, 2, 3})
    {
        const std::shared_ptr<const Column> found = cache.find(keys[i]);
        ASSERT_NE(found, nullptr) << i;
        EXPECT_EQ(found->view().valueAt<uint32_t>(999), keys[i].chunk);
    }
    EXPECT_LE(cache.sizeInBytes(), cache.maxBytes());
    EXPECT_GE(cache.sizeInBytes(), 3 * chunk_bytes);

    cache.setMaxBytes(DecodedChunkCache::kShards * (chunk_bytes + 256));
    EXPECT_LE(cache.sizeInBytes(), cache.maxBytes());
    EXPECT_NE(cache.find(keys[3]), nullptr);  // the most recently used stays
    EXPECT_EQ(cache.find(keys[0]), nullptr);
}

TEST(DecodedChunkCache, AChunkLargerThanAShardsShareIsReturnedButNotKept)
{
    DecodedChunkCache cache(DecodedChunkCache::kShards * 1024);
    const DecodedChunkKey key{1, 0, 0};
    const std::shared_ptr<const Column> chunk = cache.insert(key, chunkFor(key, 100000));
    ASSERT_NE(chunk, nullptr);
    EXPECT_EQ(chunk->size(), 100000u);
    EXPECT_EQ(cache.find(key), nullptr);
    EXPECT_EQ(cache.sizeInBytes(), 0u);
}

TEST(DecodedChunkCache, AReaderKeepsItsChunkAfterEvictionAndClear)
{
    DecodedChunkCache cache(size_t{64} << 20);
    const DecodedChunkKey key{3, 2, 16};
    const std::shared_ptr<const Column> held = cache.insert(key, chunkFor(key, 5000));
    cache.clear();
    EXPECT_EQ(cache.find(key), nullptr);
    EXPECT_EQ(cache.sizeInBytes(), 0u);
    EXPECT_EQ(held->view().valueAt<uint32_t>(4999), 16u);
}

TEST(DecodedChunkCache, ConcurrentReadersAndWritersSeeWholeChunks)
{
    // Small enough that chunks are evicted all the time.
    DecodedChunkCache cache(DecodedChunkCache::kShards * 20000);
    std::vector<std::thread> threads;
    std::atomic<size_t> wrong{0};
    for (size_t t = 0; t < 8; ++t)
    {
        threads.emplace_back(
            [&, t]
            {
                std::mt19937 random{uint32_t(t)};
                for (size_t i = 0; i < 20000; ++i)
                {
                    const DecodedChunkKey key{1, 0, uint32_t(random() % 64)};
                    std::shared_ptr<const Column> chunk = cache.find(key);
                    if (!chunk)
                    {
                        chunk = cache.insert(key, chunkFor(key, 1000));
                    }
                    if (chunk->size() != 1000 ||
                        chunk->view().valueAt<uint32_t>(random() % 1000) != key.chunk)
                    {
                        ++wrong;
                    }
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    EXPECT_EQ(wrong.load(), 0u);
    EXPECT_LE(cache.sizeInBytes(), cache.maxBytes());
}

/// Rows of a view as comparable strings.
std::vector<std::string> rowsOf(const ColumnView& view)
{
    std::vector<std::string> rows;
    for (size_t row = 0; row < view.rows; ++row)
    {
        rows.push_back(encodeRow({view}, row));
    }
    return rows;
}

/// A compressed part of every type, 3 chunks and a part of one (nullable columns included),
/// and the columns' types.
std::shared_ptr<const Part> compressedPart(const TemporaryFolder& folder,
                                           std::vector<DataType>& types)
{
    auto database = Database::open(folder.path());
    createTable(*database, parseCreate(kAllTypesTable));
    std::vector<Block> blocks;
    blocks.push_back(randomAllTypesBlock(3 * Part::kChunkGranules * Part::kGranuleRows + 20000, 5));
    database->insert("t", std::move(blocks));
    for (const ColumnSchema& column : database->table("t")->schema().columns)
    {
        types.push_back(column.type);
    }
    const auto snapshot = database->table("t")->snapshot();
    EXPECT_EQ(snapshot->parts.size(), 1u);
    return snapshot->parts.at(0);
}

TEST(DecodedChunkCache, CachedReadsAndGathersEqualDecodedOnesForEveryType)
{
    TemporaryFolder folder;
    std::vector<DataType> types;
    const std::shared_ptr<const Part> part = compressedPart(folder, types);
    DecodedChunkCache cache(size_t{1} << 30);
    const size_t chunk_rows = Part::kChunkGranules * Part::kGranuleRows;
    // Whole chunks, granules inside one, the short last chunk, and a read across two chunks
    // (which bypasses the cache).
    const std::vector<std::pair<size_t, size_t>> ranges = {
        {0, chunk_rows},
        {Part::kGranuleRows * 3, Part::kGranuleRows * 2},
        {chunk_rows * 3, part->rows() - chunk_rows * 3},
        {chunk_rows - Part::kGranuleRows, Part::kGranuleRows * 2},
        {chunk_rows * 2 + Part::kGranuleRows, 100}};
    std::mt19937 random(11);
    for (size_t column = 0; column < part->columnCount(); ++column)
    {
        const DataType& type = types[column];
        for (const auto& [first, rows] : ranges)
        {
            Column plain(type);
            const std::vector<std::string> expected =
                rowsOf(part->read(column, first, rows, plain));
            for (int pass = 0; pass < 2; ++pass)  // a miss, then a hit
            {
                ColumnReadBuffer buffer(type);
                EXPECT_EQ(rowsOf(part->read(column, first, rows, buffer, &cache)), expected)
                    << "column " << column << " rows " << first << " + " << rows;
            }
            std::vector<uint32_t> selected;
            for (uint32_t row = 0; row < rows; ++row)
            {
                if (random() % 7 == 0)
                {
                    selected.push_back(row);
                }
            }
            Column scratch(type);
            Column gathered_plain(type);
            part->gather(column, first, selected, scratch, gathered_plain);
            for (int pass = 0; pass < 2; ++pass)
            {
                ColumnReadBuffer buffer(type);
                Column gathered(type);
                part->gather(column, first, selected, buffer, gathered, &cache);
                EXPECT_EQ(rowsOf(gathered.view()), rowsOf(gathered_plain.view()))
                    << "gather of column " << column << " rows " << first << " + " << rows;
            }
        }
    }
    EXPECT_GT(cache.sizeInBytes(), 0u);
}

TEST(DecodedChunkCache, GathersFillTheCacheOnlyWhenAskedAndWithinOneChunk)
{
    TemporaryFolder folder;
    std::vector<DataType> types;
    const std::shared_ptr<const Part> part = compressedPart(folder, types);
    const size_t chunk_rows = Part::kChunkGranules * Part::kGranuleRows;
    for (size_t column = 0; column < part->columnCount(); ++column)
    {
        SCOPED_TRACE("column " + std::to_string(column));
        const DataType& type = types[column];
        DecodedChunkCache cache(size_t{1} << 30);
        const auto gather = [&](size_t first, const std::vector<uint32_t>& selected, bool fill,
                                ColumnReadBuffer& buffer)
        {
            Column scratch(type);
            Column expected(type);
            part->gather(column, first, selected, scratch, expected);
            Column gathered(type);
            part->gather(column, first, selected, buffer, gathered, &cache, fill);
            EXPECT_EQ(rowsOf(gathered.view()), rowsOf(expected.view()));
        };
        // Rows 5, 9000 and 20000 of chunk 1: not kept without fill, kept with it, then read
        // from the cache.
        const std::vector<uint32_t> in_one_chunk = {5, 9000, 20000};
        ColumnReadBuffer first_buffer(type);
        gather(chunk_rows, in_one_chunk, false, first_buffer);
        EXPECT_EQ(cache.sizeInBytes(), 0u);
        ColumnReadBuffer filling_buffer(type);
        gather(chunk_rows, in_one_chunk, true, filling_buffer);
        EXPECT_GT(filling_buffer.added_bytes, 0u);
        const size_t kept = cache.sizeInBytes();
        EXPECT_GT(kept, 0u);
        ColumnReadBuffer hit_buffer(type);
        gather(chunk_rows, in_one_chunk, false, hit_buffer);
        EXPECT_NE(hit_buffer.pinned, nullptr);
        EXPECT_EQ(hit_buffer.added_bytes, 0u);
        // Rows across chunks 0 and 1: decoded without the cache, even with fill.
        ColumnReadBuffer across_buffer(type);
        gather(0, {uint32_t(chunk_rows - 1), uint32_t(chunk_rows)}, true, across_buffer);
        EXPECT_EQ(across_buffer.added_bytes, 0u);
        EXPECT_EQ(cache.sizeInBytes(), kept);
    }
}

TEST(DecodedChunkCache, CachedChunksKeepTheColumnsTypeParameters)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(*database,
                parseCreate("CREATE TABLE e (k UInt32, t DateTime64(3), PRIMARY KEY k)"));
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt32)});
    block.columns.push_back({"t", Column(database->table("e")->schema().columns[1].type)});
    for (uint32_t row = 0; row < 70000; ++row)
    {
        block.columns[0].column.append(row);
        block.columns[1].column.append(int64_t{1767225600000} + row);
    }
    database->insert("e", {std::move(block)});
    const std::shared_ptr<const Part> part = database->table("e")->snapshot()->parts.at(0);
    const DataType type = database->table("e")->schema().columns[1].type;
    Column plain(type);
    const ColumnView expected = part->read(1, 0, Part::kGranuleRows, plain);
    ASSERT_EQ(expected.precision, 3);
    DecodedChunkCache cache(size_t{64} << 20);
    for (int pass = 0; pass < 2; ++pass)
    {
        ColumnReadBuffer buffer(type);
        const ColumnView cached = part->read(1, 0, Part::kGranuleRows, buffer, &cache);
        EXPECT_EQ(cached.precision, expected.precision);
        EXPECT_EQ(rowsOf(cached), rowsOf(expected));
    }
}

/// A part of 2.5 chunks whose String column `s` repeats 300 values (most rows empty) except
/// granule 3 of chunk 1, whose strings are all distinct (stored plain, not coded).
std::shared_ptr<const Part> partWithCodedStrings(Database& database)
{
    createTable(database, parseCreate("CREATE TABLE d (k UInt32, s String, PRIMARY KEY k)"));
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt32)});
    block.columns.push_back({"s", Column(TypeId::String)});
    const size_t plain_granule = Part::kChunkGranules + 3;
    std::mt19937_64 random(5);
    for (uint32_t row = 0; row < 2 * Part::kChunkRows + Part::kChunkRows / 2; ++row)
    {
        block.columns[0].column.append(row);
        if (row / Part::kGranuleRows == plain_granule)
        {
            block.columns[1].column.appendString("unique " + std::to_string(random()));
        }
        else
        {
            const uint64_t value = random() % 2000;
            block.columns[1].column.appendString(
                value < 300 ? "phrase number " + std::to_string(value) : "");
        }
    }
    database.insert("d", {std::move(block)});
    return database.table("d")->snapshot()->parts.at(0);
}

TEST(DecodedChunkCache, DictionaryCodesAreCachedPerChunkAndNameTheRowsStrings)
{
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    const std::shared_ptr<const Part> part = partWithCodedStrings(*database);
    constexpr size_t kColumn = 1;
    const std::optional<ColumnView> dictionary = part->dictionary(kColumn);
    ASSERT_TRUE(dictionary.has_value());
    // Codes must name the strings a read of the same rows decodes.
    const auto expect_codes_of_rows = [&](const ColumnView& codes, size_t first, size_t rows)
    {
        ASSERT_EQ(codes.type, TypeId::UInt32);
        ASSERT_EQ(codes.rows, rows);
        Column plain(TypeId::String);
        const ColumnView values = part->read(kColumn, first, rows, plain);
        for (size_t row = 0; row < rows; ++row)
        {
            const uint32_t code = static_cast<const uint32_t*>(codes.data)[row];
            ASSERT_LT(code, dictionary->rows);
            ASSERT_EQ(dictionary->stringAt(code), values.stringAt(row)) << "row " << first + row;
        }
    };
    DecodedChunkCache cache(size_t{64} << 20);
    // Chunk 0, then two granules of it: a miss decodes and keeps the chunk's codes, then hits.
    for (const auto& [first, rows] : std::vector<std::pair<size_t, size_t>>{
             {0, Part::kChunkRows}, {2 * Part::kGranuleRows, 2 * Part::kGranuleRows}})
    {
        ColumnReadBuffer buffer(DataType(TypeId::UInt32));
        const std::optional<ColumnView> codes =
            part->readCodes(kColumn, first, rows, buffer, &cache, true);
        ASSERT_TRUE(codes.has_value());
        expect_codes_of_rows(*codes, first, rows);
        EXPECT_NE(buffer.pinned, nullptr);
        EXPECT_EQ(buffer.added_bytes > 0, first == 0) << "only the first read decodes";
    }
    // Chunk 1 holds a plain granule: no codes for the chunk, and the verdict is kept (the
    // second read adds nothing); its coded granules still read as codes without the cache.
    const size_t kept = cache.sizeInBytes();
    for (int pass = 0; pass < 2; ++pass)
    {
        ColumnReadBuffer buffer(DataType(TypeId::UInt32));
        EXPECT_FALSE(
            part->readCodes(kColumn, Part::kChunkRows, Part::kChunkRows, buffer, &cache, true));
        EXPECT_EQ(buffer.added_bytes, 0u);
    }
    EXPECT_GT(cache.sizeInBytes(), kept);
    ColumnReadBuffer uncached(DataType(TypeId::UInt32));
    const std::optional<ColumnView> coded_granule =
        part->readCodes(kColumn, Part::kChunkRows, Part::kGranuleRows, uncached, nullptr, false);
    ASSERT_TRUE(coded_granule.has_value());
    expect_codes_of_rows(*coded_granule, Part::kChunkRows, Part::kGranuleRows);
    EXPECT_FALSE(part->readCodes(kColumn, Part::kChunkRows + 3 * Part::kGranuleRows,
                                 Part::kGranuleRows, uncached, nullptr, false));
    // The short last chunk without fill: decoded, not kept; a read across chunks bypasses
    // the cache.
    const size_t before = cache.sizeInBytes();
    ColumnReadBuffer last(DataType(TypeId::UInt32));
    const std::optional<ColumnView> last_codes =
        part->readCodes(kColumn, 2 * Part::kChunkRows, Part::kChunkRows / 2, last, &cache, false);
    ASSERT_TRUE(last_codes.has_value());
    expect_codes_of_rows(*last_codes, 2 * Part::kChunkRows, Part::kChunkRows / 2);
    EXPECT_EQ(last.pinned, nullptr);
    const std::optional<ColumnView> across = part->readCodes(
        kColumn, Part::kChunkRows - Part::kGranuleRows, 2 * Part::kGranuleRows, last, &cache, true);
    ASSERT_TRUE(across.has_value());
    expect_codes_of_rows(*across, Part::kChunkRows - Part::kGranuleRows, 2 * Part::kGranuleRows);
    EXPECT_EQ(cache.sizeInBytes(), before);
    // Not a String column: no dictionary, no codes.
    EXPECT_FALSE(part->readCodes(0, 0, Part::kGranuleRows, last, &cache, true));
}

}  // namespace
}  // namespace granary::storage_test
