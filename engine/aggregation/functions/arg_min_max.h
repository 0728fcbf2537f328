#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/functions/kept_value.h"
#include "engine/aggregation/functions/min_max_any.h"

namespace granary
{

/// How argMin and argMax keep a fixed-width `arg`: its bytes in 64 bits, whatever its type.
/// The arg is only copied, never compared, so one instantiation serves every fixed width.
using FixedArgBits = uint64_t;

/// State of argMin and argMax: the arg of the row with the extreme value so far, that value,
/// and whether there is one. String args and values are views of bytes in the partial's
/// arena.
template <typename Arg, typename Value>
struct ArgExtremeState
{
    Arg arg{};
    Value value{};
    /// A byte, not a bool: plain states are read back from bytes that may be damaged, and
    /// every byte value must make a valid object (any non-zero means a value is held).
    uint8_t has_value = 0;
};

/// argMin(arg, value) and argMax(arg, value) (Keep: KeepMinimum or KeepMaximum, the policies
/// of min and max): the arg of the row with the smallest or largest value. Ties keep the row
/// seen first in a state, and the target's on merges (the policies replace only on a strict
/// comparison). Arg is FixedArgBits or std::string_view; Value the value column's C++ type.
template <typename Arg, typename Value, typename Keep>
class ArgExtremeFunction final : public AggregateFunctionBase<ArgExtremeFunction<Arg, Value, Keep>,
                                                              ArgExtremeState<Arg, Value>>
{
    using State = ArgExtremeState<Arg, Value>;
    using Base = AggregateFunctionBase<ArgExtremeFunction<Arg, Value, Keep>, State>;
    /// States with a string are serialized field by field, not as their views.
    static constexpr bool kHasString = kIsStringValue<Arg> || kIsStringValue<Value>;

public:
    explicit ArgExtremeFunction(TypeId arg_type) : arg_type_(arg_type) {}

    std::string name() const override
    {
        return std::is_same_v<Keep, KeepMinimum> ? "argMin" : "argMax";
    }
    DataType resultType() const override { return arg_type_; }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& arena)
    {
        const Value candidate = readValue<Value>(arguments[1], row);
        if (!state.has_value || Keep::replaces(candidate, state.value))
        {
            state.value = keepValue(candidate, arena);
            state.arg = keepValue(readArg(arguments[0], row), arena);
            state.has_value = true;
        }
    }

    /// Chosen strings stay in their partial's arena, which lives until the result is built.
    static void mergeStates(State& target, const State& source)
    {
        if (takes(target, source))
        {
            target = source;
        }
    }

    /// A flag, the arg and the value (strings as their bytes).
    void writeState(const State& chosen, std::string& out) const requires kHasString
    {
        appendStateValue(out, static_cast<uint8_t>(chosen.has_value));
        appendStateField(out, chosen.arg);
        appendStateField(out, chosen.value);
    }
    State readState(StateReader& reader) const requires kHasString
    {
        State state;
        state.has_value = reader.read<uint8_t>() != 0;
        state.arg = readStateField<Arg>(reader);
        state.value = readStateField<Value>(reader);
        return state;
    }
    void mergeReadState(State& target, const State& source, Arena& arena) const requires kHasString
    {
        if (takes(target, source))
        {
            target.arg = keepValue(source.arg, arena);
            target.value = keepValue(source.value, arena);
            target.has_value = true;
        }
    }

    void insertResult(const State& state, Column& to) const
    {
        if constexpr (kIsStringValue<Arg>)
        {
            to.appendString(state.arg);
        }
        else
        {
            to.appendRaw(&state.arg);  // the low bytes: the value's own (little-endian)
        }
    }

private:
    static Arg readArg(const ColumnView& column, size_t row)
    {
        if constexpr (kIsStringValue<Arg>)
        {
            return column.stringAt(row);
        }
        else
        {
            FixedArgBits bits = 0;
            const size_t width = fixedWidth(column.type);
            std::memcpy(&bits, static_cast<const char*>(column.data) + row * width, width);
            return bits;
        }
    }
    /// Whether merging `source` into `target` takes the source's row.
    static bool takes(const State& target, const State& source)
    {
        return source.has_value &&
               (!target.has_value || Keep::replaces(source.value, target.value));
    }

    TypeId arg_type_;
};

}  // namespace granary
