#pragma once

#include <atomic>
#include <string>

#include "server/query_handler.h"

namespace granary::server::testing
{

/// A QueryHandler over one fixed table, for testing the server without the SQL engine:
///   t(id UInt64, name String, value Float64, day Date), row i = (i, "name-i", i * 0.5, 1 + i %
///   1000)
/// Queries it answers (anything else is Exception(kSyntaxError)):
///   SELECT count() FROM t                -> one UInt64
///   SELECT * FROM t LIMIT n              -> the first n rows, in blocks of kBlockRows
///   SELECT sum(id) FROM t WITH TOTALS    -> one row, totals and extremes
///   SELECT sleep                         -> runs until cancelled
///   SELECT fail                          -> Exception(kUnknownTable)
/// Settings: "fake_threads" (number of ProfileEvents threads reported); others are unknown.
class FakeQueryHandler : public QueryHandler
{
public:
    static constexpr size_t kTableRows = 100'000;
    static constexpr size_t kBlockRows = 10'000;

    QueryOutcome run(const QueryRequest& request, const QueryCallbacks& callbacks,
                     const std::atomic<bool>& cancel) override;

    size_t cancelledQueries() const { return cancelled_.load(); }

private:
    std::atomic<size_t> cancelled_{0};
};

/// Row i of the fake table, as TSV (the independent oracle the client tests compare with).
std::string fakeRowTsv(size_t row);

}  // namespace granary::server::testing
