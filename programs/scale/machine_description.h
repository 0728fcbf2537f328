#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace granary::scale
{

struct CacheLevel
{
    std::string name;    ///< "L1d", "L2", "L3".
    uint64_t bytes = 0;  ///< Size of one instance.
    size_t instances = 0;
};

/// What a scaling result depends on, so that results from different machines can be told apart.
struct MachineDescription
{
    std::string host;
    std::string cpu_model;
    size_t packages = 0;
    size_t cores = 0;
    size_t hardware_threads = 0;
    size_t numa_nodes = 0;
    std::vector<CacheLevel> caches;
    uint64_t memory_bytes = 0;

    size_t threadsPerCore() const { return cores == 0 ? 0 : hardware_threads / cores; }
    /// One line: "Intel Xeon ... | 1 socket, 16 cores, 32 threads (SMT 2), 1 NUMA node, ...".
    std::string summary() const;
    std::string toJson() const;
};

/// The running machine, through hwloc's topology; a field hwloc cannot tell stays empty/zero.
MachineDescription describeThisMachine();

}  // namespace granary::scale
