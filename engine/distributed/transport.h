#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace granary::distributed
{

/// The collectives a distributed query needs from its runtime (MPI in `granary mpi-query`,
/// threads in the tests). Every rank calls each collective in the same order; a transport
/// that cannot complete one (a rank gone, a timeout) stops the whole job rather than return.
class Transport
{
public:
    virtual ~Transport() = default;

    virtual size_t rank() const = 0;
    virtual size_t ranks() const = 0;
    /// Sends outgoing[r] to rank r (outgoing has ranks() entries, this rank's own included);
    /// returns what each rank sent here, by source rank.
    virtual std::vector<std::string> allToAll(std::vector<std::string> outgoing) = 0;
    /// Every rank's bytes at every rank, in rank order.
    virtual std::vector<std::string> allGather(std::string bytes) = 0;
    /// Every rank's bytes at rank 0, in rank order; an empty vector at the other ranks.
    virtual std::vector<std::string> gather(std::string bytes) = 0;
};

}  // namespace granary::distributed
