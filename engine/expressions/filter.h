#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/columns/block.h"
#include "engine/expressions/compiled_expression.h"

namespace granary
{

/// Appends to `selected` the offsets (relative to begin) of rows in [begin, begin + count)
/// where the condition (an integer type, non-zero = true) holds, in ascending order. AND chains
/// run operand by operand on the surviving rows only; `column <op> constant`, IN and LIKE test
/// the column in place (LIKE '%x%' through simd/'s whole-buffer search). Throws Exception
/// kTypeMismatch for a condition of another type, kBadArguments when count exceeds 2^32 - 1.
void filterRows(const CompiledExpression& condition, const BlockView& input, size_t begin,
                size_t count, std::vector<uint32_t>& selected);

}  // namespace granary
