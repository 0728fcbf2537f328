#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace granary
{

/// Deepest stack a sample keeps; deeper stacks lose their outermost frames.
inline constexpr size_t kMaxStackDepth = 64;

/// Return addresses of one sample, innermost (the interrupted instruction) first.
struct StackSample
{
    uint32_t depth = 0;
    std::array<void*, kMaxStackDepth> frames{};
};

/// Samples written by a thread's profiling signal handler and drained by the same thread when
/// its task ends. Single producer, single consumer, lock-free: the handler may interrupt a
/// drain, so each side publishes its index with one atomic store and never waits.
class StackSampleRing
{
public:
    /// At the default 10 ms sampling period: 1.28 s of CPU time per task before samples drop.
    static constexpr uint32_t kCapacity = 128;

    StackSampleRing() : slots_(std::make_unique<StackSample[]>(kCapacity)) {}

    /// Signal-handler side: the slot to fill, or null (counting a dropped sample) when full.
    StackSample* beginWrite()
    {
        const uint32_t head = head_.load(std::memory_order_relaxed);
        if (head - tail_.load(std::memory_order_acquire) == kCapacity)
        {
            dropped_.fetch_add(1, std::memory_order_relaxed);
            return nullptr;
        }
        return &slots_[head % kCapacity];
    }
    /// Publishes the slot returned by beginWrite.
    void commitWrite()
    {
        head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }

    /// Consumer side: calls on_sample for each published sample, oldest first, then frees them.
    template <typename OnSample>
    void drain(OnSample&& on_sample)
    {
        uint32_t tail = tail_.load(std::memory_order_relaxed);
        const uint32_t head = head_.load(std::memory_order_acquire);
        for (; tail != head; ++tail)
        {
            on_sample(slots_[tail % kCapacity]);
        }
        tail_.store(tail, std::memory_order_release);
    }

    /// Samples dropped since the last call.
    uint64_t takeDropped() { return dropped_.exchange(0, std::memory_order_relaxed); }

private:
    std::unique_ptr<StackSample[]> slots_;
    std::atomic<uint32_t> head_{0};
    std::atomic<uint32_t> tail_{0};
    std::atomic<uint64_t> dropped_{0};
};

}  // namespace granary
