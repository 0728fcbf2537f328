#pragma once

// A naive aggregator used as the oracle: std::map from the keys' printed values to the rows of
// each group, and exact results computed directly from those rows.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "engine/columns/block.h"

namespace granary::testing
{

/// A cell value: numbers as long double (exact for every 64-bit integer), strings as bytes.
using Value = std::variant<long double, std::string>;

Value valueAt(const ColumnView& column, size_t row);
std::string printValue(const Value& value);

struct AggregateSpec
{
    std::string function;  ///< count, sum, avg, min, max, any, uniqExact
    std::string argument;  ///< empty for count(*)
};

/// Expected result of one aggregate for one group. `any` is checked by membership.
struct Expected
{
    Value value;
    std::set<std::string> any_of;  ///< for any(): printed values of the group
    bool is_float_sum = false;     ///< compare with a relative tolerance
};

/// key (printed) → expected results in spec order.
using ReferenceResult = std::map<std::string, std::vector<Expected>>;

ReferenceResult referenceAggregate(const BlockView& input, const std::vector<std::string>& keys,
                                   const std::vector<AggregateSpec>& aggregates);

/// Compares an aggregator result (key columns first, then the aggregates) with the reference;
/// returns an empty string when equal, else the first difference.
std::string compareWithReference(const Block& result, size_t key_count,
                                 const std::vector<AggregateSpec>& aggregates,
                                 const ReferenceResult& reference);

}  // namespace granary::testing
