#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/distributed/transport.h"

namespace granary::distributed::test
{

/// What the ranks of one ThreadTransport job share: each collective is a post of every rank's
/// outgoing bytes, a barrier, a pick-up of what was posted to this rank, and a second barrier
/// that keeps the next collective's posts from overwriting bytes not yet picked up.
class ThreadJob
{
public:
    explicit ThreadJob(size_t ranks) : ranks_(ranks), posted_(ranks), kinds_(ranks) {}

    size_t ranks() const { return ranks_; }

    /// Rank `rank`'s part in a collective of kind `kind`: outgoing[r] goes to rank r; returns
    /// what each rank posted here, by source rank. Ranks calling different collectives at
    /// the same point, or one rank never arriving, is a bug in the code under test: the job
    /// stops (as an MPI job under a timeout would) instead of hanging the test run.
    std::vector<std::string> exchange(size_t rank, const char* kind,
                                      std::vector<std::string> outgoing)
    {
        std::unique_lock lock(mutex_);
        posted_[rank] = std::move(outgoing);
        kinds_[rank] = kind;
        barrier(lock, rank, kind);
        std::vector<std::string> incoming(ranks_);
        for (size_t from = 0; from < ranks_; ++from)
        {
            if (kinds_[from] != kinds_[rank])
            {
                abortJob("rank " + std::to_string(rank) + " called " + kind + " while rank " +
                         std::to_string(from) + " called " + kinds_[from]);
            }
            incoming[from] = std::move(posted_[from][rank]);
        }
        barrier(lock, rank, kind);
        return incoming;
    }

private:
    /// Waits until every rank has arrived; the generation tells a waiter that its own barrier
    /// is over even when fast ranks have already entered the next one.
    void barrier(std::unique_lock<std::mutex>& lock, size_t rank, const char* kind)
    {
        const size_t generation = generation_;
        if (++arrived_ == ranks_)
        {
            arrived_ = 0;
            ++generation_;
            changed_.notify_all();
            return;
        }
        if (!changed_.wait_for(lock, kTimeout, [&] { return generation_ != generation; }))
        {
            abortJob("rank " + std::to_string(rank) + " waited " +
                     std::to_string(kTimeout.count()) + " s for the others in " + kind);
        }
    }

    [[noreturn]] static void abortJob(const std::string& problem)
    {
        std::fprintf(stderr, "ThreadTransport: %s\n", problem.c_str());
        std::abort();
    }

    static constexpr std::chrono::seconds kTimeout{60};

    const size_t ranks_;
    std::mutex mutex_;
    std::condition_variable changed_;
    size_t arrived_ = 0;
    size_t generation_ = 0;
    std::vector<std::vector<std::string>> posted_;
    std::vector<std::string> kinds_;
};

/// An in-process Transport: the ranks are threads of one ThreadJob.
class ThreadTransport : public Transport
{
public:
    ThreadTransport(ThreadJob& job, size_t rank) : job_(job), rank_(rank) {}

    size_t rank() const override { return rank_; }
    size_t ranks() const override { return job_.ranks(); }

    std::vector<std::string> allToAll(std::vector<std::string> outgoing) override
    {
        EXPECT_EQ(outgoing.size(), ranks());
        outgoing.resize(ranks());
        return job_.exchange(rank_, "allToAll", std::move(outgoing));
    }
    std::vector<std::string> allGather(std::string bytes) override
    {
        return job_.exchange(rank_, "allGather", std::vector<std::string>(ranks(), bytes));
    }
    std::vector<std::string> gather(std::string bytes) override
    {
        std::vector<std::string> outgoing(ranks());
        outgoing[0] = std::move(bytes);
        std::vector<std::string> incoming = job_.exchange(rank_, "gather", std::move(outgoing));
        if (rank_ != 0)
        {
            incoming.clear();
        }
        return incoming;
    }

private:
    ThreadJob& job_;
    const size_t rank_;
};

/// What one rank's thread of runOnRanks ended with.
template <typename Result>
struct RankOutcome
{
    Result result{};
    std::exception_ptr failure;
};

/// Runs body(transport) on `ranks` threads, one per rank of a fresh ThreadJob, and returns
/// each rank's result or exception, by rank.
template <typename Body>
auto runOnRanks(size_t ranks, Body&& body)
{
    using Result = std::invoke_result_t<Body&, Transport&>;
    ThreadJob job(ranks);
    std::vector<RankOutcome<Result>> outcomes(ranks);
    std::vector<std::thread> threads;
    for (size_t rank = 0; rank < ranks; ++rank)
    {
        threads.emplace_back(
            [&, rank]
            {
                ThreadTransport transport(job, rank);
                try
                {
                    outcomes[rank].result = body(static_cast<Transport&>(transport));
                }
                catch (...)
                {
                    outcomes[rank].failure = std::current_exception();
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    return outcomes;
}

}  // namespace granary::distributed::test
