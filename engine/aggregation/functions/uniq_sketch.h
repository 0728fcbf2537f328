#pragma once

#include <new>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/aggregation/aggregate_function_base.h"
#include "engine/aggregation/distinct_set.h"
#include "engine/aggregation/functions/uniq_sketch_state.h"
#include "hashtables/hash.h"

namespace granary
{

/// The 64-bit hash a sketch keeps of a value: a number's bit pattern (as uniqExact compares
/// them) through two rounds of multiply-folding, so that the register index (top bits) and
/// the rank (the bits below) are independent even for runs of consecutive integers.
inline uint64_t sketchHash(uint64_t bits)
{
    return hashing::hashWords(bits, 0);
}
/// A string's hash for hash tables, mixed as a number: alone, its bits are not independent
/// enough for registers (short similar strings overestimated by 4 %).
inline uint64_t sketchHash(std::string_view bytes)
{
    return sketchHash(hashing::hashString(bytes));
}

/// uniq / uniqCombined: approximate count of distinct values (UniqSketchState) of precision
/// set per function. Traits (distinct_set.h) read a row's value as uniqExact does.
template <typename Traits>
class UniqSketchFunction final
    : public AggregateFunctionBase<UniqSketchFunction<Traits>, UniqSketchState>
{
    using Base = AggregateFunctionBase<UniqSketchFunction<Traits>, UniqSketchState>;

public:
    UniqSketchFunction(std::string name, uint8_t precision)
        : name_(std::move(name)), precision_(precision)
    {
    }

    std::string name() const override { return name_; }
    DataType resultType() const override { return TypeId::UInt64; }

    void create(char* place, Arena&) const override { new (place) UniqSketchState(precision_); }

    static void add(UniqSketchState& state, const ColumnView* arguments, size_t row, Arena&)
    {
        state.insert(sketchHash(Traits::keyAt(arguments[0], row)));
    }
    static void mergeStates(UniqSketchState& target, const UniqSketchState& source)
    {
        target.merge(source);
    }
    void insertResult(const UniqSketchState& state, Column& to) const
    {
        to.append(uint64_t{state.count()});
    }

    void serialize(const char* place, std::string& out) const override
    {
        std::launder(reinterpret_cast<const UniqSketchState*>(place))->serialize(out);
    }
    void checkSerialized(std::string_view bytes) const override
    {
        UniqSketchState::checkSerialized(bytes, name_, precision_);
    }
    void mergeSerialized(char* place, std::string_view bytes, Arena&) const override
    {
        Base::state(place).mergeSerialized(bytes, name_);
    }

private:
    std::string name_;
    uint8_t precision_;
};

}  // namespace granary
