#pragma once

#include <cstddef>
#include <cstdint>

#include "tests/planner/naive_evaluator.h"

namespace granary::oracle
{

/// Constants the ClickBench queries look for, planted in the generated rows.
inline constexpr int64_t kPlantedUserId = 435090932899640449;        // Q20
inline constexpr int64_t kPlantedRefererHash = 3594120000172545465;  // Q41
inline constexpr int64_t kPlantedUrlHash = 2868770270353813622;      // Q42

/// Appends `rows` deterministic rows to `table`, filling the ClickBench columns it has by
/// name (the rest get small filler values of their type). The values are shaped so that each
/// of the 43 ClickBench queries has an answer on 50,000 rows: CounterID 62 in July 2013 for
/// most rows, over 10,000 distinct window sizes under the planted URLHash (Q42's OFFSET),
/// URLs and titles with and without 'google', referers that Q29's pattern does and does not
/// match, repeated (WatchID, ClientIP) pairs, the planted UserID in four rows, and so on.
void appendHitsRows(RowTable& table, size_t rows, uint64_t seed);

}  // namespace granary::oracle
