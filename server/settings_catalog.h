#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/wire.h"

namespace granary::server
{

/// How a setting's value is encoded by clients older than revision 54429, which send values in
/// their binary form: a name the catalog does not know cannot be skipped, so it is an error.
enum class SettingWireKind
{
    kUnsigned,  ///< VarUInt (UInt64, Bool, Seconds, Milliseconds, MaxThreads).
    kText,      ///< String (String, Float, enumerations).
};

std::optional<SettingWireKind> settingWireKind(std::string_view name);

/// Reads one binary-form value and returns it as text ("42", "fatal").
std::string readBinarySettingValue(ReadBuffer& in, SettingWireKind kind, size_t max_bytes);

/// Settings the server itself acts on; the others go to the QueryHandler.
inline constexpr std::string_view kBatchEndOfQuerySetting = "granary_batch_end_of_query";
inline constexpr std::string_view kMaxThreadsSetting = "max_threads";
inline constexpr std::string_view kInteractiveDelaySetting = "interactive_delay";
inline constexpr std::string_view kSendLogsLevelSetting = "send_logs_level";

/// "1", "true" → true; "0", "false" → false; anything else is Exception(kBadArguments).
bool parseBoolSetting(std::string_view name, std::string_view value);
uint64_t parseUnsignedSetting(std::string_view name, std::string_view value);

}  // namespace granary::server
