#include "engine/exec/reader_scalable_shared_mutex.h"

#include <thread>

namespace granary
{

size_t ReaderScalableSharedMutex::takeSlotIndex()
{
    // In turn, so that no two of the first kReaderSlots threads share a slot.
    static std::atomic<size_t> next_slot{0};
    return next_slot.fetch_add(1, std::memory_order_relaxed) % kReaderSlots;
}

void ReaderScalableSharedMutex::waitWhileWriter() const
{
    while (writer_.load(std::memory_order_acquire))
    {
        std::this_thread::yield();
    }
}

void ReaderScalableSharedMutex::lock()
{
    writers_.lock();
    writer_.store(true);
    for (const ReaderSlot& slot : slots_)
    {
        while (slot.readers.load() != 0)
        {
            std::this_thread::yield();
        }
    }
}

void ReaderScalableSharedMutex::unlock()
{
    writer_.store(false, std::memory_order_release);
    writers_.unlock();
}

}  // namespace granary
