#pragma once

// Columns as text, so that tests compare values of any type (and NULLs) in one way.

#include <string>
#include <vector>

#include "granary/column_view.h"

namespace granary::arrow::testing
{

inline constexpr const char* kNullText = "NULL";

/// Each row of `column`: its value as text (floats with every digit), or kNullText.
std::vector<std::string> renderRows(const ColumnView& column);

/// A value as renderRows writes it.
template <typename T>
std::string renderValue(T value);

}  // namespace granary::arrow::testing
