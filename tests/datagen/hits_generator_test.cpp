#include "engine/datagen/hits_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <tuple>
#include <utility>
#include <variant>

#include "engine/common/exception.h"
#include "engine/datagen/hits_schema.h"
#include "engine/sql/parser.h"
#include "hashtables/hash.h"

namespace granary::datagen
{
namespace
{

/// A hash of every byte of every value of a column, in order, continuing `hash`.
uint64_t columnHash(uint64_t hash, const ColumnView& view)
{
    for (size_t row = 0; row < view.rows; ++row)
    {
        const std::string_view bytes = isString(view.type)
                                           ? view.stringAt(row)
                                           : std::string_view(static_cast<const char*>(view.data) +
                                                                  row * fixedWidth(view.type),
                                                              fixedWidth(view.type));
        hash = hashing::hashWords(hash, hashing::hashString(bytes));
    }
    return hash;
}

/// A hash of every byte of every value of a block, in order.
uint64_t blockHash(const Block& block)
{
    uint64_t hash = block.rows();
    for (const Block::Entry& entry : block.columns)
    {
        hash = columnHash(hash, entry.column.view());
    }
    return hash;
}

TEST(HitsGenerator, SchemaHas105ColumnsThatParseAsCreateTable)
{
    ASSERT_EQ(hitsSchema().size(), 105U);
    EXPECT_EQ(hitsSchema()[HitsColumn::WatchID].name, "WatchID");
    EXPECT_EQ(hitsSchema()[HitsColumn::CLID].name, "CLID");
    EXPECT_EQ(hitsSchema()[HitsColumn::EventTime].type, TypeId::DateTime);
    EXPECT_EQ(hitsSchema()[HitsColumn::EventDate].type, TypeId::Date);
    EXPECT_EQ(hitsSchema()[HitsColumn::UserAgentMinor].type, TypeId::String);
    const sql::Statement statement = sql::parseStatement(hitsCreateTableSql());
    const auto* create = std::get_if<sql::CreateTableStatement>(&statement);
    ASSERT_NE(create, nullptr);
    ASSERT_EQ(create->columns.size(), 105U);
    for (size_t i = 0; i < create->columns.size(); ++i)
    {
        EXPECT_EQ(create->columns[i].name, hitsSchema()[i].name);
        EXPECT_EQ(create->columns[i].type, hitsSchema()[i].type);
    }
    EXPECT_EQ(create->primary_key.size(), 5U);
}

TEST(HitsGenerator, ChunksHaveTheSchemaAndTheRowCount)
{
    const HitsGenerator generator(100'000, 7);
    ASSERT_EQ(generator.chunkCount(), 2U);
    const Block last = generator.generateChunk(1);
    EXPECT_EQ(last.rows(), 100'000 - HitsGenerator::kChunkRows);
    ASSERT_EQ(last.columns.size(), 105U);
    for (size_t i = 0; i < last.columns.size(); ++i)
    {
        EXPECT_EQ(last.columns[i].name, hitsSchema()[i].name);
        EXPECT_EQ(last.columns[i].column.type(), hitsSchema()[i].type);
        EXPECT_EQ(last.columns[i].column.size(), last.rows()) << last.columns[i].name;
    }
    EXPECT_THROW(generator.generateChunk(2), Exception);
}

TEST(HitsGenerator, SameTableWhateverTheThreadsAndChunkOrder)
{
    const uint64_t rows = 3 * HitsGenerator::kChunkRows + 1234;
    const HitsGenerator sequential(rows, 99);
    std::vector<uint64_t> expected;
    for (size_t chunk = 0; chunk < sequential.chunkCount(); ++chunk)
    {
        expected.push_back(blockHash(sequential.generateChunk(chunk)));
    }
    // A second generator, chunks in reverse order over two threads.
    const HitsGenerator parallel(rows, 99);
    std::vector<uint64_t> hashes(parallel.chunkCount());
    std::vector<std::thread> threads;
    for (size_t worker = 0; worker < 2; ++worker)
    {
        threads.emplace_back(
            [&, worker]
            {
                for (size_t i = worker; i < hashes.size(); i += 2)
                {
                    const size_t chunk = hashes.size() - 1 - i;
                    hashes[chunk] = blockHash(parallel.generateChunk(chunk));
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    EXPECT_EQ(hashes, expected);
    EXPECT_NE(blockHash(HitsGenerator(rows, 100).generateChunk(0)), expected[0])
        << "the seed must matter";
}

TEST(HitsGenerator, ARecycledBlockGivesTheSameRowsAsAFreshOne)
{
    // Two chunks, the second shorter: chunk 0's block refilled with chunk 1 keeps its buffers,
    // so a byte the refill leaves unwritten keeps the pattern below; chunk 1's block refilled
    // with chunk 0 has to grow them.
    const HitsGenerator generator(HitsGenerator::kChunkRows + 5000, 3);
    ASSERT_EQ(generator.groupChunks(), 1U);
    for (const auto& [from, to] : {std::pair<size_t, size_t>{1, 0}, {0, 1}})
    {
        Block block = generator.generateChunk(from);
        for (Block::Entry& entry : block.columns)
        {
            if (!isString(entry.column.type()))
            {
                std::memset(entry.column.mutableData<char>(), 0xA5,
                            entry.column.size() * fixedWidth(entry.column.type()));
            }
        }
        generator.generateChunkInto(to, *generator.sortGroup(to), block);
        const Block fresh = generator.generateChunk(to);
        ASSERT_EQ(block.columns.size(), fresh.columns.size());
        for (size_t column = 0; column < fresh.columns.size(); ++column)
        {
            EXPECT_EQ(block.columns[column].column.size(), fresh.rows());
            EXPECT_EQ(columnHash(0, block.columns[column].column.view()),
                      columnHash(0, fresh.columns[column].column.view()))
                << fresh.columns[column].name << " refilled from chunk " << from;
        }
    }
}

TEST(HitsGenerator, GroupsComeSortedByTheTableKey)
{
    // Nine chunks: groups of two, the last one a single chunk of 100 rows.
    const HitsGenerator generator(8 * HitsGenerator::kChunkRows + 100, 5);
    ASSERT_EQ(generator.groupChunks(), 2U);
    ASSERT_EQ(generator.groupCount(), 5U);
    using Key = std::tuple<int32_t, uint16_t, int64_t, uint32_t, int64_t>;
    for (size_t group = 0; group < generator.groupCount(); ++group)
    {
        const auto keys = generator.sortGroup(group);
        std::vector<Key> rows;
        for (size_t chunk = group * 2; chunk < std::min<size_t>(9, group * 2 + 2); ++chunk)
        {
            const Block block = generator.generateChunk(chunk, *keys);
            for (size_t row = 0; row < block.rows(); ++row)
            {
                rows.emplace_back(
                    block.columns[HitsColumn::CounterID].column.valueAt<int32_t>(row),
                    block.columns[HitsColumn::EventDate].column.valueAt<uint16_t>(row),
                    block.columns[HitsColumn::UserID].column.valueAt<int64_t>(row),
                    block.columns[HitsColumn::EventTime].column.valueAt<uint32_t>(row),
                    block.columns[HitsColumn::WatchID].column.valueAt<int64_t>(row));
            }
        }
        EXPECT_EQ(rows.size(), group < 4 ? 2 * HitsGenerator::kChunkRows : 100);
        EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end())) << "group " << group;
    }
    EXPECT_THROW(generator.generateChunk(2, *generator.sortGroup(0)), Exception);
}

}  // namespace
}  // namespace granary::datagen
