#include "engine/aggregation/functions/group_array.h"

#include <absl/container/flat_hash_set.h>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/functions/kept_value.h"

namespace granary
{
namespace
{

/// Without N a group keeps every value: the limit is then the largest a state can count.
constexpr uint64_t kUnlimited = std::numeric_limits<uint32_t>::max();

/// What groupUniqArray compares: the value, a float as its bits with every NaN one value and
/// -0 equal to 0 (as SQL's = has them, except for NaN, which would otherwise repeat).
template <typename T>
auto uniqueKey(const T& value)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
        const T canonical = std::isnan(value) ? std::numeric_limits<T>::quiet_NaN()
                            : value == T(0)   ? T(0)
                                              : value;
        return std::bit_cast<Bits>(canonical);
    }
    else
    {
        return value;
    }
}

/// A group's values in the order met, at most `limit`; `Unique` keeps each value once.
/// Strings are views into the partial's arena (kept_value.h).
template <typename T, bool Unique>
struct CollectedValues
{
    uint64_t limit = kUnlimited;
    std::vector<T> values;
    /// Unique only: the values kept, for the membership test (groupArray's states go without:
    /// a GROUP BY holds one per group).
    [[no_unique_address]] std::conditional_t<
        Unique, absl::flat_hash_set<decltype(uniqueKey(std::declval<T>()))>, std::monostate>
        seen;

    bool full() const { return values.size() >= limit; }

    /// Keeps `value` (copied by `keep` once it is known to be kept).
    template <typename Keep>
    void add(const T& value, Keep&& keep)
    {
        if (full())
        {
            return;
        }
        if constexpr (Unique)
        {
            if (seen.contains(uniqueKey(value)))
            {
                return;
            }
            const T kept = keep(value);
            seen.insert(uniqueKey(kept));
            values.push_back(kept);
        }
        else
        {
            values.push_back(keep(value));
        }
    }
};

/// groupArray and groupUniqArray over a column of T (std::string_view for String).
template <typename T, bool Unique>
class CollectFunction final
    : public AggregateFunctionBase<CollectFunction<T, Unique>, CollectedValues<T, Unique>>
{
    using State = CollectedValues<T, Unique>;
    using Base = AggregateFunctionBase<CollectFunction<T, Unique>, State>;

public:
    CollectFunction(TypeId type, uint64_t limit) : type_(type), limit_(limit) {}

    std::string name() const override { return Unique ? "groupUniqArray" : "groupArray"; }
    DataType resultType() const override { return DataType::array(type_); }

    void create(char* place, Arena& /*arena*/) const override
    {
        State* state = new (place) State();
        state->limit = limit_;
    }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& arena)
    {
        state.add(readValue<T>(arguments[0], row),
                  [&](const T& value) { return keepValue(value, arena); });
    }
    /// Views stay valid: the sources' arenas live until the result is built.
    static void mergeStates(State& target, const State& source)
    {
        for (const T& value : source.values)
        {
            target.add(value, [](const T& kept) { return kept; });
        }
    }

    void insertResult(const State& state, Column& to) const
    {
        Column& elements = to.child(0);
        for (const T& value : state.values)
        {
            appendResultValue(elements, value);
        }
        to.closeNestedRow();
    }

    /// The count, then each value.
    void writeState(const State& state, std::string& out) const
    {
        appendStateValue(out, uint64_t{state.values.size()});
        for (const T& value : state.values)
        {
            appendStateField(out, value);
        }
    }
    /// Views into the serialized bytes, checked as they are read.
    State readState(StateReader& reader) const
    {
        State state;
        state.limit = kUnlimited;
        const auto count = reader.read<uint64_t>();
        if (count > limit_)
        {
            throw Exception(ErrorCode::kIncorrectData,
                            name() + " state of " + std::to_string(count) + " values, past its " +
                                std::to_string(limit_));
        }
        for (uint64_t i = 0; i < count; ++i)
        {
            state.values.push_back(readStateField<T>(reader));
        }
        return state;
    }
    void mergeReadState(State& target, const State& source, Arena& arena) const
    {
        for (const T& value : source.values)
        {
            target.add(value, [&](const T& kept) { return keepValue(kept, arena); });
        }
    }

private:
    TypeId type_;
    uint64_t limit_;
};

/// N of groupArray(N)(x): an integer from 1 to kUnlimited; none without the parameter.
uint64_t limitOf(const AggregateCall& call)
{
    if (call.parameters.empty())
    {
        return kUnlimited;
    }
    const double limit = call.parameters[0];
    if (!(limit >= 1 && limit <= double(kUnlimited)) || limit != std::floor(limit))
    {
        throwBadAggregateCall(call, "a number of values N that is an integer from 1 to " +
                                        std::to_string(kUnlimited));
    }
    return static_cast<uint64_t>(limit);
}

template <bool Unique>
AggregateFunctionPtr createCollect(const AggregateCall& call)
{
    const uint64_t limit = limitOf(call);
    const TypeId type = call.arguments[0].type;
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
                        { return std::make_shared<CollectFunction<T, Unique>>(type, limit); });
}

}  // namespace

void addGroupArrayFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    const std::string order =
        "in the order the rows and partial states were met (it changes with the thread count)";
    entries.push_back({.name = "groupArray",
                       .signature = "groupArray(x), groupArray(N)(x) (the first N values)",
                       .result = "Array of the argument's type: the group's values, " + order,
                       .exactness = "exact (which N values are first depends on that order)",
                       .state = "the values kept (strings: plus their bytes)",
                       .merge = "O(values)",
                       .max_parameters = 1,
                       .empty_is_null = false,
                       .empty_value = "[]",
                       .create = createCollect<false>});
    entries.push_back(
        {.name = "groupUniqArray",
         .signature = "groupUniqArray(x), groupUniqArray(N)(x) (the first N)",
         .result = "Array of the argument's type: the group's distinct values, " + order,
         .exactness = "exact (which N values are first depends on that order)",
         .state = "the distinct values kept and a hash set of them",
         .merge = "O(values)",
         .max_parameters = 1,
         .empty_is_null = false,
         .empty_value = "[]",
         .ignores_duplicates = true,
         .create = createCollect<true>});
}

}  // namespace granary
