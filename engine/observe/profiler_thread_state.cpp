#include "engine/observe/profiler_thread_state.h"

#include <execinfo.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <mutex>
#include <system_error>

#include "engine/observe/profile_events.h"
#include "engine/observe/query_profiler.h"

namespace granary
{
namespace
{

/// What the signal handler reads: a plain pointer, set once the state is complete and cleared
/// before it is destroyed, so the handler never sees a half-built or dead state.
constinit thread_local ProfilerThreadState* t_state = nullptr;

const void* interruptedInstruction(const void* context)
{
    const auto* user_context = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(user_context->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(user_context->uc_mcontext.pc);
#else
    return nullptr;
#endif
}

void onProfilerSignal(int, siginfo_t*, void* context)
{
    const int saved_errno = errno;
    if (ProfilerThreadState* state = ProfilerThreadState::currentIfCreated())
    {
        state->onProfilerSignal(interruptedInstruction(context));
    }
    errno = saved_errno;
}

}  // namespace

void installProfilerSignalHandler()
{
    static std::once_flag installed;
    std::call_once(installed,
                   []
                   {
                       void* warm_up[1];
                       backtrace(warm_up, 1);
                       struct sigaction action = {};
                       action.sa_sigaction = &onProfilerSignal;
                       action.sa_flags = SA_SIGINFO | SA_RESTART;
                       sigemptyset(&action.sa_mask);
                       if (sigaction(kProfilerSignal, &action, nullptr) != 0)
                       {
                           throw std::system_error(errno, std::generic_category(),
                                                   "sigaction(SIGPROF)");
                       }
                   });
}

ProfilerThreadState& ProfilerThreadState::current()
{
    /// Owns the state; at thread exit hides it from the handler before destroying it.
    struct Owner
    {
        std::unique_ptr<ProfilerThreadState> state = std::make_unique<ProfilerThreadState>();
        Owner() { t_state = state.get(); }
        ~Owner()
        {
            t_state = nullptr;
            std::atomic_signal_fence(std::memory_order_seq_cst);
        }
    };
    thread_local Owner owner;
    return *owner.state;
}

ProfilerThreadState* ProfilerThreadState::currentIfCreated()
{
    return t_state;
}

ProfilerThreadState::ProfilerThreadState() : thread_id_(gettid()) {}

ProfilerThreadState::~ProfilerThreadState()
{
    if (thread_timer)
    {
        timer_delete(*thread_timer);
    }
}

void ProfilerThreadState::onProfilerSignal(const void* interrupted_pc)
{
    if (!sampling_.load(std::memory_order_relaxed))
    {
        // A lazily kept timer fired after its task: stop it (timer_settime is
        // async-signal-safe) until the thread samples again.
        if (running_period_ns.exchange(0, std::memory_order_relaxed) != 0)
        {
            const itimerspec stopped{};
            timer_settime(*thread_timer, 0, &stopped, nullptr);
        }
        return;
    }
    StackSample* sample = samples_.beginWrite();
    if (sample == nullptr)
    {
        return;
    }
    // glibc's backtrace unwinds with libgcc's DWARF unwinder, which finds frames without frame
    // pointers and, since glibc 2.35, looks code up with the lock-free _dl_find_object.
    void** frames = sample->frames.data();
    void** frames_end = frames + std::max(backtrace(frames, static_cast<int>(kMaxStackDepth)), 0);
    // Drop the handler's own frames: the stack starts at the interrupted instruction.
    void** interrupted = std::find(frames, frames_end, interrupted_pc);
    if (interrupted == frames_end)
    {
        interrupted = frames;
    }
    std::copy(interrupted, frames_end, frames);
    sample->depth = static_cast<uint32_t>(frames_end - interrupted);
    samples_.commitWrite();
}

QueryProfiler* ProfilerThreadState::switchTo(QueryProfiler* query)
{
    sampling_.store(false, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    flush();
    QueryProfiler* previous = std::exchange(query_, query);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    sampling_.store(query != nullptr, std::memory_order_relaxed);
    return previous;
}

void ProfilerThreadState::flush()
{
    std::unique_ptr<QueryProfiler::SampleBatch> batch;
    samples_.drain(
        [&](const StackSample& sample)
        {
            if (!batch)
            {
                batch = std::make_unique<QueryProfiler::SampleBatch>();
            }
            batch->frames.insert(batch->frames.end(), sample.frames.begin(),
                                 sample.frames.begin() + sample.depth);
            batch->depths.push_back(sample.depth);
        });
    if (const uint64_t dropped = samples_.takeDropped(); dropped != 0)
    {
        ProfileEvents::increment(ProfileEvent::ProfilerSamplesDropped, dropped);
    }
    if (batch && query_ != nullptr)
    {
        ProfileEvents::increment(ProfileEvent::ProfilerSamples, batch->depths.size());
        query_->addSamples(std::move(batch));
    }
}

}  // namespace granary
