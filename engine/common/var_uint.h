#pragma once

#include <cstdint>
#include <string>

namespace granary
{

/// Appends `value` as ClickHouse's VarUInt (unsigned LEB128: 7 bits a byte, low bits first,
/// 0x80 marking that more follow; at most 10 bytes).
inline void appendVarUInt(uint64_t value, std::string& out)
{
    while (value >= 0x80)
    {
        out.push_back(static_cast<char>(value | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<char>(value));
}

}  // namespace granary
