#pragma once

// Dictionary-encoded Arrow columns, decoded into values the batch owns.

#include <string_view>

#include "engine/arrow/arrow_column_import.h"

namespace granary::arrow
{

/// The decoded values of a dictionary-encoded column whose indices are `indices`: each row
/// gets its dictionary value, NULL where the index or the value is NULL. Checks the indices of
/// valid rows against the dictionary's length.
ColumnView importDictionaryColumn(const ArraySlice& indices, const ArrowField& field,
                                  std::string_view subject, ImportedBatch& batch);

}  // namespace granary::arrow
