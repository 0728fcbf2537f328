#include "programs/mpi/mpi_transport.h"

#include <mpi.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace granary::programs
{
namespace
{

/// MPI counts are ints: one collective moves at most this many bytes per rank pair.
constexpr size_t kMaxCollectiveBytes = INT_MAX;
/// Tests of a pending request before the poll starts sleeping between tests: short
/// collectives finish within these without a sleep's latency.
constexpr int kSpinTests = 4096;
/// The sleep between tests after that: a waiting rank leaves its core to the others
/// (oversubscribed runs put several ranks on one core).
constexpr std::chrono::microseconds kPollSleep{200};
/// Exit status of a job stopped because a collective timed out.
constexpr int kTimeoutExitCode = 3;
/// Exit status of a job stopped because a collective was too large for MPI's int counts.
constexpr int kTooLargeExitCode = 4;

std::vector<std::string> split(const std::string& buffer, const std::vector<int>& counts,
                               const std::vector<int>& displacements)
{
    std::vector<std::string> pieces(counts.size());
    for (size_t i = 0; i < counts.size(); ++i)
    {
        pieces[i].assign(buffer, static_cast<size_t>(displacements[i]),
                         static_cast<size_t>(counts[i]));
    }
    return pieces;
}

}  // namespace

int MpiTransport::countOf(size_t bytes, const char* collective) const
{
    if (bytes > kMaxCollectiveBytes)
    {
        // Thrown here, the other ranks would wait in the collective: the job stops instead.
        abortJob(std::string(collective) + " of " + std::to_string(bytes) +
                     " bytes: MPI collectives count at most " +
                     std::to_string(kMaxCollectiveBytes) + " bytes per rank",
                 kTooLargeExitCode);
    }
    return static_cast<int>(bytes);
}

std::vector<int> MpiTransport::displacementsOf(const std::vector<int>& counts, size_t& total) const
{
    std::vector<int> displacements(counts.size());
    total = 0;
    for (size_t i = 0; i < counts.size(); ++i)
    {
        displacements[i] = countOf(total, "a collective's buffer");
        total += static_cast<size_t>(counts[i]);
    }
    return displacements;
}

MpiTransport::MpiTransport(std::chrono::duration<double> timeout) : timeout_(timeout)
{
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    int ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    rank_ = static_cast<size_t>(rank);
    ranks_ = static_cast<size_t>(ranks);
}

MpiTransport::~MpiTransport()
{
    MPI_Finalize();
}

void MpiTransport::abortJob(const std::string& message, int exit_code) const
{
    std::fprintf(stderr, "granary mpi-query: rank %zu: %s\n", rank_, message.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
}

void MpiTransport::await(void* request_pointer, const char* collective) const
{
    auto* request = static_cast<MPI_Request*>(request_pointer);
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    for (int tests = 0;; ++tests)
    {
        int done = 0;
        MPI_Test(request, &done, MPI_STATUS_IGNORE);
        if (done)
        {
            return;
        }
        if (tests >= kSpinTests)
        {
            if (std::chrono::steady_clock::now() > deadline)
            {
                abortJob(std::string("no answer from every rank within ") +
                             std::to_string(timeout_.count()) + " s in " + collective +
                             " (a rank died or stopped answering); stopping every rank",
                         kTimeoutExitCode);
            }
            std::this_thread::sleep_for(kPollSleep);
        }
    }
}

void MpiTransport::injectFault()
{
    fault_checked_ = true;
    const char* fault = std::getenv("GRANARY_MPI_FAULT");
    if (fault == nullptr)
    {
        return;
    }
    const std::string spec(fault);
    const size_t colon = spec.find(':');
    if (colon == std::string::npos || std::stoul(spec.substr(colon + 1)) != rank_)
    {
        return;
    }
    const std::string kind = spec.substr(0, colon);
    if (kind == "exit")
    {
        std::_Exit(1);
    }
    if (kind == "hang")
    {
        for (;;)
        {
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    }
}

std::vector<std::string> MpiTransport::allToAll(std::vector<std::string> outgoing)
{
    if (!fault_checked_)
    {
        injectFault();
    }
    std::vector<int> send_counts(ranks_);
    std::string send_buffer;
    for (size_t to = 0; to < ranks_; ++to)
    {
        send_counts[to] = countOf(outgoing[to].size(), "an all-to-all exchange");
        send_buffer += outgoing[to];
        std::string().swap(outgoing[to]);
    }
    std::vector<int> receive_counts(ranks_);
    MPI_Request request;
    MPI_Ialltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD,
                  &request);
    await(&request, "the all-to-all exchange of message sizes");
    size_t send_total = 0;
    size_t receive_total = 0;
    const std::vector<int> send_displacements = displacementsOf(send_counts, send_total);
    const std::vector<int> receive_displacements = displacementsOf(receive_counts, receive_total);
    std::string receive_buffer(receive_total, '\0');
    MPI_Ialltoallv(send_buffer.data(), send_counts.data(), send_displacements.data(), MPI_BYTE,
                   receive_buffer.data(), receive_counts.data(), receive_displacements.data(),
                   MPI_BYTE, MPI_COMM_WORLD, &request);
    await(&request, "the all-to-all exchange of partial states");
    return split(receive_buffer, receive_counts, receive_displacements);
}

std::vector<std::string> MpiTransport::allGather(std::string bytes)
{
    int count = countOf(bytes.size(), "an all-gather");
    std::vector<int> counts(ranks_);
    MPI_Request request;
    MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
    await(&request, "the agreement between ranks");
    size_t total = 0;
    const std::vector<int> displacements = displacementsOf(counts, total);
    std::string buffer(total, '\0');
    MPI_Iallgatherv(bytes.data(), count, MPI_BYTE, buffer.data(), counts.data(),
                    displacements.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
    await(&request, "the agreement between ranks");
    return split(buffer, counts, displacements);
}

std::vector<std::string> MpiTransport::gather(std::string bytes)
{
    int count = countOf(bytes.size(), "the gathering of results");
    std::vector<int> counts(ranks_);
    MPI_Request request;
    MPI_Igather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    await(&request, "the gathering of results at rank 0");
    size_t total = 0;
    const std::vector<int> displacements =
        rank_ == 0 ? displacementsOf(counts, total) : std::vector<int>(ranks_);
    std::string buffer(total, '\0');
    MPI_Igatherv(bytes.data(), count, MPI_BYTE, buffer.data(), counts.data(), displacements.data(),
                 MPI_BYTE, 0, MPI_COMM_WORLD, &request);
    await(&request, "the gathering of results at rank 0");
    return rank_ == 0 ? split(buffer, counts, displacements) : std::vector<std::string>{};
}

}  // namespace granary::programs
