#include "engine/aggregation/functions/top_k.h"

#include <cmath>
#include <memory>
#include <string>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/functions/kept_value.h"
#include "engine/aggregation/functions/space_saving.h"

namespace granary
{
namespace
{

/// N without a parameter, as in ClickHouse.
constexpr double kDefaultTopValues = 10;
/// Counters per value returned without a second parameter, as in ClickHouse: with 3N
/// counters a value's count is off by at most n / 3N.
constexpr double kDefaultLoadFactor = 3;
/// The largest N (ClickHouse's limit, 2^24 - 1) and summary (N * load factor).
constexpr double kMaxTopValues = 16'777'215;
constexpr double kMaxCounters = 16'777'216;
constexpr double kMaxLoadFactor = 1000;

/// topK over a column of T (std::string_view for String).
template <typename T>
class TopKFunction final : public AggregateFunctionBase<TopKFunction<T>, SpaceSaving<T>>
{
    using State = SpaceSaving<T>;
    using Base = AggregateFunctionBase<TopKFunction<T>, State>;

public:
    TopKFunction(TypeId type, uint32_t values, uint32_t counters)
        : type_(type), values_(values), counters_(counters)
    {
    }

    std::string name() const override { return "topK"; }
    DataType resultType() const override { return DataType::array(type_); }

    void create(char* place, Arena& /*arena*/) const override { new (place) State(counters_); }

    static void add(State& state, const ColumnView* arguments, size_t row, Arena& /*arena*/)
    {
        state.add(readValue<T>(arguments[0], row));
    }
    /// Without keys (one state takes whole morsels): each morsel counted exactly, then merged.
    void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                             char* place, Arena& /*arena*/) const override
    {
        const ColumnView& column = arguments[0];
        Base::state(place).addMany(count,
                                   [&](size_t i) { return readValue<T>(column, first_row + i); });
    }
    static void mergeStates(State& target, const State& source) { target.merge(source); }

    void insertResult(const State& state, Column& to) const
    {
        Column& elements = to.child(0);
        state.forEachTop(values_, [&](const T& value) { appendResultValue(elements, value); });
        to.closeNestedRow();
    }

    void writeState(const State& state, std::string& out) const { state.serialize(out); }
    State readState(StateReader& reader) const { return State::read(reader, counters_); }
    void mergeReadState(State& target, const State& source, Arena& /*arena*/) const
    {
        target.merge(source);
    }

private:
    TypeId type_;
    uint32_t values_;
    uint32_t counters_;
};

/// Parameter `index` of `call` (or `fallback` when absent), an integer in [1, max].
uint32_t integerParameter(const AggregateCall& call, size_t index, double fallback, double max,
                          const std::string& what)
{
    const double value = index < call.parameters.size() ? call.parameters[index] : fallback;
    if (!(value >= 1 && value <= max) || value != std::floor(value))
    {
        throwBadAggregateCall(call, what + " that is an integer from 1 to " +
                                        std::to_string(static_cast<uint64_t>(max)));
    }
    return static_cast<uint32_t>(value);
}

AggregateFunctionPtr createTopK(const AggregateCall& call)
{
    const uint32_t values =
        integerParameter(call, 0, kDefaultTopValues, kMaxTopValues, "a number of values N");
    const uint32_t load_factor =
        integerParameter(call, 1, kDefaultLoadFactor, kMaxLoadFactor, "a load factor");
    const double counters = double(values) * load_factor;
    if (counters > kMaxCounters)
    {
        throwBadAggregateCall(call, "N * load_factor of at most " +
                                        std::to_string(static_cast<uint64_t>(kMaxCounters)));
    }
    const TypeId type = call.arguments[0].type;
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr {
                            return std::make_shared<TopKFunction<T>>(
                                type, values, static_cast<uint32_t>(counters));
                        });
}

}  // namespace

void addTopKFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    entries.push_back(
        {.name = "topK",
         .signature = "topK(x) (N = 10), topK(N)(x), topK(N, load_factor)(x) (load_factor 3)",
         .result = "Array of the argument's type: up to N values, most frequent first (equal "
                   "counts in ascending order of value)",
         .exactness = "Space-Saving summary of N * load_factor counters: a count over-estimates "
                      "by at most rows / (N * load_factor), so every value more frequent than "
                      "that is kept, and values whose frequencies differ by more are in order; "
                      "exact over at most max(4 * N * load_factor, 256) distinct values",
         .state = "N * load_factor counters (value, count, error) and their hash index, about "
                  "48 bytes each, and a window of up to max(4 * N * load_factor, 256) exact "
                  "counts, about 20 bytes each (strings: plus their bytes); without keys the "
                  "window takes a whole morsel (65,536 rows by default) before it folds",
         .merge = "O(counters log counters)",
         .min_parameters = 0,
         .max_parameters = 2,
         .empty_is_null = false,
         .empty_value = "[]",
         .create = createTopK});
}

}  // namespace granary
