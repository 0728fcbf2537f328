#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "simd/string_column_view.h"

namespace granary::datagen
{

/// A String column that owns its bytes, in the layout of simd::StringColumnView.
class StringColumn
{
public:
    void reserve(size_t rows, size_t bytes);
    /// Removes every row, keeping the buffers' capacity for reuse.
    void clear()
    {
        chars_.clear();
        offsets_.resize(1);
    }
    void append(std::string_view value);

    /// The chars buffer, for appending one value in place: follow with finishRow().
    std::string& chars() { return chars_; }
    /// Ends the current row at the current end of chars().
    void finishRow() { offsets_.push_back(chars_.size()); }

    size_t rows() const { return offsets_.size() - 1; }
    size_t bytes() const { return chars_.size(); }
    std::string_view row(size_t index) const { return view().row(index); }
    simd::StringColumnView view() const { return {chars_.data(), offsets_.data(), rows()}; }

private:
    std::string chars_;
    std::vector<uint64_t> offsets_{0};
};

}  // namespace granary::datagen
