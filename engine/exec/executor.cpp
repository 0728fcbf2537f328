#include "engine/exec/executor.h"

#include <tbb/global_control.h>

#include <algorithm>
#include <mutex>
#include <thread>

namespace granary
{
namespace
{

/// oneTBB caps all arenas at max_allowed_parallelism (by default the core count). Raising the
/// cap once, to the largest thread count asked for so far, lets queries oversubscribe.
void allowParallelism(size_t threads)
{
    static std::mutex mutex;
    static std::unique_ptr<tbb::global_control> control;
    static size_t allowed = 0;
    std::lock_guard lock(mutex);
    const size_t wanted = std::max<size_t>(threads, std::thread::hardware_concurrency());
    if (wanted > allowed)
    {
        control.reset();
        control = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, wanted);
        allowed = wanted;
    }
}

}  // namespace

Executor::Executor(size_t threads) : threads_(std::max<size_t>(threads, 1))
{
    allowParallelism(threads_);
    arena_ = std::make_unique<tbb::task_arena>(static_cast<int>(threads_));
}

Executor::Executor(TaskRunner& runner)
    : threads_(std::max<size_t>(runner.concurrency(), 1)), runner_(&runner)
{
}

Executor::~Executor() = default;

}  // namespace granary
