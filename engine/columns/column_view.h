#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/columns/types.h"

namespace granary
{

/// A non-owning view of one column: fixed-width values in one array, or a String column as
/// one chars buffer plus rows + 1 offsets (row i is chars[offsets[i], offsets[i + 1]), Arrow's
/// layout). Views point into memory owned by a Column or by the caller, so a query engine can
/// hand its own buffers to the aggregator without copying.
struct ColumnView
{
    TypeId type = TypeId::UInt8;
    size_t rows = 0;
    const void* data = nullptr;         ///< Fixed-width values.
    const char* chars = nullptr;        ///< String bytes.
    const uint64_t* offsets = nullptr;  ///< String row boundaries, rows + 1 entries.

    template <typename T>
    static ColumnView of(TypeId type, const T* values, size_t rows)
    {
        return ColumnView{type, rows, values, nullptr, nullptr};
    }
    static ColumnView ofStrings(const char* chars, const uint64_t* offsets, size_t rows)
    {
        return ColumnView{TypeId::String, rows, nullptr, chars, offsets};
    }

    template <typename T>
    std::span<const T> values() const
    {
        return {static_cast<const T*>(data), rows};
    }
    template <typename T>
    T valueAt(size_t row) const
    {
        return static_cast<const T*>(data)[row];
    }
    std::string_view stringAt(size_t row) const
    {
        return {chars + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row])};
    }

    /// Rows [begin, begin + count) of this view. String offsets stay absolute, so the chars
    /// pointer is shared.
    ColumnView slice(size_t begin, size_t count) const
    {
        ColumnView part = *this;
        part.rows = count;
        // A view without data (a column the reader does not need) stays without.
        if (isString(type))
        {
            part.offsets = offsets != nullptr ? offsets + begin : nullptr;
        }
        else
        {
            part.data = data != nullptr ? static_cast<const char*>(data) + begin * fixedWidth(type)
                                        : nullptr;
        }
        return part;
    }
};

}  // namespace granary
