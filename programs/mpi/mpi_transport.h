#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/distributed/transport.h"

namespace granary::programs
{

/// The Transport of `granary mpi-query` over MPI_COMM_WORLD: MPI's nonblocking collectives,
/// each polled against a deadline. A collective that does not complete in time (a rank that
/// died, hangs or took another path) ends the whole job with MPI_Abort and a message naming
/// the collective, so that no rank waits forever. Initializes MPI on construction and
/// finalizes it on destruction; only the constructing thread may call it.
class MpiTransport final : public distributed::Transport
{
public:
    explicit MpiTransport(std::chrono::duration<double> timeout);
    ~MpiTransport() override;
    MpiTransport(const MpiTransport&) = delete;
    MpiTransport& operator=(const MpiTransport&) = delete;

    size_t rank() const override { return rank_; }
    size_t ranks() const override { return ranks_; }
    std::vector<std::string> allToAll(std::vector<std::string> outgoing) override;
    std::vector<std::string> allGather(std::string bytes) override;
    std::vector<std::string> gather(std::string bytes) override;

    /// Ends every rank of the job: MPI_Abort with `exit_code`, after `message` on stderr.
    [[noreturn]] void abortJob(const std::string& message, int exit_code) const;

private:
    /// `bytes` as an MPI count; past INT_MAX, the job is aborted naming `collective`.
    int countOf(size_t bytes, const char* collective) const;
    /// Displacements of `counts` laid end to end, and their total (a count too).
    std::vector<int> displacementsOf(const std::vector<int>& counts, size_t& total) const;
    /// Waits for `request` (an MPI_Request*) until the deadline; aborts the job past it.
    void await(void* request, const char* collective) const;
    /// The test hook GRANARY_MPI_FAULT ("exit:R" or "hang:R"): rank R exits without a word,
    /// or stops answering, when it reaches its first all-to-all exchange.
    void injectFault();

    size_t rank_ = 0;
    size_t ranks_ = 1;
    std::chrono::duration<double> timeout_;
    bool fault_checked_ = false;
};

}  // namespace granary::programs
