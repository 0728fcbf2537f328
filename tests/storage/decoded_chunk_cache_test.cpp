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

}  // namespace
}  // namespace granary::storage_test
