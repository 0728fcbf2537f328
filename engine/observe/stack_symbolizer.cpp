#include "engine/observe/stack_symbolizer.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

namespace granary
{
namespace
{

std::string demangle(const char* symbol)
{
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(
        abi::__cxa_demangle(symbol, nullptr, nullptr, &status), &std::free);
    return status == 0 && demangled ? std::string(demangled.get()) : std::string(symbol);
}

std::string describe(const void* address)
{
    std::ostringstream name;
    Dl_info info{};
    if (dladdr(address, &info) != 0 && info.dli_sname != nullptr)
    {
        name << demangle(info.dli_sname);
    }
    else if (info.dli_fname != nullptr && info.dli_fbase != nullptr)
    {
        const auto offset =
            reinterpret_cast<uintptr_t>(address) - reinterpret_cast<uintptr_t>(info.dli_fbase);
        name << std::filesystem::path(info.dli_fname).filename().string() << "+0x" << std::hex
             << offset;
    }
    else
    {
        name << address;
    }
    std::string text = name.str();
    // ';' separates frames in folded stacks.
    std::replace(text.begin(), text.end(), ';', ':');
    return text;
}

}  // namespace

const std::string& StackSymbolizer::frameName(void* address, bool is_return_address)
{
    void* lookup = is_return_address ? static_cast<char*>(address) - 1 : address;
    auto [slot, inserted] = names_.try_emplace(lookup);
    if (inserted)
    {
        slot->second = describe(lookup);
    }
    return slot->second;
}

}  // namespace granary
