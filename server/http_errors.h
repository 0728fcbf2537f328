#pragma once

#include <string>
#include <string_view>

#include "engine/common/exception.h"

namespace granary::server
{

/// The version the HTTP interface reports in error bodies and headers.
inline constexpr std::string_view kHttpServerVersion = "24.8.1.1";

/// ClickHouse's HTTP status for an error code: 400 for everything a request body or query
/// text got wrong (so that retrying clients drop the request instead of sending it again),
/// 401/403 for authentication, 404 for unknown tables, columns, formats and settings, 413 for
/// bodies past the cap, 415 for unknown Content-Encodings, 501 for unimplemented features,
/// 503 for overload, 500 otherwise.
int httpStatusForError(ErrorCode code);

/// `Code: N. DB::Exception: message (NAME) (version V (official build))\n`: what both the
/// JS client's and Rotel's error parsers look for.
std::string httpErrorBody(ErrorCode code, std::string_view message);

}  // namespace granary::server
