#include "engine/observe/profile_events.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

namespace granary
{
namespace
{

/// The load: 64 threads of a million increments. ThreadSanitizer runs it ~50x slower.
constexpr size_t kThreads = 64;
#if defined(__SANITIZE_THREAD__)
constexpr uint64_t kIncrementsPerThread = 20'000;
#else
constexpr uint64_t kIncrementsPerThread = 1'000'000;
#endif
/// Increments each thread makes before attaching to the query: global only.
constexpr uint64_t kUnattachedIncrements = 10;

template <typename Strategy>
class ProfileEventsStrategyTest : public ::testing::Test
{
protected:
    using Events = BasicProfileEvents<Strategy>;
    using Query = BasicQueryProfileEvents<Strategy>;
    using Scope = BasicProfileEventsThreadScope<Strategy>;
};

using CounterStrategies =
    ::testing::Types<PackedAtomicCounters, AlignedAtomicCounters, PerThreadCounters>;
TYPED_TEST_SUITE(ProfileEventsStrategyTest, CounterStrategies);

/// Every thread bumps the shared RowsRead on even steps and an event of its own on odd ones, so
/// both true and false sharing are exercised.
ProfileEvent ownEvent(size_t thread)
{
    return static_cast<ProfileEvent>(1 + thread % (kProfileEventCount - 1));
}

TYPED_TEST(ProfileEventsStrategyTest, TotalsAreExactAfterManyThreads)
{
    using Events = typename TestFixture::Events;
    typename TestFixture::Query query;
    const ProfileEventCounts global_before = Events::globalSnapshot();

    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t)
    {
        threads.emplace_back(
            [&query, t]
            {
                Events::increment(ProfileEvent::BytesRead, kUnattachedIncrements);
                typename TestFixture::Scope scope(query);
                for (uint64_t i = 0; i < kIncrementsPerThread; ++i)
                {
                    Events::increment(i % 2 == 0 ? ProfileEvent::RowsRead : ownEvent(t));
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }

    ProfileEventCounts expected;
    for (size_t t = 0; t < kThreads; ++t)
    {
        expected[ProfileEvent::RowsRead] += (kIncrementsPerThread + 1) / 2;
        expected[ownEvent(t)] += kIncrementsPerThread / 2;
    }
    EXPECT_EQ(query.snapshot(), expected);
    expected[ProfileEvent::BytesRead] += kThreads * kUnattachedIncrements;
    EXPECT_EQ(Events::globalSnapshot() - global_before, expected);
}

TYPED_TEST(ProfileEventsStrategyTest, NestedScopesCountForTheInnerQueryOnly)
{
    using Events = typename TestFixture::Events;
    typename TestFixture::Query outer;
    typename TestFixture::Query inner;
    {
        typename TestFixture::Scope outer_scope(outer);
        Events::increment(ProfileEvent::MergeTasks, 3);
        {
            typename TestFixture::Scope inner_scope(inner);
            Events::increment(ProfileEvent::MergeTasks, 5);
        }
        Events::increment(ProfileEvent::MergeTasks, 7);
    }
    Events::increment(ProfileEvent::MergeTasks, 11);
    EXPECT_EQ(outer.snapshot()[ProfileEvent::MergeTasks], 10u);
    EXPECT_EQ(inner.snapshot()[ProfileEvent::MergeTasks], 5u);
}

TYPED_TEST(ProfileEventsStrategyTest, SnapshotIsLiveWhileAThreadIsAttached)
{
    using Events = typename TestFixture::Events;
    typename TestFixture::Query query;
    typename TestFixture::Scope scope(query);
    Events::increment(ProfileEvent::ArenaBytes, 4096);
    EXPECT_EQ(query.snapshot()[ProfileEvent::ArenaBytes], 4096u);
}

TYPED_TEST(ProfileEventsStrategyTest, CountsOfExitedThreadsStayInTheGlobalTotals)
{
    using Events = typename TestFixture::Events;
    const uint64_t before = Events::globalSnapshot()[ProfileEvent::TwoLevelConversions];
    std::thread([] { Events::increment(ProfileEvent::TwoLevelConversions, 42); }).join();
    EXPECT_EQ(Events::globalSnapshot()[ProfileEvent::TwoLevelConversions] - before, 42u);
}

TEST(ProfileEvents, NamesAndDescriptionsComeFromTheList)
{
    EXPECT_EQ(profileEventName(ProfileEvent::RowsRead), "RowsRead");
    EXPECT_EQ(profileEventName(ProfileEvent::ConditionCacheHits), "ConditionCacheHits");
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        const auto event = static_cast<ProfileEvent>(i);
        EXPECT_FALSE(profileEventName(event).empty());
        EXPECT_FALSE(profileEventDescription(event).empty());
    }
}

TEST(ProfileEvents, DefaultInterfaceCountsPerQuery)
{
    QueryProfileEvents query;
    {
        ProfileEventsThreadScope scope(query);
        ProfileEvents::increment(ProfileEvent::GranulesRead);
        ProfileEvents::increment(ProfileEvent::GranulesSkipped, 2);
    }
    const ProfileEventCounts counts = query.snapshot();
    EXPECT_EQ(counts[ProfileEvent::GranulesRead], 1u);
    EXPECT_EQ(counts[ProfileEvent::GranulesSkipped], 2u);
}

}  // namespace
}  // namespace granary
