#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/common/civil_date.h"

namespace granary
{

constexpr uint32_t kSecondsPerDay = 86400;

/// 'YYYY-MM-DD' as a Date (days since the epoch, 1970-01-01..2149-06-06; '0000-00-00', the
/// zero date, is 1970-01-01 as the loaders read it); nullopt when malformed, not a real day, or
/// out of range.
std::optional<uint16_t> parseDateLiteral(std::string_view text);

/// 'YYYY-MM-DD hh:mm:ss' or 'YYYY-MM-DD' (midnight) as a DateTime (seconds since the epoch,
/// UTC, up to 2106-02-07 06:28:15); nullopt when malformed or out of range.
std::optional<uint32_t> parseDateTimeLiteral(std::string_view text);

}  // namespace granary
