#pragma once

// The bytes of partial states (format version kPartialStateVersion, docs/embedding.md):
// little-endian plain values, strings as a 32-bit length and their bytes. A reader checks
// every length against what is left, so a truncated or corrupted state is an Exception
// (kIncorrectData), never a read past the end.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/common/exception.h"
#include "granary/version.h"

namespace granary
{

/// The partial-state format this build writes and reads.
inline constexpr uint32_t kPartialStateVersion = GRANARY_PARTIAL_STATE_VERSION;

template <typename T>
void appendStateValue(std::string& out, const T& value)
{
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

inline void appendStateString(std::string& out, std::string_view value)
{
    appendStateValue(out, static_cast<uint32_t>(value.size()));
    out.append(value);
}

/// Reads a state's bytes front to back.
class StateReader
{
public:
    /// `function` names the state's function in errors; kept as a copy, since callers pass
    /// temporaries (name() returns a string).
    StateReader(std::string_view bytes, std::string function)
        : bytes_(bytes), function_(std::move(function))
    {
    }

    template <typename T>
    T read()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, take(sizeof(T)).data(), sizeof(T));
        return value;
    }
    std::string_view readString() { return take(read<uint32_t>()); }
    size_t left() const { return bytes_.size(); }
    /// Exception(kIncorrectData) unless every byte was read.
    void expectEnd() const
    {
        if (!bytes_.empty())
        {
            fail(std::to_string(bytes_.size()) + " bytes left over");
        }
    }
    [[noreturn]] void fail(const std::string& problem) const
    {
        throw Exception(ErrorCode::kIncorrectData, "corrupted " + function_ + " state: " + problem);
    }

private:
    std::string_view take(size_t count)
    {
        if (count > bytes_.size())
        {
            fail("truncated (" + std::to_string(count) + " bytes wanted, " +
                 std::to_string(bytes_.size()) + " left)");
        }
        const std::string_view taken = bytes_.substr(0, count);
        bytes_.remove_prefix(count);
        return taken;
    }

    std::string_view bytes_;
    std::string function_;
};

}  // namespace granary
