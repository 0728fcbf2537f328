#pragma once

// Errors about Arrow input and output: every message says which column (or the batch) it is
// about and what is wrong.

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/common/exception.h"

namespace granary::arrow
{

/// How messages name the batch as a whole (the struct array or schema).
inline constexpr std::string_view kBatchSubject = "Arrow batch";

/// "Arrow column 2 'price'": how messages name a column.
std::string describeColumn(size_t index, std::string_view name);

/// Throws Exception(code, "<subject>: <problem>").
[[noreturn]] void throwArrowError(ErrorCode code, std::string_view subject,
                                  const std::string& problem);

}  // namespace granary::arrow
