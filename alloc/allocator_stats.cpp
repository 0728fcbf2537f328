#include "alloc/allocator_stats.h"

#include <cstdint>

// Weak, so that builds without jemalloc (sanitizers) link and report "not active".
extern "C" int mallctl(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen)
    __attribute__((weak));

namespace granary
{
namespace
{

template <typename T>
std::optional<T> readMallctl(const char* name)
{
    if (mallctl == nullptr)
    {
        return std::nullopt;
    }
    T value{};
    size_t length = sizeof(value);
    if (mallctl(name, &value, &length, nullptr, 0) != 0)
    {
        return std::nullopt;
    }
    return value;
}

}  // namespace

bool jemallocActive()
{
    return readJemallocStringOption("version").has_value();
}

std::optional<AllocatorStats> readAllocatorStats()
{
    if (!jemallocActive())
    {
        return std::nullopt;
    }
    // jemalloc caches statistics; bumping the epoch refreshes them.
    uint64_t epoch = 1;
    size_t epoch_length = sizeof(epoch);
    mallctl("epoch", &epoch, &epoch_length, &epoch, epoch_length);

    AllocatorStats stats;
    stats.allocated_bytes = readMallctl<size_t>("stats.allocated").value_or(0);
    stats.active_bytes = readMallctl<size_t>("stats.active").value_or(0);
    stats.resident_bytes = readMallctl<size_t>("stats.resident").value_or(0);
    stats.mapped_bytes = readMallctl<size_t>("stats.mapped").value_or(0);
    stats.retained_bytes = readMallctl<size_t>("stats.retained").value_or(0);
    return stats;
}

std::optional<size_t> readJemallocSizeOption(const std::string& name)
{
    return readMallctl<size_t>(name.c_str());
}

bool writeJemallocSizeSetting(const std::string& name, size_t value)
{
    return mallctl != nullptr &&
           mallctl(name.c_str(), nullptr, nullptr, &value, sizeof(value)) == 0;
}

std::optional<std::string> readJemallocStringOption(const std::string& name)
{
    auto value = readMallctl<const char*>(name.c_str());
    if (!value || *value == nullptr)
    {
        return std::nullopt;
    }
    return std::string(*value);
}

}  // namespace granary
