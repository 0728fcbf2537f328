#pragma once

#include "engine/expressions/expression_node.h"

namespace granary
{

/// length(s), in bytes, as UInt64 (ClickHouse's length and DuckDB's STRLEN).
NodePtr makeLength(NodePtr value);

/// lower(s) / upper(s): ASCII letters only; other bytes (UTF-8 included) are kept.
NodePtr makeCaseConversion(NodePtr value, bool to_upper);

}  // namespace granary
