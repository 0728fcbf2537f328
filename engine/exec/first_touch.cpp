#include "engine/exec/first_touch.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/exec/query_context.h"

namespace granary
{
namespace
{

/// The first multiple of `alignment` above `address`.
uintptr_t nextBoundary(uintptr_t address, size_t alignment)
{
    return (address / alignment + 1) * alignment;
}

}  // namespace

void touchPagesInParallel(std::span<const UntouchedBuffer> buffers, QueryContext& context,
                          PhaseRecorder& recorder)
{
    using namespace first_touch;
    size_t total_bytes = 0;
    for (const UntouchedBuffer& buffer : buffers)
    {
        total_bytes += buffer.bytes;
    }
    if (total_bytes < kMinTouchedBytes)
    {
        return;
    }
    // The buffers cut at huge-page boundaries: each piece lies in one huge page, so a task
    // owns whole huge pages (a page shared by the end of one buffer and the start of the next
    // may be touched by two tasks; the second finds it present).
    std::vector<UntouchedBuffer> pieces;
    for (const UntouchedBuffer& buffer : buffers)
    {
        const auto begin = reinterpret_cast<uintptr_t>(buffer.data);
        const uintptr_t end = begin + buffer.bytes;
        for (uintptr_t piece = begin; piece < end;)
        {
            const uintptr_t piece_end = std::min(end, nextBoundary(piece, kHugePageBytes));
            pieces.push_back({reinterpret_cast<char*>(piece), piece_end - piece});
            piece = piece_end;
        }
    }
    const size_t tasks = std::min(kMaxTouchTasks, pieces.size());
    context.runTasks(recorder, tasks,
                     [&](size_t task, TaskTimer&)
                     {
                         const size_t first = task * pieces.size() / tasks;
                         const size_t last = (task + 1) * pieces.size() / tasks;
                         for (size_t p = first; p < last; ++p)
                         {
                             // A write into every base page: the first one faults the huge
                             // page in where the kernel gives one, the others are cheap.
                             const auto begin = reinterpret_cast<uintptr_t>(pieces[p].data);
                             const uintptr_t end = begin + pieces[p].bytes;
                             for (uintptr_t byte = begin; byte < end;
                                  byte = nextBoundary(byte, kBasePageBytes))
                             {
                                 *reinterpret_cast<volatile char*>(byte) = 0;
                             }
                         }
                     });
}

}  // namespace granary
