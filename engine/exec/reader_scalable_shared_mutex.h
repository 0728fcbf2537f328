#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "engine/observe/cache_line.h"

namespace granary
{

/// A shared mutex whose readers never write a cache line that other readers write: each thread
/// counts itself in one of many line-sized reader slots. std::shared_mutex keeps one reader
/// count, so every lock_shared moves its line between cores and readers scale no better than an
/// exclusive lock. Writers pay instead: they raise a flag and wait for every slot to drain, so
/// this suits read-mostly structures. Meets the SharedMutex requirements (std::shared_lock).
class ReaderScalableSharedMutex
{
public:
    void lock_shared()
    {
        std::atomic<uint32_t>& readers = readerSlot();
        while (true)
        {
            // Sequentially consistent on both sides: a reader and a writer arriving together
            // cannot both miss each other (the reader's count or the writer's flag is seen).
            readers.fetch_add(1);
            if (!writer_.load())
            {
                return;
            }
            readers.fetch_sub(1, std::memory_order_release);
            waitWhileWriter();
        }
    }
    void unlock_shared() { readerSlot().fetch_sub(1, std::memory_order_release); }

    void lock();
    void unlock();

private:
    /// Reader slots: as many threads as this count in separate cache lines.
    static constexpr size_t kReaderSlots = 64;
    /// t_slot_index of a thread that has not locked yet.
    static constexpr size_t kNoSlot = ~size_t{0};

    struct alignas(kCacheLineBytes) ReaderSlot
    {
        std::atomic<uint32_t> readers{0};
    };

    std::atomic<uint32_t>& readerSlot()
    {
        if (t_slot_index == kNoSlot) [[unlikely]]
        {
            t_slot_index = takeSlotIndex();
        }
        return slots_[t_slot_index].readers;
    }
    /// The calling thread's slot index, the same for every mutex; threads take them in turn.
    static size_t takeSlotIndex();
    void waitWhileWriter() const;

    static constinit inline thread_local size_t t_slot_index = kNoSlot;

    std::array<ReaderSlot, kReaderSlots> slots_;
    alignas(kCacheLineBytes) std::atomic<bool> writer_{false};
    /// Serialises writers; readers never touch it.
    std::mutex writers_;
};

}  // namespace granary
