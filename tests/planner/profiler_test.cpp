// QueryOptions::profiler: the stacks of a query's worker threads are sampled while it runs.

#include <gtest/gtest.h>

#include "engine/observe/query_profiler.h"
#include "engine/session/session.h"
#include "engine/sql/parser.h"
#include "engine/sql/statement.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

TEST(QueryProfiling, SamplesTheQueryThreads)
{
    auto database = Database::openInMemory();
    Session session(database);
    session.execute("CREATE TABLE numbers (n UInt64) ENGINE = Memory");
    constexpr size_t kRows = 4'000'000;
    Column values(TypeId::UInt64);
    values.resizeFixed(kRows);
    for (size_t i = 0; i < kRows; ++i)
    {
        values.mutableData<uint64_t>()[i] = i * 0x9E3779B97F4A7C15ull;
    }
    Block block;
    block.columns.push_back({"n", std::move(values)});
    std::vector<Block> blocks;
    blocks.push_back(std::move(block));
    database->insert("numbers", std::move(blocks));

    QueryProfiler profiler;
    QueryOptions options;
    options.threads = 2;
    options.profiler = &profiler;
    // Hundreds of milliseconds of CPU time: tens of samples at one per 10 ms.
    const QueryResult result =
        session.execute("SELECT count(DISTINCT n), count(DISTINCT n + 1) FROM numbers", options);
    EXPECT_EQ(result.block.columns[0].column.valueAt<uint64_t>(0), kRows);
    EXPECT_GT(profiler.sampleCount(), 0u);
    const std::vector<FoldedStack> stacks = profiler.foldedStacks();
    ASSERT_FALSE(stacks.empty());
    EXPECT_FALSE(stacks.front().frames.empty());
}

}  // namespace
}  // namespace granary
