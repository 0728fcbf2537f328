#include "engine/expressions/datetime64.h"

#include <algorithm>
#include <limits>

#include "engine/expressions/date_functions.h"

namespace granary
{
namespace
{

class DateTime64SecondsNode final : public ExpressionNode
{
public:
    explicit DateTime64SecondsNode(NodePtr ticks)
        : ExpressionNode(TypeId::DateTime, {std::move(ticks)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column ticks_holder;
        const ColumnView ticks = children()[0]->evaluate(input, begin, count, ticks_holder);
        const int64_t scale = ticksPerSecond(ticks.precision);
        holder = Column(TypeId::DateTime);
        holder.resizeFixedUninitialized(count);
        auto* out = holder.mutableData<uint32_t>();
        constexpr int64_t kLast = std::numeric_limits<uint32_t>::max();
        for (size_t row = 0; row < count; ++row)
        {
            const int64_t value = ticks.valueAt<int64_t>(row);
            // Floor division: a tick before a second's start belongs to the second before.
            const int64_t seconds = value / scale - (value % scale < 0 ? 1 : 0);
            out[row] = static_cast<uint32_t>(std::clamp<int64_t>(seconds, 0, kLast));
        }
        return holder.view();
    }
};

class DateTime64TicksNode final : public ExpressionNode
{
public:
    DateTime64TicksNode(NodePtr time, uint8_t precision)
        : ExpressionNode(DataType::dateTime64(precision), {std::move(time)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column time_holder;
        const ColumnView time = children()[0]->evaluate(input, begin, count, time_holder);
        const uint8_t from_precision = time.type == TypeId::DateTime64 ? time.precision : 0;
        const int64_t scale = ticksPerSecond(dataType().precision - from_precision);
        holder = Column(dataType());
        holder.resizeFixedUninitialized(count);
        auto* out = holder.mutableData<int64_t>();
        dispatchFixedType(time.type,
                          [&]<typename T>(TypeTag<T>)
                          {
                              for (size_t row = 0; row < count; ++row)
                              {
                                  out[row] = static_cast<int64_t>(time.valueAt<T>(row)) * scale;
                              }
                          });
        return holder.view();
    }
};

}  // namespace

int64_t ticksPerSecond(uint8_t precision)
{
    int64_t scale = 1;
    for (uint8_t digit = 0; digit < precision; ++digit)
    {
        scale *= 10;
    }
    return scale;
}

NodePtr makeDateTime64Seconds(NodePtr ticks)
{
    return std::make_shared<DateTime64SecondsNode>(std::move(ticks));
}

NodePtr makeDateTime64Ticks(NodePtr time, uint8_t precision)
{
    if (time->type() == TypeId::Date)
    {
        time = makeDateFunction(DateFunction::ToDateTime, std::move(time));
    }
    return std::make_shared<DateTime64TicksNode>(std::move(time), precision);
}

}  // namespace granary
