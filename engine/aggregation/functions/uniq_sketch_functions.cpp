#include "engine/aggregation/functions/uniq_sketch_functions.h"

#include <cmath>
#include <memory>

#include "engine/aggregation/functions/uniq_sketch.h"

namespace granary
{
namespace
{

/// uniq's registers: 2^12 of them, 3 KiB, standard error 1.04 / 64 = 1.6 %.
constexpr uint8_t kUniqPrecision = 12;
/// uniqCombined's default: 2^13 registers, 6 KiB, standard error 1.15 %.
constexpr uint8_t kUniqCombinedDefaultPrecision = 13;
/// uniqCombined(p)'s range: from 768 bytes of registers (4.6 %) to 768 KiB (0.1 %).
constexpr uint8_t kUniqCombinedMinPrecision = 10;
constexpr uint8_t kUniqCombinedMaxPrecision = 20;

// The reference entries below quote these sizes.
static_assert(UniqSketchState::exactLimit(kUniqPrecision) == 192);
static_assert(UniqSketchState::exactLimit(kUniqCombinedDefaultPrecision) == 384);
static_assert(HyperLogLog::packedSize(kUniqCombinedDefaultPrecision) == 6144);
static_assert(sizeof(UniqSketchState) == 72);

AggregateFunctionPtr makeUniqSketch(const AggregateCall& call, std::string name, uint8_t precision)
{
    return dispatchType(
        call.arguments[0].type,
        [&]<typename T>(TypeTag<T>) -> AggregateFunctionPtr
        {
            using Traits = std::conditional_t<std::is_same_v<T, std::string_view>,
                                              StringDistinctTraits, NumberDistinctTraits<T>>;
            return std::make_shared<UniqSketchFunction<Traits>>(std::move(name), precision);
        });
}

AggregateFunctionPtr uniqCombined(const AggregateCall& call)
{
    if (call.parameters.empty())
    {
        return makeUniqSketch(call, "uniqCombined", kUniqCombinedDefaultPrecision);
    }
    const double precision = call.parameters[0];
    if (precision != std::floor(precision) || precision < kUniqCombinedMinPrecision ||
        precision > kUniqCombinedMaxPrecision)
    {
        throwBadAggregateCall(call, "a precision that is an integer from " +
                                        std::to_string(kUniqCombinedMinPrecision) + " to " +
                                        std::to_string(kUniqCombinedMaxPrecision));
    }
    return makeUniqSketch(call, "uniqCombined", static_cast<uint8_t>(precision));
}

}  // namespace

void addUniqSketchFunctions(std::vector<AggregateFunctionEntry>& entries)
{
    entries.push_back(
        {.name = "uniq",
         .aliases = {},
         .signature = "uniq(x)",
         .result = "UInt64",
         .exactness = "exact up to 192 distinct values, then HyperLogLog with 2^12 registers: "
                      "relative standard error 1.6 % (1.04 / sqrt(4096)), within 4.9 % (3 "
                      "standard errors) in 99.7 % of counts",
         .state = "72 bytes, then a hash set of up to 192 hashes, then 3 KiB of registers",
         .merge = "O(distinct values) up to 192, then O(4096)",
         .empty_is_null = false,
         .ignores_duplicates = true,
         .create = [](const AggregateCall& call)
         { return makeUniqSketch(call, "uniq", kUniqPrecision); }});
    entries.push_back(
        {.name = "uniqCombined",
         .aliases = {},
         .signature = "uniqCombined(x), uniqCombined(p)(x) with p from 10 to 20 (default 13)",
         .result = "UInt64",
         .exactness = "exact up to 3 * 2^(p-6) distinct values (384 for p = 13), then "
                      "HyperLogLog with 2^p registers: relative standard error 1.04 / "
                      "sqrt(2^p), 1.15 % for p = 13",
         .state = "72 bytes, then a hash set of up to 3 * 2^(p-6) hashes, then 3 * 2^(p-2) "
                  "bytes of registers (6 KiB for p = 13)",
         .merge = "O(distinct values) up to 3 * 2^(p-6), then O(2^p)",
         .max_parameters = 1,
         .empty_is_null = false,
         .ignores_duplicates = true,
         .create = uniqCombined});
}

}  // namespace granary
