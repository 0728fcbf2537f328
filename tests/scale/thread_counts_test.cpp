#include "programs/scale/thread_counts.h"

#include <gtest/gtest.h>

#include "engine/common/exception.h"

namespace granary::scale
{
namespace
{

TEST(ThreadCounts, ParsesListsAndMax)
{
    EXPECT_EQ(parseThreadCounts("4,1,2,max,2", 16), (std::vector<size_t>{1, 2, 4, 16}));
    EXPECT_EQ(parseThreadCounts("64,256", 2), (std::vector<size_t>{64, 256}));
    for (const char* bad : {"", "1,,2", "0", "-1", "two", "3x"})
    {
        EXPECT_THROW(parseThreadCounts(bad, 4), Exception) << bad;
    }
}

}  // namespace
}  // namespace granary::scale
