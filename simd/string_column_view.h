#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace granary::simd
{

/// Read-only view of a String column, the layout used throughout Granary (Arrow-style): all
/// values back to back in one `chars` buffer with no terminators, and `rows + 1` ascending
/// `offsets`, row i being chars[offsets[i], offsets[i + 1]). A whole column has offsets[0] == 0;
/// a slice of rows (see `slice`) keeps the column's chars and absolute offsets, so only the bytes
/// chars[offsets[0], offsets[rows]) belong to the view and nothing outside them is ever read.
struct StringColumnView
{
    const char* chars = nullptr;
    const uint64_t* offsets = nullptr;
    size_t rows = 0;

    std::string_view row(size_t index) const
    {
        return {chars + offsets[index], static_cast<size_t>(offsets[index + 1] - offsets[index])};
    }

    /// Rows [first, first + count) of this view.
    StringColumnView slice(size_t first, size_t count) const
    {
        return {chars, offsets + first, count};
    }

    /// Bytes of all rows of the view together.
    size_t bytes() const { return rows == 0 ? 0 : offsets[rows] - offsets[0]; }
};

}  // namespace granary::simd
