#pragma once

#include <cstdint>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// Conversions that let DateTime64(P) (Int64 ticks of 10^-P s) meet the other time types.

/// 10^precision: DateTime64(precision) ticks in a second.
int64_t ticksPerSecond(uint8_t precision);

/// The DateTime (whole seconds, rounded down) of a DateTime64: what the calendar functions
/// read. Ticks outside DateTime's range (1970 to 2106) are clamped to it.
NodePtr makeDateTime64Seconds(NodePtr ticks);

/// `time` (a Date, DateTime or DateTime64 of a lower precision) as DateTime64(precision)
/// ticks, so that comparisons compare like with like.
NodePtr makeDateTime64Ticks(NodePtr time, uint8_t precision);

}  // namespace granary
