#pragma once

#include <string>
#include <unordered_map>

namespace granary
{

/// Names code addresses for folded stacks: dladdr finds the symbol, abi::__cxa_demangle makes it
/// readable. Runs outside signal handlers; remembers each address it has named.
/// Functions the dynamic symbol table lacks (internal linkage) show as "module+0xoffset".
class StackSymbolizer
{
public:
    /// The name of the function holding `address`. A return address points past its call, so
    /// for all frames but the innermost the instruction before it is looked up.
    const std::string& frameName(void* address, bool is_return_address);

private:
    std::unordered_map<void*, std::string> names_;
};

}  // namespace granary
