#include "alloc/arena.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "alloc/huge_pages.h"
#include "alloc/memory_tracker.h"

namespace granary
{

struct Arena::ChunkHeader
{
    ChunkHeader* previous;
    size_t total_bytes;
};

Arena::Arena(size_t initial_chunk_bytes, size_t max_chunk_bytes)
    : next_chunk_bytes_(std::max<size_t>(initial_chunk_bytes, 64)),
      max_chunk_bytes_(std::max(max_chunk_bytes, next_chunk_bytes_))
{
}

Arena::~Arena()
{
    freeChunks();
}

Arena::Arena(Arena&& other) noexcept
    : head_(std::exchange(other.head_, nullptr)),
      pos_(std::exchange(other.pos_, nullptr)),
      end_(std::exchange(other.end_, nullptr)),
      next_chunk_bytes_(other.next_chunk_bytes_),
      max_chunk_bytes_(other.max_chunk_bytes_),
      used_bytes_(std::exchange(other.used_bytes_, 0)),
      reserved_bytes_(std::exchange(other.reserved_bytes_, 0)),
      chunk_count_(std::exchange(other.chunk_count_, 0))
{
}

Arena& Arena::operator=(Arena&& other) noexcept
{
    if (this != &other)
    {
        freeChunks();
        head_ = std::exchange(other.head_, nullptr);
        pos_ = std::exchange(other.pos_, nullptr);
        end_ = std::exchange(other.end_, nullptr);
        next_chunk_bytes_ = other.next_chunk_bytes_;
        max_chunk_bytes_ = other.max_chunk_bytes_;
        used_bytes_ = std::exchange(other.used_bytes_, 0);
        reserved_bytes_ = std::exchange(other.reserved_bytes_, 0);
        chunk_count_ = std::exchange(other.chunk_count_, 0);
    }
    return *this;
}

void Arena::addChunk(size_t min_payload)
{
    const size_t payload = std::max(next_chunk_bytes_, min_payload);
    const size_t total = payload + sizeof(ChunkHeader);
    trackAllocation(total);
    void* memory = std::malloc(total);
    if (memory == nullptr)
    {
        trackDeallocation(total);
        throw std::bad_alloc();
    }
    adviseHugePages(memory, total);
    auto* chunk = static_cast<ChunkHeader*>(memory);
    chunk->previous = head_;
    chunk->total_bytes = total;
    head_ = chunk;
    pos_ = reinterpret_cast<char*>(chunk + 1);
    end_ = reinterpret_cast<char*>(chunk) + total;
    reserved_bytes_ += total;
    ++chunk_count_;
    // Doubling keeps the chunk count logarithmic; past the cap, linear growth bounds waste.
    next_chunk_bytes_ = std::min(next_chunk_bytes_ * 2, max_chunk_bytes_);
}

void Arena::freeChunks() noexcept
{
    while (head_ != nullptr)
    {
        ChunkHeader* previous = head_->previous;
        trackDeallocation(head_->total_bytes);
        std::free(head_);
        head_ = previous;
    }
    pos_ = end_ = nullptr;
}

}  // namespace granary
