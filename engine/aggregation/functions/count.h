#pragma once

#include <cstdint>

#include "engine/aggregation/aggregate_function_base.h"

namespace granary
{

/// count(*) and count(x): columns have no NULLs, so both count rows.
class CountFunction final : public AggregateFunctionBase<CountFunction, uint64_t>
{
public:
    std::string name() const override { return "count"; }
    DataType resultType() const override { return TypeId::UInt64; }

    static void add(uint64_t& count, const ColumnView*, size_t, Arena&) { ++count; }
    static void mergeStates(uint64_t& target, uint64_t source) { target += source; }
    void insertResult(uint64_t count, Column& to) const { to.append(count); }

    void addBatchSinglePlace(const ColumnView*, size_t, size_t count, char* place,
                             Arena&) const override
    {
        state(place) += count;
    }
};

}  // namespace granary
