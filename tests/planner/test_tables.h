#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/session/session.h"
#include "tests/planner/naive_evaluator.h"

namespace granary::oracle
{

/// The ClickBench columns the thread-count and on-disk tests query, sorted like `hits`.
inline constexpr std::string_view kVisitsCreate =
    "CREATE TABLE visits (WatchID BIGINT, EventTime TIMESTAMP, EventDate Date, "
    "CounterID INTEGER, ClientIP INTEGER, RegionID INTEGER, UserID BIGINT, URL TEXT, "
    "Referer TEXT, Title TEXT, IsRefresh SMALLINT, ResolutionWidth SMALLINT, "
    "SearchPhrase TEXT, SearchEngineID SMALLINT, AdvEngineID SMALLINT, "
    "MobilePhoneModel TEXT) ORDER BY (CounterID, EventDate, UserID)";

/// Runs the CREATE TABLE `create_sql` in `session` and inserts `table`'s rows into it.
void createAndFill(Session& session, std::string_view create_sql, const RowTable& table);

/// kVisitsCreate with 80,000 generated rows, in an in-memory session; built once per process.
struct VisitsFixture
{
    RowTable table;
    std::unique_ptr<Session> session;
};
const VisitsFixture& sharedVisits();

/// Options for a query on `threads` threads; force_two_level makes every GROUP BY partial
/// table two-level from its first key.
QueryOptions threadOptions(size_t threads, bool force_two_level);
/// A parameterized test's name for those options: "64Threads", "64ThreadsTwoLevel".
std::string threadOptionsName(size_t threads, bool force_two_level);

/// The ClickBench `hits` table (clickhouse-create.sql) with 50,000 generated rows, in an
/// in-memory session, and the 43 queries; built once per process.
struct HitsFixture
{
    std::unique_ptr<Session> session;
    RowTable table;
    std::vector<std::string> queries;  ///< queries[i] is Q(i+1).
};

/// Null when the ClickBench files are absent (the caller skips).
const HitsFixture* sharedHits();

}  // namespace granary::oracle
