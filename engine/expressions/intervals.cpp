#include "engine/expressions/intervals.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "engine/expressions/calendar.h"
#include "engine/expressions/date_functions.h"
#include "engine/expressions/datetime64.h"

namespace granary
{
namespace
{

/// Counts beyond this many units are refused: the month arithmetic and toStartOfInterval's
/// steps (count times a unit's seconds) stay well inside 64 bits below it.
constexpr int64_t kMaxIntervalCount = int64_t{1} << 40;

/// Seconds in one unit of a fixed length (second to week); 0 for the calendar units.
int64_t secondsPerUnit(IntervalUnit unit)
{
    switch (unit)
    {
        case IntervalUnit::Second:
            return 1;
        case IntervalUnit::Minute:
            return 60;
        case IntervalUnit::Hour:
            return 3600;
        case IntervalUnit::Day:
            return kSecondsPerDay;
        case IntervalUnit::Week:
            return 7 * int64_t{kSecondsPerDay};
        default:
            return 0;
    }
}

/// Calendar months in one unit (month, quarter, year); 0 for the fixed-length units.
int64_t monthsPerUnit(IntervalUnit unit)
{
    return unit == IntervalUnit::Month     ? 1
           : unit == IntervalUnit::Quarter ? 3
           : unit == IntervalUnit::Year    ? 12
                                           : 0;
}

/// The first day of month `months` counted from January of year 0.
int64_t firstDayOfMonth(int64_t months)
{
    const int64_t year = months >= 0 ? months / 12 : (months - 11) / 12;
    return daysFromCivil({year, static_cast<unsigned>(months - year * 12) + 1, 1});
}

/// `days` moved by `months` calendar months, the day of the month kept where the month has
/// it, else the month's last day (2024-01-31 + 1 month = 2024-02-29).
int64_t addMonths(int64_t days, int64_t months)
{
    const CivilDate date = civilFromDays(days);
    const int64_t target = date.year * 12 + (date.month - 1) + months;
    const int64_t first = firstDayOfMonth(target);
    const int64_t length = firstDayOfMonth(target + 1) - first;
    return first + std::min<int64_t>(date.day, length) - 1;
}

/// Evaluates `node`'s one child, a Date, DateTime or DateTime64, and writes map(value) per
/// row in the child's own integer type and unit (the node's type is the child's).
template <typename Map>
ColumnView mapTimes(const ExpressionNode& node, const BlockView& input, size_t begin, size_t count,
                    Column& holder, Map map)
{
    Column time_holder;
    const ColumnView time = node.children()[0]->evaluate(input, begin, count, time_holder);
    holder = Column(node.dataType());
    holder.resizeFixedUninitialized(count);
    dispatchFixedType(time.type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          if constexpr (std::is_integral_v<T>)
                          {
                              T* out = holder.mutableData<T>();
                              for (size_t row = 0; row < count; ++row)
                              {
                                  out[row] = static_cast<T>(map(int64_t(time.valueAt<T>(row))));
                              }
                          }
                      });
    return holder.view();
}

/// Moves each value by a fixed amount of its own unit, or by calendar months.
class TimeShiftNode final : public ExpressionNode
{
public:
    TimeShiftNode(NodePtr time, Interval interval)
        : ExpressionNode(time->dataType(), {time}), interval_(interval)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        return mapTimes(*this, input, begin, count, holder,
                        [this](int64_t value) { return shift(value); });
    }

private:
    /// One value in the column's unit: days (Date), seconds (DateTime) or ticks (DateTime64).
    /// The sums and products wrap, as the column's own integer type does, rather than
    /// overflowing a signed type.
    int64_t shift(int64_t value) const
    {
        const TypeId type = dataType().id;
        const uint64_t per_second =
            type == TypeId::DateTime64 ? static_cast<uint64_t>(ticksPerSecond(dataType().precision))
                                       : 1;
        const auto wrap = [](uint64_t bits) { return static_cast<int64_t>(bits); };
        if (const int64_t months = monthsPerUnit(interval_.unit) * interval_.count; months != 0)
        {
            if (type == TypeId::Date)
            {
                return addMonths(value, months);
            }
            const int64_t per_day = int64_t{kSecondsPerDay} * static_cast<int64_t>(per_second);
            const int64_t day = value >= 0 ? value / per_day : -((-value + per_day - 1) / per_day);
            return wrap(static_cast<uint64_t>(addMonths(day, months)) *
                            static_cast<uint64_t>(per_day) +
                        static_cast<uint64_t>(value - day * per_day));
        }
        const uint64_t count = static_cast<uint64_t>(interval_.count);
        const auto unit_seconds = static_cast<uint64_t>(secondsPerUnit(interval_.unit));
        const uint64_t delta = type == TypeId::Date ? count * (unit_seconds / kSecondsPerDay)
                                                    : count * unit_seconds * per_second;
        return wrap(static_cast<uint64_t>(value) + delta);
    }

