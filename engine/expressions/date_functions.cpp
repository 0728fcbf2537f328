#include "engine/expressions/date_functions.h"

#include <array>
#include <ctime>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/expressions/calendar.h"
#include "engine/expressions/column_reference.h"
#include "engine/expressions/conversions.h"
#include "engine/expressions/datetime64.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/intervals.h"
#include "engine/sql/keywords.h"

namespace granary
{
namespace
{

/// The C++ type of each function's result.
template <DateFunction F>
using ResultOf = std::conditional_t<
    F == DateFunction::Year || F == DateFunction::ToDate || F == DateFunction::StartOfWeek ||
        F == DateFunction::StartOfMonth || F == DateFunction::StartOfQuarter ||
        F == DateFunction::StartOfYear,
    uint16_t,
    std::conditional_t<F == DateFunction::ToDateTime || F == DateFunction::StartOfMinute ||
                           F == DateFunction::StartOfHour || F == DateFunction::StartOfDay,
                       uint32_t, uint8_t>>;

int64_t daysOfCivil(int64_t year, unsigned month, unsigned day)
{
    return daysFromCivil({year, month, day});
}

/// Monday = 1 ... Sunday = 7; 1970-01-01 was a Thursday.
unsigned dayOfWeek(int64_t days)
{
    return static_cast<unsigned>((days + 3) % 7) + 1;
}

/// ISO 8601 week: the week (Monday to Sunday) belongs to the year of its Thursday.
unsigned isoWeek(int64_t days)
{
    const int64_t thursday = days + 4 - dayOfWeek(days);
    const int64_t year = civilFromDays(thursday).year;
    return static_cast<unsigned>((thursday - daysOfCivil(year, 1, 1)) / 7 + 1);
}

template <DateFunction F, typename In>
ResultOf<F> compute(In value)
{
    constexpr bool kIsDateTime = std::is_same_v<In, uint32_t>;
    const int64_t days = kIsDateTime ? value / kSecondsPerDay : value;
    const uint32_t seconds_of_day = kIsDateTime ? value % kSecondsPerDay : 0;
    using Out = ResultOf<F>;
    if constexpr (F == DateFunction::Year)
    {
        return static_cast<Out>(civilFromDays(days).year);
    }
    else if constexpr (F == DateFunction::Quarter)
    {
        return static_cast<Out>((civilFromDays(days).month + 2) / 3);
    }
    else if constexpr (F == DateFunction::Month)
    {
        return static_cast<Out>(civilFromDays(days).month);
    }
    else if constexpr (F == DateFunction::DayOfMonth)
    {
        return static_cast<Out>(civilFromDays(days).day);
    }
    else if constexpr (F == DateFunction::DayOfWeek)
    {
        return static_cast<Out>(dayOfWeek(days));
    }
    else if constexpr (F == DateFunction::IsoWeek)
    {
        return static_cast<Out>(isoWeek(days));
    }
    else if constexpr (F == DateFunction::Hour)
    {
        return static_cast<Out>(seconds_of_day / 3600);
    }
    else if constexpr (F == DateFunction::Minute)
    {
        return static_cast<Out>(seconds_of_day / 60 % 60);
    }
    else if constexpr (F == DateFunction::Second)
    {
        return static_cast<Out>(seconds_of_day % 60);
    }
    else if constexpr (F == DateFunction::ToDate)
    {
        return static_cast<Out>(days);
    }
    else if constexpr (F == DateFunction::ToDateTime || F == DateFunction::StartOfDay)
    {
        return static_cast<Out>(days * kSecondsPerDay);
    }
    else if constexpr (F == DateFunction::StartOfMinute)
    {
        return static_cast<Out>(value - value % 60);
    }
    else if constexpr (F == DateFunction::StartOfHour)
    {
        return static_cast<Out>(value - value % 3600);
    }
    else if constexpr (F == DateFunction::StartOfWeek)
    {
        return static_cast<Out>(days - (dayOfWeek(days) - 1));
    }
    else if constexpr (F == DateFunction::StartOfMonth)
    {
        const CivilDate date = civilFromDays(days);
        return static_cast<Out>(daysOfCivil(date.year, date.month, 1));
    }
    else if constexpr (F == DateFunction::StartOfQuarter)
    {
        const CivilDate date = civilFromDays(days);
        return static_cast<Out>(daysOfCivil(date.year, (date.month - 1) / 3 * 3 + 1, 1));
    }
    else
    {
        static_assert(F == DateFunction::StartOfYear);
        return static_cast<Out>(daysOfCivil(civilFromDays(days).year, 1, 1));
    }
}

template <DateFunction F, typename In>
class DateFunctionNode final : public ExpressionNode
{
public:
    DateFunctionNode(NodePtr argument, TypeId result)
        : ExpressionNode(result, {std::move(argument)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column argument_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, argument_holder);
        const In* in = static_cast<const In*>(values.data);
        holder = Column(type());
        holder.resizeFixed(count);
        ResultOf<F>* out = holder.mutableData<ResultOf<F>>();
        for (size_t row = 0; row < count; ++row)
        {
            out[row] = compute<F>(in[row]);
        }
        return holder.view();
    }
};

template <DateFunction F>
NodePtr makeNode(NodePtr argument, TypeId result)
{
    if (argument->type() == TypeId::DateTime)
    {
        return std::make_shared<DateFunctionNode<F, uint32_t>>(std::move(argument), result);
    }
    return std::make_shared<DateFunctionNode<F, uint16_t>>(std::move(argument), result);
}

template <size_t... Index>
NodePtr makeByIndex(DateFunction function, NodePtr argument, TypeId result,
                    std::index_sequence<Index...>)
{
    NodePtr node;
    ((static_cast<size_t>(function) == Index
          ? (node = makeNode<static_cast<DateFunction>(Index)>(std::move(argument), result), 0)
          : 0),
     ...);
    return node;
}

struct NamedFunction
{
    std::string_view name;
    DateFunction function;
    std::string_view signature;
    std::string_view description;
};

constexpr std::array kFunctionNames = {
    NamedFunction{"toYear", DateFunction::Year, "toYear(t)", "The year of a Date or DateTime."},
    NamedFunction{"toQuarter", DateFunction::Quarter, "toQuarter(t)", "The quarter, 1 to 4."},
    NamedFunction{"toMonth", DateFunction::Month, "toMonth(t)", "The month, 1 to 12."},
    NamedFunction{"toDayOfMonth", DateFunction::DayOfMonth, "toDayOfMonth(t)",
                  "The day of the month, 1 to 31."},
    NamedFunction{"toDayOfWeek", DateFunction::DayOfWeek, "toDayOfWeek(t)",
                  "The day of the week, Monday 1 to Sunday 7."},
    NamedFunction{"toISOWeek", DateFunction::IsoWeek, "toISOWeek(t)",
                  "The ISO 8601 week of the year, 1 to 53."},
    NamedFunction{"toHour", DateFunction::Hour, "toHour(t)", "The hour of a DateTime, 0 to 23."},
    NamedFunction{"toMinute", DateFunction::Minute, "toMinute(t)",
                  "The minute of a DateTime, 0 to 59."},
    NamedFunction{"toSecond", DateFunction::Second, "toSecond(t)",
                  "The second of a DateTime, 0 to 59."},
    NamedFunction{"toDate", DateFunction::ToDate, "toDate(t)",
                  "The Date of a DateTime (a Date stays itself), or of a 'YYYY-MM-DD' String."},
    NamedFunction{"toDateTime", DateFunction::ToDateTime, "toDateTime(t)",
                  "A Date's midnight as a DateTime, a DateTime64's whole seconds, or a String "
                  "parsed."},
    NamedFunction{"toStartOfMinute", DateFunction::StartOfMinute, "toStartOfMinute(t)",
                  "The DateTime rounded down to its minute."},
    NamedFunction{"toStartOfHour", DateFunction::StartOfHour, "toStartOfHour(t)",
                  "The DateTime rounded down to its hour."},
    NamedFunction{"toStartOfDay", DateFunction::StartOfDay, "toStartOfDay(t)",
                  "Midnight of the day, as a DateTime."},
    NamedFunction{"toMonday", DateFunction::StartOfWeek, "toMonday(t)",
                  "The Monday of the week, as a Date."},
    NamedFunction{"toStartOfMonth", DateFunction::StartOfMonth, "toStartOfMonth(t)",
                  "The first day of the month, as a Date."},
    NamedFunction{"toStartOfQuarter", DateFunction::StartOfQuarter, "toStartOfQuarter(t)",
                  "The first day of the quarter, as a Date."},
    NamedFunction{"toStartOfYear", DateFunction::StartOfYear, "toStartOfYear(t)",
                  "The first day of the year, as a Date."},
};

constexpr size_t kFunctionCount = static_cast<size_t>(DateFunction::StartOfYear) + 1;

}  // namespace

std::optional<DateFunction> dateFunctionByName(std::string_view lower_case_name)
{
    for (const NamedFunction& named : kFunctionNames)
    {
        if (equalsIgnoringCase(named.name, lower_case_name))
        {
            return named.function;
        }
    }
    return std::nullopt;
}

DateFunction dateFunctionForPart(sql::DatePart part)
{
    switch (part)
    {
        case sql::DatePart::Year:
            return DateFunction::Year;
        case sql::DatePart::Quarter:
            return DateFunction::Quarter;
        case sql::DatePart::Month:
            return DateFunction::Month;
        case sql::DatePart::Week:
            return DateFunction::IsoWeek;
        case sql::DatePart::Day:
            return DateFunction::DayOfMonth;
        case sql::DatePart::Hour:
            return DateFunction::Hour;
        case sql::DatePart::Minute:
            return DateFunction::Minute;
        case sql::DatePart::Second:
            return DateFunction::Second;
    }
    __builtin_unreachable();
}

std::optional<TypeId> dateFunctionResultType(DateFunction function, TypeId argument)
{
    const bool time_of_day = function == DateFunction::Hour || function == DateFunction::Minute ||
                             function == DateFunction::Second ||
                             function == DateFunction::StartOfMinute ||
                             function == DateFunction::StartOfHour;
    if (argument != TypeId::DateTime && (time_of_day || argument != TypeId::Date))
    {
        return std::nullopt;
    }
    switch (function)
    {
        case DateFunction::Year:
            return TypeId::UInt16;
        case DateFunction::ToDate:
        case DateFunction::StartOfWeek:
        case DateFunction::StartOfMonth:
        case DateFunction::StartOfQuarter:
        case DateFunction::StartOfYear:
            return TypeId::Date;
        case DateFunction::ToDateTime:
        case DateFunction::StartOfMinute:
        case DateFunction::StartOfHour:
        case DateFunction::StartOfDay:
            return TypeId::DateTime;
        default:
            return TypeId::UInt8;
    }
}

NodePtr makeDateFunction(DateFunction function, NodePtr argument)
{
    const TypeId result = *dateFunctionResultType(function, argument->type());
    return makeByIndex(function, std::move(argument), result,
                       std::make_index_sequence<kFunctionCount>{});
}

std::optional<NodePtr> makeDateTrunc(std::string_view unit, NodePtr argument)
{
    const std::string name = lowerCaseAscii(unit);
    const bool is_date = argument->type() == TypeId::Date;
    if ((name == "second" && !is_date) || (name == "day" && is_date))
    {
        return argument;
    }
    std::optional<DateFunction> function;
    if (name == "minute")
    {
        function = DateFunction::StartOfMinute;
    }
    else if (name == "hour")
    {
        function = DateFunction::StartOfHour;
    }
    else if (name == "day")
    {
        function = DateFunction::StartOfDay;
    }
    else if (name == "week")
    {
        function = DateFunction::StartOfWeek;
    }
    else if (name == "month")
    {
        function = DateFunction::StartOfMonth;
    }
    else if (name == "quarter")
    {
        function = DateFunction::StartOfQuarter;
    }
    else if (name == "year")
    {
        function = DateFunction::StartOfYear;
    }
    if (!function || !dateFunctionResultType(*function, argument->type()))
    {
        return std::nullopt;
    }
    NodePtr truncated = makeDateFunction(*function, argument);
    if (truncated->type() != argument->type())
    {
        // A DateTime truncated to a week, month... is that day's midnight, still a DateTime.
        truncated = makeDateFunction(DateFunction::ToDateTime, std::move(truncated));
    }
    return truncated;
}

namespace
{

/// The calendar functions of kFunctionNames; a DateTime64 is read as its whole seconds.
NodePtr buildDateFunction(CallContext& call)
{
    const DateFunction function = *dateFunctionByName(call.lowerName());
    NodePtr time = call.argument(0);
    if (isString(time->type()) &&
        (function == DateFunction::ToDate || function == DateFunction::ToDateTime))
    {
        return makeConversion(std::move(time),
                              function == DateFunction::ToDate ? TypeId::Date : TypeId::DateTime);
    }
    if (time->type() == TypeId::DateTime64)
    {
        time = makeDateTime64Seconds(std::move(time));
        if (function == DateFunction::ToDateTime)
        {
            return time;
        }
    }
    if (!dateFunctionResultType(function, time->type()))
    {
        call.fail(ErrorCode::kTypeMismatch, "Function " + call.name() + " does not take " +
                                                call.quotedArgument(0) + " of type " +
                                                dataTypeName(call.argument(0)->dataType()));
    }
    return makeDateFunction(function, std::move(time));
}

NodePtr buildDateTrunc(CallContext& call)
{
    const std::string unit = call.constantString(0, "unit");
    std::optional<NodePtr> truncated = makeDateTrunc(unit, call.argument(1));
    if (!truncated)
    {
        call.fail(ErrorCode::kBadArguments, "Function " + call.name() + " cannot truncate " +
                                                call.quotedArgument(1) + " of type " +
                                                dataTypeName(call.argument(1)->dataType()) +
                                                " to unit '" + unit + "'");
    }
    return *truncated;
}

/// now() and today(): the statement's start, as ClickHouse takes it (every row sees one
/// instant).
NodePtr buildNow(CallContext& call)
{
    const auto seconds = static_cast<uint32_t>(std::time(nullptr));
    if (call.lowerName() == "now")
    {
        Column value(TypeId::DateTime);
        value.append(seconds);
        return std::make_shared<ConstantNode>(std::move(value));
    }
    Column value(TypeId::Date);
    value.append(static_cast<uint16_t>(seconds / kSecondsPerDay));
    return std::make_shared<ConstantNode>(std::move(value));
}

NodePtr buildStartOfInterval(CallContext& call)
{
    const Interval interval = call.interval(1);
    if (NodePtr start = makeStartOfInterval(call.argument(0), interval))
    {
        return start;
    }
    call.fail(ErrorCode::kBadArguments,
              "Function " + call.name() + " does not take " + call.quotedArgument(0) + " of type " +
                  dataTypeName(call.argument(0)->dataType()) + " with " + call.quotedArgument(1) +
                  " (a Date, DateTime or DateTime64; n > 1 only for units up to a day)");
}

/// toIntervalHour(n) and the others are what INTERVAL n HOUR parses to: no value of their own.
NodePtr buildInterval(CallContext& call)
{
    call.fail(ErrorCode::kBadArguments,
              call.quotedCall() +
                  " is an INTERVAL: it moves a time (t - INTERVAL 1 HOUR) or sizes "
                  "toStartOfInterval, and is no value of its own");
}

constexpr std::array<std::string_view, 8> kIntervalFunctions = {
    "toIntervalSecond", "toIntervalMinute", "toIntervalHour",    "toIntervalDay",
    "toIntervalWeek",   "toIntervalMonth",  "toIntervalQuarter", "toIntervalYear",
};

}  // namespace

std::vector<ScalarFunction> dateFunctionEntries()
{
    std::vector<ScalarFunction> entries;
    for (const NamedFunction& named : kFunctionNames)
    {
        entries.push_back(
            {named.name, named.signature, named.description, 1, 1, false, buildDateFunction});
    }
    for (const std::string_view name :
         {std::string_view("date_trunc"), std::string_view("dateTrunc")})
    {
        entries.push_back({name,
                           name == "date_trunc" ? "date_trunc(unit, t)" : "dateTrunc(unit, t)",
                           "t rounded down to the unit ('second' to 'year'), in t's type.", 2, 2,
                           false, buildDateTrunc});
    }
    entries.push_back(
        {"now", "now()", "The statement's start as a DateTime.", 0, 0, false, buildNow});
    entries.push_back(
        {"today", "today()", "The statement's start as a Date.", 0, 0, false, buildNow});
    entries.push_back({"toStartOfInterval", "toStartOfInterval(t, INTERVAL n unit)",
                       "t aligned down to a multiple of the interval (ClickHouse's alignment).", 2,
                       2, false, buildStartOfInterval});
    for (const std::string_view name : kIntervalFunctions)
    {
        entries.push_back({name, name,
                           "An interval for t ± INTERVAL and toStartOfInterval; no value alone.", 1,
                           1, false, buildInterval});
    }
    return entries;
}

}  // namespace granary
