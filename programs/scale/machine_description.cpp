#include "programs/scale/machine_description.h"

#include <fmt/format.h>
#include <hwloc.h>
#include <unistd.h>

#include <array>
#include <memory>
#include <nlohmann/json.hpp>

namespace granary::scale
{

namespace
{

struct TopologyDeleter
{
    void operator()(hwloc_topology* topology) const { hwloc_topology_destroy(topology); }
};
using Topology = std::unique_ptr<hwloc_topology, TopologyDeleter>;

size_t countOf(hwloc_topology_t topology, hwloc_obj_type_t type)
{
    const int count = hwloc_get_nbobjs_by_type(topology, type);
    return count > 0 ? static_cast<size_t>(count) : 0;
}

std::string formatBytes(uint64_t bytes)
{
    constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < kUnits.size())
    {
        value /= 1024;
        ++unit;
    }
    return fmt::format("{:.3g} {}", value, kUnits[unit]);
}

std::string hostName()
{
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0)
    {
        return {};
    }
    return name.data();
}

}  // namespace

MachineDescription describeThisMachine()
{
    MachineDescription machine;
    machine.host = hostName();
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0)
    {
        return machine;
    }
    Topology topology(raw);
    if (hwloc_topology_load(raw) != 0)
    {
        return machine;
    }
    machine.packages = countOf(raw, HWLOC_OBJ_PACKAGE);
    machine.cores = countOf(raw, HWLOC_OBJ_CORE);
    machine.hardware_threads = countOf(raw, HWLOC_OBJ_PU);
    machine.numa_nodes = countOf(raw, HWLOC_OBJ_NUMANODE);
    if (hwloc_obj_t package = hwloc_get_obj_by_type(raw, HWLOC_OBJ_PACKAGE, 0))
    {
        if (const char* model = hwloc_obj_get_info_by_name(package, "CPUModel"))
        {
            machine.cpu_model = model;
        }
    }
    constexpr std::array<std::pair<hwloc_obj_type_t, const char*>, 4> kCaches = {{
        {HWLOC_OBJ_L1CACHE, "L1d"},
        {HWLOC_OBJ_L2CACHE, "L2"},
        {HWLOC_OBJ_L3CACHE, "L3"},
        {HWLOC_OBJ_L4CACHE, "L4"},
    }};
    for (const auto& [type, name] : kCaches)
    {
        hwloc_obj_t cache = hwloc_get_obj_by_type(raw, type, 0);
        if (cache != nullptr && cache->attr != nullptr)
        {
            machine.caches.push_back({name, cache->attr->cache.size, countOf(raw, type)});
        }
    }
    machine.memory_bytes = hwloc_get_root_obj(raw)->total_memory;
    return machine;
}

std::string MachineDescription::summary() const
{
    std::string out = fmt::format("{} | {} socket{}, {} cores, {} threads (SMT {}), {} NUMA node{}",
                                  cpu_model.empty() ? "unknown CPU" : cpu_model, packages,
                                  packages == 1 ? "" : "s", cores, hardware_threads,
                                  threadsPerCore(), numa_nodes, numa_nodes == 1 ? "" : "s");
    for (const CacheLevel& cache : caches)
    {
        out += fmt::format(", {} {}x{}", cache.name, cache.instances, formatBytes(cache.bytes));
    }
    out += fmt::format(", {} RAM", formatBytes(memory_bytes));
    if (!host.empty())
    {
        out += " | host " + host;
    }
    return out;
}

std::string MachineDescription::toJson() const
{
    nlohmann::json json = {
        {"host", host},
        {"cpu_model", cpu_model},
        {"packages", packages},
        {"cores", cores},
        {"hardware_threads", hardware_threads},
        {"threads_per_core", threadsPerCore()},
        {"numa_nodes", numa_nodes},
        {"memory_bytes", memory_bytes},
        {"caches", nlohmann::json::array()},
    };
    for (const CacheLevel& cache : caches)
    {
        json["caches"].push_back(
            {{"name", cache.name}, {"bytes", cache.bytes}, {"instances", cache.instances}});
    }
    return json.dump(2);
}

}  // namespace granary::scale
