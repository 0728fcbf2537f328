#include "engine/exec/first_touch.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <vector>

#include "alloc/huge_pages.h"
#include "engine/exec/query_context.h"
#include "tests/support/fresh_mapping.h"

namespace granary
{
namespace
{

using first_touch::kBasePageBytes;

/// Fresh memory of `bytes`, on huge pages where the kernel allows them for this process's
/// mappings (as hash-table cells and arena chunks ask for theirs, alloc/huge_pages.h), so that
/// the test sees what the engine's buffers see.
class FreshMemory : public test::FreshMapping
{
public:
    explicit FreshMemory(size_t bytes) : FreshMapping(bytes) { adviseHugePages(data(), bytes); }
};

/// ThreadSanitizer's shadow memory faults in on the writer's first access too: under it the
/// fault counts below are not the kernel's count for the buffers alone.
constexpr bool kShadowMemoryFaults =
#if defined(__SANITIZE_THREAD__)
    true;
#else
    false;
#endif

long threadMinorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

/// Minor page faults taken by this thread while writing one byte into every base page.
long faultsWhileWriting(char* data, size_t bytes)
{
    const long before = threadMinorFaults();
    for (size_t offset = 0; offset < bytes; offset += kBasePageBytes)
    {
        reinterpret_cast<volatile char*>(data)[offset] = 1;
    }
    return threadMinorFaults() - before;
}

TEST(FirstTouch, WritersFindEveryPagePresent)
{
    const size_t bytes = 48 * kHugePageBytes;
    FreshMemory touched(bytes);
    FreshMemory untouched(bytes);
    QueryContext context(4);
    PhaseStats stats;
    {
        PhaseRecorder recorder(stats);
        const UntouchedBuffer buffer{touched.data(), bytes};
        touchPagesInParallel({&buffer, 1}, context, recorder);
    }
    // One task per huge page (48 of them, under the cap of 256).
    EXPECT_EQ(stats.tasks, 48u);
    EXPECT_GT(stats.work_seconds, 0.0);
    if (kShadowMemoryFaults)
    {
        GTEST_SKIP() << "page faults include ThreadSanitizer's shadow memory";
    }
    // The oracle: the same writes into memory nobody touched fault at least once per huge page
    // (once per base page where huge pages are off).
    EXPECT_GE(faultsWhileWriting(untouched.data(), bytes), 48);
    EXPECT_EQ(faultsWhileWriting(touched.data(), bytes), 0);
}

TEST(FirstTouch, TasksOwnWholeHugePagesOfEveryBuffer)
{
    // Three buffers at unaligned offsets of one mapping: 3.5, 0.25 and 300 huge pages long.
    FreshMemory memory(307 * kHugePageBytes);
    char* const base = memory.data();
    const std::vector<UntouchedBuffer> buffers = {
        {base + 1000, 7 * kHugePageBytes / 2},
        {base + 4 * kHugePageBytes + 12'345, kHugePageBytes / 4},
        {base + 5 * kHugePageBytes + 77, 300 * kHugePageBytes},
    };
    // Pieces: the huge pages each buffer overlaps (4 + 1 + 301).
    size_t pieces = 0;
    for (const UntouchedBuffer& buffer : buffers)
    {
        const auto begin = reinterpret_cast<uintptr_t>(buffer.data);
        pieces += (begin + buffer.bytes - 1) / kHugePageBytes - begin / kHugePageBytes + 1;
    }
    QueryContext context(2);
    context.setWorkers(256);
    PhaseStats stats;
    {
        PhaseRecorder recorder(stats);
        touchPagesInParallel(buffers, context, recorder);
    }
    ASSERT_EQ(pieces, 306u);
    EXPECT_EQ(stats.tasks, first_touch::kMaxTouchTasks);
    if (kShadowMemoryFaults)
    {
        GTEST_SKIP() << "page faults include ThreadSanitizer's shadow memory";
    }
    long faults = 0;
    for (const UntouchedBuffer& buffer : buffers)
    {
        faults += faultsWhileWriting(buffer.data, buffer.bytes);
    }
    EXPECT_EQ(faults, 0);
}

TEST(FirstTouch, SmallBuffersAreLeftToTheirWriters)
{
    FreshMemory memory(first_touch::kMinTouchedBytes);
    QueryContext context(2);
    PhaseStats stats;
    {
        PhaseRecorder recorder(stats);
        const UntouchedBuffer buffer{memory.data(), first_touch::kMinTouchedBytes - 1};
        touchPagesInParallel({&buffer, 1}, context, recorder);
    }
    EXPECT_EQ(stats.tasks, 0u);
    EXPECT_GT(faultsWhileWriting(memory.data(), first_touch::kMinTouchedBytes - 1), 0);
}

}  // namespace
}  // namespace granary
