#pragma once

#include <cstddef>
#include <span>

#include "alloc/huge_pages.h"

namespace granary
{

class QueryContext;
class PhaseRecorder;

/// A buffer whose pages have never been written (just allocated, contents undefined).
struct UntouchedBuffer
{
    char* data;
    size_t bytes;
};

/// Faults in the pages of `buffers` from parallel tasks of `recorder`'s phase, each task a run
/// of whole transparent huge pages (2 MiB), and leaves their contents undefined. For buffers
/// that parallel tasks then write at offsets unrelated to huge-page boundaries: otherwise the
/// first task to write into a huge page zeroes all 2 MiB of it, and a few tasks carry the
/// whole buffer's zeroing while the others wait (the finalize of 8.6M groups: its longest task
/// four times its median). Buffers under kMinTouchedBytes in all are left to their writers.
void touchPagesInParallel(std::span<const UntouchedBuffer> buffers, QueryContext& context,
                          PhaseRecorder& recorder);

namespace first_touch
{
/// The base page: one write per base page faults in every page where huge pages are off.
inline constexpr size_t kBasePageBytes = 4096;
/// Below this the writers' own faults are a few huge pages: not worth a round of tasks.
inline constexpr size_t kMinTouchedBytes = 4 * kHugePageBytes;
/// Enough tasks for hundreds of cores; each touches a contiguous run of huge pages.
inline constexpr size_t kMaxTouchTasks = 256;
}  // namespace first_touch

}  // namespace granary