    Interval interval_;
};

/// Rounds DateTime seconds (or Date days) down to multiples of `step` counted from the epoch,
/// or, with `from_day_start`, from the start of each value's day.
class RoundDownNode final : public ExpressionNode
{
public:
    RoundDownNode(NodePtr time, int64_t step, bool from_day_start)
        : ExpressionNode(time->dataType(), {time}), step_(step), from_day_start_(from_day_start)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        return mapTimes(*this, input, begin, count, holder,
                        [this](int64_t value)
                        {
                            const int64_t origin =
                                from_day_start_ ? value - value % kSecondsPerDay : 0;
                            return origin + (value - origin) / step_ * step_;
                        });
    }

private:
    int64_t step_;
    bool from_day_start_;
};

}  // namespace

NodePtr makeTimeShift(NodePtr time, Interval interval)
{
    const TypeId type = time->type();
    if ((type != TypeId::Date && type != TypeId::DateTime && type != TypeId::DateTime64) ||
        interval.count > kMaxIntervalCount || interval.count < -kMaxIntervalCount)
    {
        return nullptr;
    }
    if (type == TypeId::Date && secondsPerUnit(interval.unit) != 0 &&
        secondsPerUnit(interval.unit) < kSecondsPerDay)
    {
        time = makeDateFunction(DateFunction::ToDateTime, std::move(time));
    }
    return std::make_shared<TimeShiftNode>(std::move(time), interval);
}

NodePtr makeStartOfInterval(NodePtr time, Interval interval)
{
    if (time->type() == TypeId::DateTime64)
    {
        time = makeDateTime64Seconds(std::move(time));
    }
    const TypeId type = time->type();
    if ((type != TypeId::Date && type != TypeId::DateTime) || interval.count <= 0 ||
        interval.count > kMaxIntervalCount)
    {
        return nullptr;
    }
    const int64_t seconds = secondsPerUnit(interval.unit);
    if (seconds != 0 && interval.unit != IntervalUnit::Week)
    {
        if (type == TypeId::Date)
        {
            // Days of a Date; a unit below a day leaves it at its midnight, as a DateTime.
            return seconds < kSecondsPerDay
                       ? makeDateFunction(DateFunction::ToDateTime, std::move(time))
                       : std::make_shared<RoundDownNode>(std::move(time), interval.count, false);
        }
        return std::make_shared<RoundDownNode>(std::move(time), seconds * interval.count,
                                               interval.unit == IntervalUnit::Hour);
    }
    if (interval.count != 1)
    {
        return nullptr;
    }
    const DateFunction start = interval.unit == IntervalUnit::Week    ? DateFunction::StartOfWeek
                               : interval.unit == IntervalUnit::Month ? DateFunction::StartOfMonth
                               : interval.unit == IntervalUnit::Quarter
                                   ? DateFunction::StartOfQuarter
                                   : DateFunction::StartOfYear;
    return makeDateFunction(start, std::move(time));
}

}  // namespace granary
