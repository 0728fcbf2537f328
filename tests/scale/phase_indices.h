#pragma once

// Positions of the phases in QueryStats::phases and the rows' per-phase arrays, for tests that
// fill rows by hand.

#include <cstddef>

#include "engine/exec/query_stats.h"

namespace granary::scale
{

inline constexpr size_t kPlan = static_cast<size_t>(QueryPhase::kPlan);
inline constexpr size_t kPartial = static_cast<size_t>(QueryPhase::kPartial);
inline constexpr size_t kMerge = static_cast<size_t>(QueryPhase::kMerge);
inline constexpr size_t kResult = static_cast<size_t>(QueryPhase::kResult);

}  // namespace granary::scale
