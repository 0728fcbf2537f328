#pragma once

#include <string_view>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// `value [NOT] LIKE pattern` or `[NOT] ILIKE` (ASCII case folding) over a String value, as
/// UInt8, through simd/'s compiled LIKE patterns: '%needle%' searches the whole chars buffer of
/// the range at once.
NodePtr makeLike(NodePtr value, std::string_view pattern, bool case_insensitive, bool negated);

}  // namespace granary
