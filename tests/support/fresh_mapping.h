#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "alloc/huge_pages.h"

namespace granary::test
{

/// Fresh private anonymous memory of its own (not the allocator's, whose blocks other code
/// may have touched or advised), starting on a huge-page boundary; unmapped at the end.
class FreshMapping
{
public:
    explicit FreshMapping(size_t bytes) : mapped_bytes_(bytes + kHugePageBytes)
    {
        mapping_ = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
        if (mapping_ == MAP_FAILED)
        {
            throw std::runtime_error("mmap failed");
        }
        const auto start = reinterpret_cast<uintptr_t>(mapping_);
        data_ =
            reinterpret_cast<char*>((start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes);
    }
    ~FreshMapping() { munmap(mapping_, mapped_bytes_); }
    FreshMapping(const FreshMapping&) = delete;
    FreshMapping& operator=(const FreshMapping&) = delete;

    char* data() const { return data_; }

private:
    size_t mapped_bytes_;
    void* mapping_;
    char* data_;
};

}  // namespace granary::test
