#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/distributed/transport.h"
#include "engine/exec/query_stats.h"

namespace granary::distributed
{

/// A message that arrived from another rank (or from this one, for its own buckets).
struct ArrivedMessage
{
    size_t source = 0;
    std::string bytes;
};

/// A query's conversation with the other ranks over a Transport: the state exchange in
/// rounds, the meeting of results at rank 0, and the agreement on failures that keeps every
/// rank in step (a rank that fails tells the others at the next agreement, and all of them
/// stop with its error, instead of leaving them waiting in a collective). Counts bytes and
/// times the collectives into an ExchangeStats.
class RankExchange
{
public:
    RankExchange(Transport& transport, ExchangeStats& stats);

    size_t rank() const { return transport_.rank(); }
    size_t ranks() const { return transport_.ranks(); }

    /// Runs `work` on this rank, then agrees with the others: if any rank's work threw, every
    /// rank throws the lowest failing rank's error (its code, "rank R: " and its message).
    void agreeAfter(const std::function<void()>& work);

    /// Sends outgoing[r]'s messages to rank r, in rounds of at most one message per
    /// destination; `on_round` gets each round's arrivals before the next round is sent, so
    /// that a receiver holds one round at a time.
    void exchangeInRounds(std::vector<std::vector<std::string>> outgoing,
                          const std::function<void(std::vector<ArrivedMessage>&)>& on_round);

    /// Every rank's bytes at rank 0, in rank order; empty at the others. Counted as result
    /// bytes.
    std::vector<std::string> gatherAtRoot(std::string bytes);

    /// At rank 0, every rank's exchange figures into the stats' per_rank.
    void gatherStatistics();

private:
    /// Times a collective into exchange_seconds.
    template <typename F>
    auto timed(F&& collective)
    {
        const auto start = std::chrono::steady_clock::now();
        auto result = collective();
        stats_.exchange_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    Transport& transport_;
    ExchangeStats& stats_;
};

}  // namespace granary::distributed
