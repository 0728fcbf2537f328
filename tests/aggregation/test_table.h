#pragma once

// Generated input for aggregation tests: every key type and value columns, with the group of
// each row chosen by a shape so that each merge path can be provoked.

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "engine/columns/block.h"

namespace granary::testing
{

/// Builds `rows` rows; group_of(row) picks the row's group, from which every key column is
/// derived (so all key columns agree on the grouping, up to their value range).
inline Block makeTestTable(size_t rows, const std::function<uint64_t(size_t)>& group_of,
                           uint64_t seed)
{
    std::mt19937_64 random(seed);
    Block block;
    block.columns.reserve(32);  // the references below must stay valid
    auto add = [&](const std::string& name, TypeId type) -> Column&
    {
        block.columns.push_back({name, Column(type)});
        return block.columns.back().column;
    };
    Column& k_u8 = add("k_u8", TypeId::UInt8);
    Column& k_i8 = add("k_i8", TypeId::Int8);
    Column& k_u16 = add("k_u16", TypeId::UInt16);
    Column& k_date = add("k_date", TypeId::Date);
    Column& k_u32 = add("k_u32", TypeId::UInt32);
    Column& k_i32 = add("k_i32", TypeId::Int32);
    Column& k_f32 = add("k_f32", TypeId::Float32);
    Column& k_dt = add("k_dt", TypeId::DateTime);
    Column& k_u64 = add("k_u64", TypeId::UInt64);
    Column& k_i64 = add("k_i64", TypeId::Int64);
    Column& k_f64 = add("k_f64", TypeId::Float64);
    Column& k_str = add("k_str", TypeId::String);
    Column& v_u32 = add("v_u32", TypeId::UInt32);
    Column& v_i64 = add("v_i64", TypeId::Int64);
    Column& v_f64 = add("v_f64", TypeId::Float64);
    Column& v_big = add("v_big", TypeId::UInt64);
    Column& v_str = add("v_str", TypeId::String);
    Column& v_i8 = add("v_i8", TypeId::Int8);
    for (size_t row = 0; row < rows; ++row)
    {
        const uint64_t g = group_of(row);
        k_u8.append(static_cast<uint8_t>(g));
        k_i8.append(static_cast<int8_t>(g * 7));
        k_u16.append(static_cast<uint16_t>(g));
        k_date.append(static_cast<uint16_t>(15000 + g % 20000));
        k_u32.append(static_cast<uint32_t>(g * 2654435761u));
        k_i32.append(static_cast<int32_t>(g) - 1000);
        k_f32.append(static_cast<float>(g) * 0.5f - 3.0f);
        k_dt.append(static_cast<uint32_t>(1372636800 + g * 60));
        k_u64.append(g == 0 ? uint64_t{0} : g * 0x9E3779B97F4A7C15ULL);
        k_i64.append(-static_cast<int64_t>(g) * 1000003);
        k_f64.append(static_cast<double>(g) / 3.0);
        // Lengths around the inline-string boundaries, some with NUL bytes and high bytes.
        std::string s = "g" + std::to_string(g);
        s.append(g % 29, static_cast<char>('a' + g % 26));
        if (g % 11 == 0)
        {
            s += '\0';
        }
        if (g % 13 == 0)
        {
            s += "\xC3\xA9";
        }
        k_str.appendString(g % 97 == 0 ? std::string() : s);
        v_u32.append(static_cast<uint32_t>(random() % 1000));
        v_i64.append(static_cast<int64_t>(random() % 2000001) - 1000000);
        v_f64.append(static_cast<double>(random() % 100000) / 7.0);
        v_big.append(std::numeric_limits<uint64_t>::max() -
                     random() % 1000);  // avg overflows 64 bits
        v_str.appendString(std::string(random() % 30, static_cast<char>('a' + random() % 26)));
        v_i8.append(static_cast<int8_t>(random()));
    }
    return block;
}

/// `groups` groups (UInt64 key `k`) of `values_per_group` distinct UInt64 values `v` each
/// (group * 10 + i), every group's rows spread over the whole table: the shape of the memory
/// tests of states that grow with their values (a million small groups).
inline Block makeSmallGroupsTable(uint64_t groups, uint64_t values_per_group)
{
    Column keys(TypeId::UInt64);
    Column values(TypeId::UInt64);
    for (uint64_t value = 0; value < values_per_group; ++value)
    {
        for (uint64_t group = 0; group < groups; ++group)
        {
            keys.append(group);
            values.append(group * 10 + value);
        }
    }
    Block block;
    block.columns.push_back({"k", std::move(keys)});
    block.columns.push_back({"v", std::move(values)});
    return block;
}

}  // namespace granary::testing
