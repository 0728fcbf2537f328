#include "server/settings_catalog.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <utility>

#include "engine/common/exception.h"

namespace granary::server
{
namespace
{

constexpr std::array kCatalog = {
    std::pair{kBatchEndOfQuerySetting, SettingWireKind::kUnsigned},
    std::pair{kMaxThreadsSetting, SettingWireKind::kUnsigned},
    std::pair{kInteractiveDelaySetting, SettingWireKind::kUnsigned},
    std::pair{kSendLogsLevelSetting, SettingWireKind::kText},
    std::pair{std::string_view("max_block_size"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("max_memory_usage"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("max_execution_time"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("max_result_rows"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("readonly"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("extremes"), SettingWireKind::kUnsigned},
    std::pair{std::string_view("use_uncompressed_cache"), SettingWireKind::kUnsigned},
};

}  // namespace

std::optional<SettingWireKind> settingWireKind(std::string_view name)
{
    for (const auto& [known, kind] : kCatalog)
    {
        if (known == name)
        {
            return kind;
        }
    }
    return std::nullopt;
}

std::string readBinarySettingValue(ReadBuffer& in, SettingWireKind kind, size_t max_bytes)
{
    if (kind == SettingWireKind::kUnsigned)
    {
        return std::to_string(readVarUInt(in, "setting value"));
    }
    return readString(in, max_bytes, "setting value");
}

bool parseBoolSetting(std::string_view name, std::string_view value)
{
    if (value == "1" || value == "true")
    {
        return true;
    }
    if (value == "0" || value == "false")
    {
        return false;
    }
    throw Exception(ErrorCode::kBadArguments,
                    fmt::format("Setting {} must be 0 or 1, not '{}'", name, value));
}

uint64_t parseUnsignedSetting(std::string_view name, std::string_view value)
{
    uint64_t result = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (error != std::errc() || end != value.data() + value.size() || value.empty())
    {
        throw Exception(
            ErrorCode::kBadArguments,
            fmt::format("Setting {} must be an unsigned integer, not '{}'", name, value));
    }
    return result;
}

}  // namespace granary::server
