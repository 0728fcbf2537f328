#include "tests/server/fake_query_handler.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <thread>

#include "engine/common/exception.h"

namespace granary::server::testing
{
namespace
{

Block tableRows(size_t begin, size_t end)
{
    Column id(TypeId::UInt64);
    Column name(TypeId::String);
    Column value(TypeId::Float64);
    Column day(TypeId::Date);
    for (size_t row = begin; row < end; ++row)
    {
        id.append<uint64_t>(row);
        name.appendString(fmt::format("name-{}", row));
        value.append<double>(static_cast<double>(row) * 0.5);
        day.append<uint16_t>(static_cast<uint16_t>(1 + row % 1000));
    }
    Block block;
    block.columns.push_back({"id", std::move(id)});
    block.columns.push_back({"name", std::move(name)});
    block.columns.push_back({"value", std::move(value)});
    block.columns.push_back({"day", std::move(day)});
    return block;
}

Block oneValue(std::string name, uint64_t value)
{
    Column column(TypeId::UInt64);
    column.append<uint64_t>(value);
    Block block;
    block.columns.push_back({std::move(name), std::move(column)});
    return block;
}

}  // namespace

std::string fakeRowTsv(size_t row)
{
    // Dates print as YYYY-MM-DD: day d after 1970-01-01 (never day 0, which old clients print
    // as 0000-00-00).
    const std::chrono::sys_days date{std::chrono::days(1 + row % 1000)};
    const std::chrono::year_month_day ymd{date};
    return fmt::format("{}\tname-{}\t{}\t{:04}-{:02}-{:02}", row, row,
                       static_cast<double>(row) * 0.5, static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

QueryOutcome FakeQueryHandler::run(const QueryRequest& request, const QueryCallbacks& callbacks,
                                   const std::atomic<bool>& cancel)
{
    size_t threads = 1;
    for (const auto& [name, value] : request.settings)
    {
        if (name != "fake_threads")
        {
            throw Exception(ErrorCode::kUnknownSetting, fmt::format("Unknown setting {}", name));
        }
        threads = std::stoul(value);
    }
    QueryOutcome outcome;
    for (size_t thread = 0; thread < threads; ++thread)
    {
        ThreadProfileEvents events;
        events.thread_id = 1000 + thread;
        for (size_t i = 0; i < kProfileEventCount; ++i)
        {
            events.counts.values[i] = 1 + i + thread;
        }
        outcome.profile_events.push_back(events);
    }
    const std::string_view sql = request.sql;
    if (sql == "SELECT count() FROM t")
    {
        outcome.progress.rows_read = kTableRows;
        callbacks.on_progress(outcome.progress);
        callbacks.on_block(oneValue("count()", kTableRows));
        return outcome;
    }
    if (sql.starts_with("SELECT * FROM t LIMIT "))
    {
        const std::string_view digits = sql.substr(22);
        size_t limit = 0;
        std::from_chars(digits.data(), digits.data() + digits.size(), limit);
        limit = std::min(limit, kTableRows);
        outcome.header = tableRows(0, 0);
        for (size_t begin = 0; begin < limit && !cancel; begin += kBlockRows)
        {
            const size_t end = std::min(limit, begin + kBlockRows);
            outcome.progress.rows_read = end;
            callbacks.on_progress(outcome.progress);
            callbacks.on_block(tableRows(begin, end));
        }
        return outcome;
    }
    if (sql == "SELECT sum(id) FROM t WITH TOTALS")
    {
        const uint64_t sum = kTableRows * (kTableRows - 1) / 2;
        callbacks.on_block(oneValue("sum(id)", sum));
        outcome.totals = oneValue("sum(id)", sum);
        Block extremes = oneValue("sum(id)", sum);
        extremes.columns[0].column.append<uint64_t>(sum);
        outcome.extremes = std::move(extremes);
        outcome.progress.rows_read = kTableRows;
        return outcome;
    }
    if (sql == "SELECT sleep")
    {
        while (!cancel)
        {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ++cancelled_;
        throw Exception(ErrorCode::kQueryCancelled, "Query was cancelled");
    }
    if (sql == "SELECT fail")
    {
        throw Exception(ErrorCode::kUnknownTable, "Table default.missing does not exist");
    }
    throw Exception(ErrorCode::kSyntaxError, fmt::format("Fake handler cannot run: {}", sql));
}

}  // namespace granary::server::testing
