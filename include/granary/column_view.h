#pragma once

// A non-owning view of one column of a host's memory: what Granary reads without copying.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "granary/types.h"

namespace granary
{

/// Fixed-width values in one array, or a String column as one chars buffer plus rows + 1
/// offsets (row i is chars[offsets[i], offsets[i + 1]), Arrow's large_utf8 layout), with an
/// optional validity bitmap in Arrow's layout (bit set = valid, least significant bit first).
/// An Array, Map or JSON row i is the rows [offsets[i], offsets[i + 1]) of its children
/// (Array: one, the elements; Map: two of equal length, keys and values; JSON: paths and
/// values), Arrow's large_list layout.
/// Views point into memory owned by a Column or by the caller, so a query engine can hand its
/// own buffers to the aggregator without copying.
struct ColumnView
{
    TypeId type = TypeId::UInt8;
    size_t rows = 0;
    const void* data = nullptr;         ///< Fixed-width values.
    const char* chars = nullptr;        ///< String bytes.
    const uint64_t* offsets = nullptr;  ///< String and nested row boundaries, rows + 1 entries.
    /// Validity bitmap, or null when every row is valid. Row i is bit validity_offset + i.
    const uint8_t* validity = nullptr;
    size_t validity_offset = 0;
    /// Array: the element view; Map: the key and value views; JSON: the path and value views.
    /// Offsets index their rows.
    const ColumnView* children = nullptr;
    uint8_t precision = 0;  ///< DateTime64: digits after the second, 0-9.

    template <typename T>
    static ColumnView of(TypeId type, const T* values, size_t rows)
    {
        return ColumnView{type, rows, values, nullptr, nullptr};
    }
    static ColumnView ofStrings(const char* chars, const uint64_t* offsets, size_t rows)
    {
        return ColumnView{TypeId::String, rows, nullptr, chars, offsets};
    }
    /// The same view with NULLs where `bitmap`'s bits (from bit `bit_offset`) are clear.
    ColumnView withValidity(const uint8_t* bitmap, size_t bit_offset = 0) const
    {
        ColumnView view = *this;
        view.validity = bitmap;
        view.validity_offset = bit_offset;
        return view;
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
    /// Whether the view may hold NULLs (it has a bitmap); isValid tells for one row.
    bool hasValidity() const { return validity != nullptr; }
    bool isValid(size_t row) const
    {
        const size_t bit = validity_offset + row;
        return validity == nullptr || ((validity[bit >> 3] >> (bit & 7)) & 1) != 0;
    }

    /// Rows [begin, begin + count) of this view. String and nested offsets stay absolute, so
    /// the chars pointer and the children are shared.
    ColumnView slice(size_t begin, size_t count) const
    {
        ColumnView part = *this;
        part.rows = count;
        part.validity_offset = validity_offset + begin;
        // A view without data (a column the reader does not need) stays without.
        if (hasOffsets(type))
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
