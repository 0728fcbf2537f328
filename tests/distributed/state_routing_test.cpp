// routeStates (state_routing.h): every partial-state row goes to the rank of its key's
// bucket, in its order, in messages of at most kMessageBytes (a larger row alone), for 1 to 5
// ranks, with and without keys; nothing is lost or duplicated.

#include "engine/distributed/state_routing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/aggregation/state_bucket.h"
#include "engine/distributed/block_wire.h"
#include "tests/distributed/block_difference.h"

namespace granary::distributed
{
namespace
{

/// Partial states in the shape the aggregation exports: key columns first (`k_int`, `k_str`,
/// `k_small`, `k_date`), then String state columns. The first state column starts with the
/// row's identity ("f<fragment>r<row>:") so that a row can be followed through the routing;
/// `state_bytes(row)` sets its length.
template <typename StateBytes>
Block fragmentOf(size_t fragment, size_t rows, uint64_t seed, StateBytes&& state_bytes)
{
    std::mt19937_64 random(seed);
    Column k_int(TypeId::Int64);
    Column k_str(TypeId::String);
    Column k_small(TypeId::UInt16);
    Column k_date(TypeId::Date);
    Column state(TypeId::String);
    Column other_state(TypeId::String);
    for (size_t row = 0; row < rows; ++row)
    {
        // Few distinct keys, so that a key's states come from several rows and fragments.
        k_int.append(static_cast<int64_t>(random() % 50) - 25);
        k_str.appendString(random() % 4 == 0 ? "" : "key" + std::to_string(random() % 30));
        k_small.append(static_cast<uint16_t>(random() % 7));
        k_date.append(static_cast<uint16_t>(19000 + random() % 3));
        std::string bytes = "f";
        bytes += std::to_string(fragment);
        bytes += 'r';
        bytes += std::to_string(row);
        bytes += ':';
        bytes.resize(std::max(bytes.size(), state_bytes(row)), static_cast<char>('a' + row % 26));
        state.appendString(bytes);
        other_state.appendString(std::string(random() % 16, '\x01'));
    }
    Block block;
    block.columns.push_back({"k_int", std::move(k_int)});
    block.columns.push_back({"k_str", std::move(k_str)});
    block.columns.push_back({"k_small", std::move(k_small)});
    block.columns.push_back({"k_date", std::move(k_date)});
    block.columns.push_back({"state", std::move(state)});
    block.columns.push_back({"other_state", std::move(other_state)});
    return block;
}

std::vector<Block> smallFragments()
{
    std::vector<Block> fragments;
    for (size_t f = 0; f < 4; ++f)
    {
        fragments.push_back(
            fragmentOf(f, f == 2 ? 0 : 500 + 300 * f, 100 + f, [](size_t) { return size_t{0}; }));
    }
    return fragments;
}

/// The rank routeStates must send `fragment`'s row `row` to.
size_t expectedDestination(const Block& fragment, size_t keys, size_t row, size_t ranks)
{
    if (keys == 0)
    {
        return 0;
    }
    std::vector<ColumnView> views;
    for (size_t k = 0; k < keys; ++k)
    {
        views.push_back(fragment.columns[k].column.view());
    }
    return partialStateBucket(views, row) % ranks;
}

/// The rows of `fragments` bound for `destination`, in fragment then row order: what that
/// destination's messages must hold, in the same order.
Block expectedRowsFor(const std::vector<Block>& fragments, size_t keys, size_t ranks,
                      size_t destination)
{
    Block expected;
    for (const Block& fragment : fragments)
    {
        if (expected.columns.empty())
        {
            for (const Block::Entry& entry : fragment.columns)
            {
                expected.columns.push_back({entry.name, Column(entry.column.type())});
            }
        }
        for (size_t row = 0; row < fragment.rows(); ++row)
        {
            if (expectedDestination(fragment, keys, row, ranks) == destination)
            {
                for (size_t c = 0; c < fragment.columns.size(); ++c)
                {
                    expected.columns[c].column.appendRange(fragment.columns[c].column.view(), row,
                                                           1);
                }
            }
        }
    }
    return expected;
}

size_t messageRowBytes(const Block& message)
{
    size_t bytes = 0;
    for (size_t row = 0; row < message.rows(); ++row)
    {
        bytes += serializedRowBytes(message, row);
    }
    return bytes;
}

/// Checks routeStates(fragments, keys, ranks) against the rules; returns the number of
/// messages.
size_t checkRouting(const std::vector<Block>& fragments, size_t keys, size_t ranks)
{
    const std::vector<std::vector<std::string>> messages = routeStates(fragments, keys, ranks);
    EXPECT_EQ(messages.size(), ranks);
    size_t total_messages = 0;
    size_t routed_rows = 0;
    for (size_t to = 0; to < messages.size(); ++to)
    {
        SCOPED_TRACE("destination " + std::to_string(to));
        Block arrived;
        for (const std::string& bytes : messages[to])
        {
            const Block message = deserializeBlock(bytes, "a routed message");
            EXPECT_GT(message.rows(), 0u) << "an empty message";
            if (message.rows() > 1)
            {
                EXPECT_LE(messageRowBytes(message), kMessageBytes);
            }
            appendBlock(arrived, message);
        }
        total_messages += messages[to].size();
        routed_rows += arrived.rows();
        const Block expected = expectedRowsFor(fragments, keys, ranks, to);
        // Same columns, and the rows of this destination in their order: each row landed
        // here (and so nowhere else, as the rows add up below) and kept its place.
        if (expected.rows() > 0)
        {
            EXPECT_EQ(test::blockDifference(expected, arrived), "");
        }
        else
        {
            EXPECT_TRUE(messages[to].empty());
        }
    }
    size_t input_rows = 0;
    for (const Block& fragment : fragments)
    {
        input_rows += fragment.rows();
    }
    EXPECT_EQ(routed_rows, input_rows);
    return total_messages;
}

TEST(StateRouting, EveryRowGoesToItsBucketsRank)
{
    const std::vector<Block> fragments = smallFragments();
    for (size_t ranks = 1; ranks <= 5; ++ranks)
    {
        for (const size_t keys : {1, 2, 4})
        {
            SCOPED_TRACE(std::to_string(ranks) + " ranks, " + std::to_string(keys) + " keys");
            // Small states: one message per fragment and destination at most.
            EXPECT_LE(checkRouting(fragments, keys, ranks), (fragments.size() - 1) * ranks);
        }
    }
}

TEST(StateRouting, EveryRankGetsSomeRows)
{
    // 256 buckets over a few ranks: with hundreds of distinct keys none is left out.
    const std::vector<Block> fragments = smallFragments();
    for (size_t ranks = 2; ranks <= 5; ++ranks)
    {
        const std::vector<std::vector<std::string>> messages = routeStates(fragments, 4, ranks);
        for (size_t to = 0; to < ranks; ++to)
        {
            EXPECT_FALSE(messages[to].empty()) << to << " of " << ranks;
        }
    }
}

TEST(StateRouting, WithoutKeysEverythingGoesToRankZero)
{
    const std::vector<Block> fragments = smallFragments();
    for (size_t ranks = 1; ranks <= 5; ++ranks)
    {
        SCOPED_TRACE(ranks);
        EXPECT_GT(checkRouting(fragments, 0, ranks), 0u);
    }
}

TEST(StateRouting, NoRowsNoMessages)
{
    for (size_t ranks = 1; ranks <= 5; ++ranks)
    {
        EXPECT_EQ(routeStates({}, 1, ranks), std::vector<std::vector<std::string>>(ranks));
        const std::vector<Block> empty = {fragmentOf(0, 0, 1, [](size_t) { return size_t{0}; })};
        EXPECT_EQ(routeStates(empty, 2, ranks), std::vector<std::vector<std::string>>(ranks));
    }
}

TEST(StateRouting, LargeStatesAreCutIntoMessages)
{
    // Mostly 3 MB states (two or three to a message), some small ones between them, and one
    // state larger than a message, which must go alone.
    constexpr size_t kLarge = 3 << 20;
    const auto state_bytes = [](size_t row) -> size_t
    {
        if (row == 5)
        {
            return kMessageBytes + 1000;
        }
        return row % 4 == 3 ? 100 : kLarge;
    };
    const std::vector<Block> fragments = {fragmentOf(0, 24, 11, state_bytes),
                                          fragmentOf(1, 8, 12, state_bytes)};
    for (size_t ranks = 1; ranks <= 5; ++ranks)
    {
        SCOPED_TRACE(ranks);
        const size_t messages = checkRouting(fragments, 2, ranks);
        // About 80 MB of states in messages of at most 8 MiB.
        EXPECT_GE(messages, 12u);
        if (ranks == 1)
        {
            // One destination: every message but a fragment's last is full, that is, it
            // could not have taken the next row.
            const std::vector<std::string> cut = routeStates(fragments, 2, 1)[0];
            for (size_t m = 0; m + 1 < cut.size(); ++m)
            {
                const Block message = deserializeBlock(cut[m], "message");
                const Block next = deserializeBlock(cut[m + 1], "next message");
                const std::string_view last_id =
                    message.find("state")->stringAt(message.rows() - 1);
                const std::string_view next_id = next.find("state")->stringAt(0);
                if (last_id.substr(0, 2) == next_id.substr(0, 2))
                {
                    EXPECT_GT(messageRowBytes(message) + serializedRowBytes(next, 0), kMessageBytes)
                        << "message " << m;
                }
            }
        }
    }
}

}  // namespace
}  // namespace granary::distributed
