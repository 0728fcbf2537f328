#pragma once

#include <string>
#include <string_view>

#include "engine/session/session.h"
#include "tests/planner/naive_evaluator.h"

namespace granary::oracle
{

/// Runs the SELECT `sql` through the engine (`session`) and the naive evaluator (`table`,
/// the same rows) and returns differenceFromOracle's verdict; an engine exception is a
/// difference too, described with its error code.
std::string differenceForQuery(Session& session, const RowTable& table, std::string_view sql,
                               const QueryOptions& options = {});
/// The same against an answer the caller already has.
std::string differenceForQuery(Session& session, const NaiveResult& expected, std::string_view sql,
                               const QueryOptions& options = {});

/// A result's column names and types, then its rows, as text: two settings of a rewrite must
/// print alike.
std::string printedResult(const QueryResult& result);

}  // namespace granary::oracle
