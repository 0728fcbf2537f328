#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace granary
{

/// Bump allocator for keys and aggregate states: many small allocations, freed all at once.
/// Chunks start small and double up to a cap, then grow linearly by the cap, so a small query
/// wastes little and a large one makes few system allocations. Not thread-safe: one per thread.
class Arena
{
public:
    /// First chunk: small enough that an arena per hash table or per thread costs little.
    static constexpr size_t kDefaultInitialChunkBytes = 4096;
    /// Past this chunk size growth becomes linear, bounding the unused tail to one chunk.
    static constexpr size_t kDefaultMaxChunkBytes = 128 * 1024 * 1024;

    explicit Arena(size_t initial_chunk_bytes = kDefaultInitialChunkBytes,
                   size_t max_chunk_bytes = kDefaultMaxChunkBytes);
    ~Arena();

    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    Arena(Arena&& other) noexcept;
    Arena& operator=(Arena&& other) noexcept;

    /// Returns `size` bytes aligned to alignof(std::max_align_t).
    char* alloc(size_t size) { return alignedAlloc(size, alignof(std::max_align_t)); }

    /// Returns `size` bytes aligned to `alignment` (a power of two).
    char* alignedAlloc(size_t size, size_t alignment)
    {
        uintptr_t aligned = (reinterpret_cast<uintptr_t>(pos_) + alignment - 1) & ~(alignment - 1);
        if (aligned + size > reinterpret_cast<uintptr_t>(end_)) [[unlikely]]
        {
            addChunk(size + alignment);
            aligned = (reinterpret_cast<uintptr_t>(pos_) + alignment - 1) & ~(alignment - 1);
        }
        char* result = reinterpret_cast<char*>(aligned);
        pos_ = result + size;
        used_bytes_ += size;
        return result;
    }

    /// Copies `bytes` into the arena (byte-aligned, no terminator) and returns the copy.
    std::string_view insert(std::string_view bytes)
    {
        char* copy = alignedAlloc(bytes.size(), 1);
        if (!bytes.empty())
        {
            std::memcpy(copy, bytes.data(), bytes.size());
        }
        return {copy, bytes.size()};
    }

    /// Bytes handed out by alloc/insert (without alignment padding).
    size_t bytesUsed() const { return used_bytes_; }
    /// Bytes obtained from the system allocator for chunks.
    size_t bytesReserved() const { return reserved_bytes_; }
    size_t chunkCount() const { return chunk_count_; }

private:
    struct ChunkHeader;

    void addChunk(size_t min_payload);
    void freeChunks() noexcept;

    ChunkHeader* head_ = nullptr;
    char* pos_ = nullptr;
    char* end_ = nullptr;
    size_t next_chunk_bytes_;
    size_t max_chunk_bytes_;
    size_t used_bytes_ = 0;
    size_t reserved_bytes_ = 0;
    size_t chunk_count_ = 0;
};

}  // namespace granary
