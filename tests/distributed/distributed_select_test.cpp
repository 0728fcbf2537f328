// executeDistributedSelect over 1 to 4 ranks (threads of one process, ThreadTransport), each
// with its own shard of a table split unevenly (one shard empty), against executeSelect on
// one table holding every row: aggregates with and without keys, count(DISTINCT), HAVING,
// ORDER BY ... LIMIT/OFFSET, queries without aggregation and queries matching nothing; the
// exchange figures; errors on one rank or all of them; a state exchange in several rounds.

#include "engine/distributed/distributed_select.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"
#include "engine/distributed/state_routing.h"
#include "engine/session/create_table.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "tests/distributed/block_difference.h"
#include "tests/distributed/thread_transport.h"

namespace granary::distributed
{
namespace
{

using test::blockDifference;
using test::runOnRanks;

/// Float results summed in another order (per shard, then across ranks) may differ in the
/// last bits.
constexpr double kRelativeTolerance = 1e-9;

constexpr const char* kCreate =
    "CREATE TABLE t (id UInt64, k Int64, g UInt16, s String, f Float64, d Date, n Int32) "
    "ORDER BY (k, id)";

/// Skewed data: a few heavy keys and a long tail (k, s), a small key (g), positive floats
/// (sums without cancellation, so the tolerance holds), dates over a year, signed integers.
Block generatedRows(size_t rows, uint64_t seed)
{
    std::mt19937_64 random(seed);
    Column id(TypeId::UInt64), k(TypeId::Int64), g(TypeId::UInt16), s(TypeId::String);
    Column f(TypeId::Float64), d(TypeId::Date), n(TypeId::Int32);
    for (size_t row = 0; row < rows; ++row)
    {
        id.append(static_cast<uint64_t>(row));
        k.append(random() % 2 == 0 ? static_cast<int64_t>(random() % 8) - 4
                                   : static_cast<int64_t>(random() % 20'000) - 10'000);
        g.append(static_cast<uint16_t>(random() % 3 == 0 ? 0 : random() % 20));
        const uint64_t word = random() % 3 == 0 ? random() % 5 : random() % 3'000;
        s.appendString(word == 0 ? "" : "word" + std::to_string(word));
        f.append(std::uniform_real_distribution<double>(0.5, 1000)(random));
        d.append(static_cast<uint16_t>(19'000 + random() % 365));
        n.append(static_cast<int32_t>(random() % 2'000'001) - 1'000'000);
    }
    Block block;
    block.columns.push_back({"id", std::move(id)});
    block.columns.push_back({"k", std::move(k)});
    block.columns.push_back({"g", std::move(g)});
    block.columns.push_back({"s", std::move(s)});
    block.columns.push_back({"f", std::move(f)});
    block.columns.push_back({"d", std::move(d)});
    block.columns.push_back({"n", std::move(n)});
    return block;
}

std::shared_ptr<Database> databaseWith(std::string_view create, const Block& rows)
{
    std::shared_ptr<Database> database = Database::openInMemory();
    const sql::Statement statement = sql::parseStatement(create);
    const auto& create_table = std::get<sql::CreateTableStatement>(statement);
    createTable(*database, create_table);
    if (rows.rows() > 0)
    {
        std::vector<Block> blocks;
        Block copy;
        appendBlock(copy, rows);
        blocks.push_back(std::move(copy));
        database->insert(create_table.table, std::move(blocks));
    }
    return database;
}

/// `rows` dealt to shards at random, shard i taking about weights[i] of them.
std::vector<Block> dealt(const Block& rows, const std::vector<double>& weights, uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::discrete_distribution<size_t> shard_of(weights.begin(), weights.end());
    std::vector<std::vector<uint32_t>> picked(weights.size());
    for (size_t row = 0; row < rows.rows(); ++row)
    {
        picked[shard_of(random)].push_back(static_cast<uint32_t>(row));
    }
    std::vector<Block> shards(weights.size());
    for (size_t shard = 0; shard < weights.size(); ++shard)
    {
        for (const Block::Entry& entry : rows.columns)
        {
            Column column(entry.column.type());
            gatherRows(entry.column.view(), 0, picked[shard], column);
            shards[shard].columns.push_back({entry.name, std::move(column)});
        }
    }
    return shards;
}

/// How the rows are split for each rank count: 60% on rank 0, and from three ranks on one
/// shard without any row.
const std::vector<double>& weightsFor(size_t ranks)
{
    static const std::vector<std::vector<double>> weights = {
        {1}, {0.6, 0.4}, {0.6, 0, 0.4}, {0.6, 0.25, 0, 0.15}};
    return weights.at(ranks - 1);
}

/// The whole table in one database, and its shards for 1 to 4 ranks.
struct Dataset
{
    std::shared_ptr<Database> whole;
    std::vector<std::vector<std::shared_ptr<Database>>> shards_by_ranks;

    const std::vector<std::shared_ptr<Database>>& shards(size_t ranks) const
    {
        return shards_by_ranks.at(ranks - 1);
    }
};

Dataset datasetOf(const Block& rows)
{
    Dataset dataset;
    dataset.whole = databaseWith(kCreate, rows);
    for (size_t ranks = 1; ranks <= 4; ++ranks)
    {
        std::vector<std::shared_ptr<Database>> shards;
        for (const Block& shard : dealt(rows, weightsFor(ranks), ranks))
        {
            shards.push_back(databaseWith(kCreate, shard));
        }
        dataset.shards_by_ranks.push_back(std::move(shards));
    }
    return dataset;
}

/// 150,000 rows: rank 0's 60% span two morsels, so that three threads share them.
const Dataset& sharedDataset()
{
    static const Dataset dataset = datasetOf(generatedRows(150'000, 2024));
    return dataset;
}

const Dataset& emptyDataset()
{
    static const Dataset dataset = datasetOf(generatedRows(0, 1));
    return dataset;
}

/// One rank's result and exchange figures.
struct RankResult
{
    SelectOutcome outcome;
    ExchangeStats exchange;
};

std::vector<test::RankOutcome<RankResult>> runDistributed(
    std::string_view query, const std::vector<std::shared_ptr<Database>>& shards, size_t threads)
{
    const sql::SelectStatement select = sql::parseSelect(query);
    return runOnRanks(shards.size(),
                      [&](Transport& transport)
                      {
                          QueryContext context(threads);
                          const std::shared_ptr<Table> table = shards[transport.rank()]->table("t");
                          RankResult result;
                          result.outcome = executeDistributedSelect(select, *table, context,
                                                                    SelectSettings{}, transport);
                          result.exchange = context.stats().exchange;
                          return result;
                      });
}

Block runSingle(std::string_view query, const Database& database, size_t threads)
{
    QueryContext context(threads);
    return executeSelect(sql::parseSelect(query), *database.table("t"), context, SelectSettings{})
        .block;
}

/// Row a before row b of `block`: column by column, NULL first, NaN last.
bool rowLess(const Block& block, size_t a, size_t b)
{
    for (const Block::Entry& entry : block.columns)
    {
        const Column& column = entry.column;
        if (column.isNull(a) != column.isNull(b))
        {
            return column.isNull(a);
        }
        if (column.isNull(a))
        {
            continue;
        }
        const int order = dispatchType(
            column.type(),
            [&]<typename T>(TypeTag<T>) -> int
            {
                T x, y;
                if constexpr (std::is_same_v<T, std::string_view>)
                {
                    x = column.stringAt(a);
                    y = column.stringAt(b);
                }
                else
                {
                    x = column.valueAt<T>(a);
                    y = column.valueAt<T>(b);
                    if constexpr (std::is_floating_point_v<T>)
                    {
                        if (std::isnan(x) || std::isnan(y))
                        {
                            return std::isnan(x) == std::isnan(y) ? 0 : std::isnan(x) ? 1 : -1;
                        }
                    }
                }
                return x < y ? -1 : y < x ? 1 : 0;
            });
        if (order != 0)
        {
            return order < 0;
        }
    }
    return false;
}

/// `block`'s rows in rowLess order, NULLs kept: for results whose order SQL leaves open.
Block sortedRows(const Block& block)
{
    std::vector<size_t> order(block.rows());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return rowLess(block, a, b); });
    Block sorted;
    for (const Block::Entry& entry : block.columns)
    {
        sorted.columns.push_back({entry.name, Column(entry.column.type())});
    }
    for (const size_t row : order)
    {
        for (size_t c = 0; c < block.columns.size(); ++c)
        {
            sorted.columns[c].column.appendRange(block.columns[c].column.view(), row, 1);
        }
    }
    return sorted;
}

struct Query
{
    std::string sql;
    /// Whether ORDER BY fixes the order of every row; otherwise rows compare as a multiset.
    bool ordered = true;
};

/// Rank 0's result equals the single-process one; the others return nothing; the exchange
/// figures add up. The single-process result is computed on `threads` threads as well.
void expectSameAsSingleProcess(const Query& query, const Dataset& dataset, size_t ranks,
                               size_t threads)
{
    SCOPED_TRACE(query.sql);
    const Block expected = runSingle(query.sql, *dataset.whole, threads);
    const auto outcomes = runDistributed(query.sql, dataset.shards(ranks), threads);
    for (size_t rank = 0; rank < ranks; ++rank)
    {
        if (outcomes[rank].failure)
        {
            try
            {
                std::rethrow_exception(outcomes[rank].failure);
            }
            catch (const std::exception& e)
            {
                ADD_FAILURE() << "rank " << rank << " failed: " << e.what();
            }
            return;
        }
        const RankResult& result = outcomes[rank].result;
        EXPECT_EQ(result.exchange.ranks, ranks);
        EXPECT_EQ(result.exchange.rank, rank);
        if (rank != 0)
        {
            EXPECT_TRUE(result.outcome.block.columns.empty()) << "rank " << rank;
        }
    }
    const Block& actual = outcomes[0].result.outcome.block;
    EXPECT_EQ(query.ordered
                  ? blockDifference(expected, actual, kRelativeTolerance)
                  : blockDifference(sortedRows(expected), sortedRows(actual), kRelativeTolerance),
              "");

    const ExchangeStats& exchange = outcomes[0].result.exchange;
    ASSERT_EQ(exchange.per_rank.size(), ranks);
    size_t sent = 0;
    size_t received = 0;
    for (size_t rank = 0; rank < ranks; ++rank)
    {
        const ExchangeStats::Rank& figures = exchange.per_rank[rank];
        EXPECT_EQ(figures.bytes_sent, outcomes[rank].result.exchange.bytes_sent);
        EXPECT_EQ(figures.bytes_received, outcomes[rank].result.exchange.bytes_received);
        sent += figures.bytes_sent;
        received += figures.bytes_received;
    }
    EXPECT_EQ(sent, received);
    if (ranks == 1)
    {
        EXPECT_EQ(sent, 0u);
    }
}

const std::vector<Query> kQueries = {
    {"SELECT count(*) FROM t"},
    {"SELECT count(*), sum(k), sum(n), sum(f), avg(f), min(f), max(f), min(k), max(n), min(s), "
     "max(s), min(d), max(d) FROM t"},
    {"SELECT count(DISTINCT s), count(DISTINCT k), count(DISTINCT g), count(*) FROM t"},
    {"SELECT count(DISTINCT s) FROM t WHERE g > 2"},
    {"SELECT g, count(DISTINCT k) AS u, count(DISTINCT s), count(*) FROM t GROUP BY g "
     "ORDER BY g"},
    {"SELECT k, count(*) AS c, sum(f), avg(n) FROM t GROUP BY k ORDER BY c DESC, k LIMIT 25"},
    {"SELECT s, count(*) AS c, min(d), max(n) FROM t GROUP BY s ORDER BY c DESC, s "
     "LIMIT 30 OFFSET 5"},
    {"SELECT g, s, count(*) AS c, sum(n) FROM t GROUP BY g, s ORDER BY g, s"},
    {"SELECT g, k, count(*) FROM t GROUP BY g, k ORDER BY g DESC, k LIMIT 15 OFFSET 3"},
    {"SELECT s, count(*) AS c FROM t GROUP BY s ORDER BY s LIMIT 10"},
    {"SELECT k, g, count(*) AS c FROM t GROUP BY k, g HAVING count(*) > 3 "
     "ORDER BY c DESC, k, g LIMIT 40 OFFSET 10"},
    {"SELECT s, sum(f) AS total, count(*) FROM t WHERE g < 5 GROUP BY s HAVING sum(n) > 0 "
     "ORDER BY s"},
    {"SELECT d, count(*), min(s), max(k) FROM t GROUP BY d ORDER BY d DESC LIMIT 10"},
    // No ORDER BY: every group, in an order the plans need not agree on. varSamp of a group of
    // one row is NULL: NULLs cross the wire.
    {"SELECT g, count(*), sum(f) FROM t GROUP BY g", false},
    {"SELECT k, varSamp(f), count(*) FROM t GROUP BY k", false},
    // Without aggregation: ORDER BY the sort key (a top-N scan that skips morsels), another
    // column, or every row.
    {"SELECT id, k, s, f FROM t WHERE g = 3 ORDER BY k, id LIMIT 20 OFFSET 7"},
    {"SELECT id, s, d FROM t ORDER BY s DESC, id LIMIT 50"},
    {"SELECT id, n, k + 1 AS k1 FROM t WHERE n > 990000 ORDER BY n, id"},
    // Nothing matches.
    {"SELECT count(*), sum(f), min(s), count(DISTINCT k) FROM t WHERE k = -999999"},
    {"SELECT k, count(*) FROM t WHERE k = -999999 GROUP BY k ORDER BY k"},
    {"SELECT id, s FROM t WHERE s = 'nothing' ORDER BY id LIMIT 5"},
};

/// A rank count and a thread count per rank.
class DistributedSelect : public ::testing::TestWithParam<std::tuple<size_t, size_t>>
{
};

TEST_P(DistributedSelect, MatchesSingleProcess)
{
    const auto [ranks, threads] = GetParam();
    for (const Query& query : kQueries)
    {
        expectSameAsSingleProcess(query, sharedDataset(), ranks, threads);
    }
}

TEST_P(DistributedSelect, EmptyShardsMatchAnEmptyTable)
{
    const auto [ranks, threads] = GetParam();
    for (const Query& query : kQueries)
    {
        expectSameAsSingleProcess(query, emptyDataset(), ranks, threads);
    }
}

INSTANTIATE_TEST_SUITE_P(RanksAndThreads, DistributedSelect,
                         ::testing::Combine(::testing::Values(size_t{1}, size_t{2}, size_t{3},
                                                              size_t{4}),
                                            ::testing::Values(size_t{1}, size_t{3})),
                         [](const ::testing::TestParamInfo<std::tuple<size_t, size_t>>& info)
                         {
                             return std::to_string(std::get<0>(info.param)) + "Ranks" +
                                    std::to_string(std::get<1>(info.param)) + "Threads";
                         });

/// Every rank threw, all with the same message, containing `containing`; returns the error
/// code of rank 0's exception.
ErrorCode expectSameFailureEverywhere(const std::vector<test::RankOutcome<RankResult>>& outcomes,
                                      const std::string& containing)
{
    std::string first_message;
    ErrorCode code = ErrorCode::kOk;
    for (size_t rank = 0; rank < outcomes.size(); ++rank)
    {
        if (!outcomes[rank].failure)
        {
            ADD_FAILURE() << "rank " << rank << " did not fail";
            continue;
        }
        try
        {
            std::rethrow_exception(outcomes[rank].failure);
        }
        catch (const Exception& e)
        {
            EXPECT_NE(std::string(e.what()).find(containing), std::string::npos) << e.what();
            if (rank == 0)
            {
                first_message = e.what();
                code = e.code();
            }
            EXPECT_EQ(e.what(), first_message) << "rank " << rank;
            EXPECT_EQ(e.code(), code) << "rank " << rank;
        }
        catch (const std::exception& e)
        {
            ADD_FAILURE() << "rank " << rank << " threw another exception: " << e.what();
        }
    }
    return code;
}

TEST(DistributedSelectFailure, UnknownColumnFailsEveryRank)
{
    for (size_t ranks = 1; ranks <= 4; ++ranks)
    {
        SCOPED_TRACE(ranks);
        const auto outcomes = runDistributed("SELECT g, sum(no_such_column) FROM t GROUP BY g",
                                             sharedDataset().shards(ranks), 2);
        EXPECT_EQ(expectSameFailureEverywhere(outcomes, "rank 0: "), ErrorCode::kUnknownColumn);
    }
}

TEST(DistributedSelectFailure, OneRanksErrorStopsEveryRank)
{
    // Rank 2's shard lacks column s: only its planning fails, and every rank reports it.
    const Block rows = generatedRows(3'000, 5);
    std::vector<std::shared_ptr<Database>> shards;
    for (const Block& shard : dealt(rows, {0.3, 0.3, 0.4}, 6))
    {
        shards.push_back(databaseWith(kCreate, shard));
    }
    shards[2] = databaseWith("CREATE TABLE t (id UInt64, k Int64, g UInt16) ORDER BY id", {});
    const auto outcomes =
        runDistributed("SELECT s, count(*) FROM t GROUP BY s ORDER BY s", shards, 2);
    EXPECT_EQ(expectSameFailureEverywhere(outcomes, "rank 2: "), ErrorCode::kUnknownColumn);
}

TEST(DistributedSelectFailure, StatesOfAnotherShapeAreRefused)
{
    // Rank 1's k is an Int32: its partial states cannot be merged with the others', and the
    // ranks that receive them refuse them (the lowest one names itself and the sender).
    const Block rows = generatedRows(3'000, 7);
    std::vector<std::shared_ptr<Database>> shards;
    for (const Block& shard : dealt(rows, {0.5, 0.5}, 8))
    {
        shards.push_back(databaseWith(kCreate, shard));
    }
    Block narrow;
    Column k(TypeId::Int32);
    for (int32_t key = 0; key < 1000; ++key)
    {
        k.append(key);
    }
    narrow.columns.push_back({"k", std::move(k)});
    shards[1] = databaseWith("CREATE TABLE t (k Int32) ORDER BY k", narrow);
    const auto outcomes =
        runDistributed("SELECT k, count(*) FROM t GROUP BY k ORDER BY k", shards, 1);
    EXPECT_EQ(expectSameFailureEverywhere(outcomes, "rank 0: partial states from rank 1"),
              ErrorCode::kIncorrectData);
}

TEST(DistributedSelectExchange, LargeStatesTakeSeveralRounds)
{
    // 4,000 groups with an 8 KB min() state each, all scanned on rank 0: 32 MB of states,
    // more than one kMessageBytes message for every destination.
    constexpr size_t kRows = 4'000;
    constexpr size_t kPayload = 8 << 10;
    static_assert(kRows * kPayload / 3 > kMessageBytes);
    Column k(TypeId::UInt32);
    Column payload(TypeId::String);
    for (size_t row = 0; row < kRows; ++row)
    {
        k.append(static_cast<uint32_t>(row * 7919 % kRows));
        std::string value = std::to_string(row) + ":";
        value.resize(kPayload, static_cast<char>('a' + row % 26));
        payload.appendString(value);
    }
    Block rows;
    rows.columns.push_back({"k", std::move(k)});
    rows.columns.push_back({"payload", std::move(payload)});
    constexpr const char* kCreateLarge = "CREATE TABLE t (k UInt32, payload String) ORDER BY k";
    const std::shared_ptr<Database> whole = databaseWith(kCreateLarge, rows);
    const std::string query =
        "SELECT k, min(payload) AS p, count(*) FROM t GROUP BY k ORDER BY k LIMIT 100 OFFSET 7";
    const Block expected = runSingle(query, *whole, 2);
    for (const size_t ranks : {2, 3})
    {
        SCOPED_TRACE(ranks);
        std::vector<std::shared_ptr<Database>> shards = {whole};
        for (size_t rank = 1; rank < ranks; ++rank)
        {
            shards.push_back(databaseWith(kCreateLarge, {}));
        }
        const auto outcomes = runDistributed(query, shards, 2);
        ASSERT_FALSE(outcomes[0].failure);
        const ExchangeStats& exchange = outcomes[0].result.exchange;
        EXPECT_GT(exchange.rounds, 1u);
        EXPECT_GT(exchange.messages_sent, ranks - 1);
        EXPECT_GT(exchange.state_bytes, kRows * kPayload);
        EXPECT_EQ(blockDifference(expected, outcomes[0].result.outcome.block), "");
        for (size_t rank = 1; rank < ranks; ++rank)
        {
            ASSERT_FALSE(outcomes[rank].failure);
            EXPECT_EQ(outcomes[rank].result.exchange.rounds, exchange.rounds);
        }
    }
}

}  // namespace
}  // namespace granary::distributed
