// KeyRuns against a naive split of keys into runs of equal neighbours.

#include "engine/aggregation/key_runs.h"

#include <gtest/gtest.h>

#include <random>
#include <string_view>
#include <vector>

namespace granary
{
namespace
{

/// The naive answer: the first row of each run.
template <typename Key>
std::vector<size_t> naiveRunStarts(const std::vector<Key>& keys)
{
    std::vector<size_t> starts;
    for (size_t i = 0; i < keys.size(); ++i)
    {
        if (i == 0 || keys[i] != keys[i - 1])
        {
            starts.push_back(i);
        }
    }
    return starts;
}

template <typename Key>
void expectRunsOf(const std::vector<Key>& keys)
{
    KeyRuns runs;
    const std::vector<size_t> starts = naiveRunStarts(keys);
    ASSERT_EQ(runs.find(keys.data(), keys.size()), starts.size());
    for (size_t r = 0; r < starts.size(); ++r)
    {
        EXPECT_EQ(runs.start(r), starts[r]);
        const size_t end = r + 1 < starts.size() ? starts[r + 1] : keys.size();
        EXPECT_EQ(runs.length(r), end - starts[r]);
    }
    // Compacted in place, then expanded back, the keys are what they were.
    std::vector<Key> in_place = keys;
    runs.compactKeys(in_place.data(), in_place.data());
    for (size_t r = 0; r < starts.size(); ++r)
    {
        EXPECT_EQ(in_place[r], keys[starts[r]]);
    }
    runs.expand(in_place.data());
    EXPECT_EQ(in_place, keys);
}

TEST(KeyRuns, MatchTheNaiveSplitForRandomRunLengths)
{
    std::mt19937_64 random(7);
    for (size_t trial = 0; trial < 200; ++trial)
    {
        std::vector<uint64_t> keys;
        const size_t rows = random() % 2000;
        while (keys.size() < rows)
        {
            // Neighbouring runs may draw the same key: they are then one run.
            keys.insert(keys.end(), std::min<size_t>(1 + random() % 9, rows - keys.size()),
                        random() % 4);
        }
        expectRunsOf(keys);
    }
}

TEST(KeyRuns, StringsCompareByValueAndEmptyBatchesHaveNoRuns)
{
    const std::string text = "abab";
    // Equal values at different addresses are one run; a prefix is not its longer key.
    expectRunsOf(std::vector<std::string_view>{text.substr(0, 2), std::string_view(text).substr(2),
                                               "a", "", "", "ab"});
    KeyRuns runs;
    EXPECT_EQ(runs.find(static_cast<const uint64_t*>(nullptr), 0), 0u);
    EXPECT_EQ(runs.start(0), 0u);
}

}  // namespace
}  // namespace granary
