// A host's hooks and errors: a memory budget that refuses ends the query with
// MEMORY_LIMIT_EXCEEDED and gets every byte back, cancellation from another thread, and
// batches or calls that do not fit the plan are refused by name.

#include <gtest/gtest.h>

#include <atomic>

#include "tests/aggregation/test_table.h"
#include "tests/embedding/embedding_test_support.h"

namespace granary
{
namespace
{

/// Grants up to `limit` bytes in all, and counts what is out.
class CountingBudget final : public MemoryBudget
{
public:
    explicit CountingBudget(size_t limit) : limit_(limit) {}
    bool reserve(size_t bytes) override
    {
        const size_t after = reserved_.fetch_add(bytes) + bytes;
        if (after > limit_)
        {
            reserved_.fetch_sub(bytes);
            ++refusals_;
            return false;
        }
        return true;
    }
    void release(size_t bytes) noexcept override { reserved_.fetch_sub(bytes); }
    size_t reserved() const { return reserved_.load(); }
    size_t refusals() const { return refusals_.load(); }

private:
    size_t limit_;
    std::atomic<size_t> reserved_{0};
    std::atomic<size_t> refusals_{0};
};

uint64_t distinctRows(size_t row)
{
    return row;
}

TEST(HostHooks, ARefusingBudgetEndsTheQueryCleanlyAndGetsEveryByteBack)
{
    const Block input = testing::makeTestTable(400'000, distinctRows, 1);
    CountingBudget budget(4 << 20);
    {
        GroupBySettings settings;
        settings.threads = 2;
        settings.memory_budget = &budget;
        GroupBy group_by(testing::fieldsOf(input), {"k_u64"}, {{"count", {}, "c"}}, settings);
        try
        {
            testing::sinkFromHosts(group_by, input, 2, 8192);
            group_by.finish();
            FAIL() << "the budget's refusal did not end the query";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kMemoryLimitExceeded) << error.what();
        }
    }
    EXPECT_GT(budget.refusals(), 0u);
    EXPECT_EQ(budget.reserved(), 0u);
}

TEST(HostHooks, AGenerousBudgetIsBalancedAfterTheQuery)
{
    const Block input = testing::makeTestTable(200'000, distinctRows, 2);
    CountingBudget budget(size_t{1} << 40);
    {
        GroupBySettings settings;
        settings.memory_budget = &budget;
        GroupBy group_by(testing::fieldsOf(input), {"k_u64"}, {{"count", {}, "c"}}, settings);
        testing::sinkFromHosts(group_by, input, 3, 4096);
        ResultStream stream = group_by.finish();
        EXPECT_EQ(stream.rows(), 200'000u);
        EXPECT_GT(group_by.statistics().peak_memory_bytes, 0u);
    }
    EXPECT_EQ(budget.reserved(), 0u);
}

TEST(HostHooks, CancellingFromAnotherThreadStopsSinksAndFinish)
{
    const Block input = testing::makeTestTable(10'000, distinctRows, 3);
    GroupBy group_by(testing::fieldsOf(input), {"k_u64"}, {{"count", {}, "c"}});
    LocalSink sink = group_by.makeLocalSink();
    sink.sink(testing::sliceOf(input, 0, 100), 100);
    std::thread([&] { group_by.cancel(); }).join();
    try
    {
        sink.sink(testing::sliceOf(input, 100, 100), 100);
        FAIL() << "a sink ran after cancel()";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kQueryCancelled);
    }
    group_by.combine(std::move(sink));
    EXPECT_THROW(group_by.finish(), Exception);
}

/// The code and message of what `call` throws ("" when it does not throw).
template <typename Call>
std::pair<ErrorCode, std::string> errorOf(Call&& call)
{
    try
    {
        call();
    }
    catch (const Exception& error)
    {
        return {error.code(), error.what()};
    }
    return {ErrorCode::kOk, ""};
}

TEST(HostHooks, PlansAndBatchesThatDoNotFitAreRefusedByName)
{
    const Block input = testing::makeTestTable(100, distinctRows, 4);
    const auto fields = testing::fieldsOf(input);
    auto unknown_key = errorOf([&] { GroupBy(fields, {"nope"}, {{"count", {}, "c"}}); });
    EXPECT_EQ(unknown_key.first, ErrorCode::kUnknownColumn);
    EXPECT_NE(unknown_key.second.find("'nope'"), std::string::npos);
    auto bad_filter = errorOf([&] { GroupBy(fields, {"k_u8"}, {{"count", {}, "c", "k_u64"}}); });
    EXPECT_EQ(bad_filter.first, ErrorCode::kTypeMismatch);
    EXPECT_NE(bad_filter.second.find("'k_u64'"), std::string::npos);

    GroupBy group_by(fields, {"k_u8"}, {{"sum", {"v_i64"}, "s"}});
    LocalSink sink = group_by.makeLocalSink();
    std::vector<ColumnView> columns = testing::sliceOf(input, 0, 100);
    auto too_few = errorOf([&] { sink.sink(std::span(columns).first(3), 100); });
    EXPECT_EQ(too_few.first, ErrorCode::kBadArguments);
    auto wrong_rows = errorOf([&] { sink.sink(columns, 99); });
    EXPECT_EQ(wrong_rows.first, ErrorCode::kBadArguments);
    std::vector<ColumnView> wrong_type = columns;
    wrong_type[0].type = TypeId::UInt64;
    auto mismatch = errorOf([&] { sink.sink(wrong_type, 100); });
    EXPECT_EQ(mismatch.first, ErrorCode::kBadArguments);
    EXPECT_NE(mismatch.second.find("'k_u8'"), std::string::npos) << mismatch.second;
    std::vector<ColumnView> missing = columns;
    missing[13].data = nullptr;
    auto no_values = errorOf([&] { sink.sink(missing, 100); });
    EXPECT_EQ(no_values.first, ErrorCode::kBadArguments);

    GroupBy other(fields, {"k_u8"}, {{"count", {}, "c"}});
    EXPECT_EQ(errorOf([&] { other.combine(std::move(sink)); }).first, ErrorCode::kBadArguments);
    group_by.finish();
    EXPECT_EQ(errorOf([&] { group_by.finish(); }).first, ErrorCode::kBadArguments);
}

}  // namespace
}  // namespace granary
