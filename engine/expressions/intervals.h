#pragma once

#include <cstdint>

#include "engine/expressions/expression_node.h"
#include "engine/sql/interval_unit.h"

namespace granary
{

/// A constant interval: `count` units.
struct Interval
{
    IntervalUnit unit;
    int64_t count;
};

/// `time` ± `interval` for a Date, DateTime or DateTime64 (the type it had: a Date meeting a
/// unit below a day becomes a DateTime first, as in ClickHouse). Seconds to weeks add their
/// length; months, quarters and years move the calendar month, the day kept where the month
/// has it, else its last day. Null for another type or a count beyond 2^40.
NodePtr makeTimeShift(NodePtr time, Interval interval);

/// toStartOfInterval(time, INTERVAL n unit), as ClickHouse aligns it: seconds and minutes on
/// multiples since the epoch, hours on multiples since the day's start, days on multiples of
/// days since the epoch (DateTime results), one week, month, quarter or year on its first day
/// (Date results). DateTime64 is read as whole seconds. Null for another type, for n < 1 or
/// beyond 2^40, or for n weeks, months, quarters or years with n > 1.
NodePtr makeStartOfInterval(NodePtr time, Interval interval);

}  // namespace granary
