#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "simd/string_column_view.h"

namespace granary::datagen
{

/// Bytes appended in place. Generated text is mostly words and numbers of a few bytes, and a
/// library memcpy call per append cost more than the bytes: appendShort copies such pieces as
/// one fixed-size block, which the compiler inlines, into the slack the buffer keeps past its
/// end.
class TextBuffer
{
public:
    static constexpr size_t kShortCopy = 32;

    void reserve(size_t bytes)
    {
        if (bytes + kShortCopy > capacity_)
        {
            grow(bytes);
        }
    }
    void clear() { size_ = 0; }
    size_t size() const { return size_; }
    const char* data() const { return bytes_.get(); }

    TextBuffer& operator+=(std::string_view text)
    {
        reserve(size_ + text.size());
        std::memcpy(bytes_.get() + size_, text.data(), text.size());
        size_ += text.size();
        return *this;
    }
    TextBuffer& operator+=(char byte)
    {
        reserve(size_ + 1);
        bytes_[size_++] = byte;
        return *this;
    }
    /// Appends `size` bytes for the caller to write at the pointer returned.
    char* appendUninitialized(size_t size)
    {
        reserve(size_ + size);
        size_ += size;
        return bytes_.get() + size_ - size;
    }
    /// Appends `text`, whose first kShortCopy bytes must be readable when it is shorter.
    void appendShort(std::string_view text)
    {
        reserve(size_ + text.size());
        if (text.size() <= kShortCopy)
        {
            std::memcpy(bytes_.get() + size_, text.data(), kShortCopy);
        }
        else
        {
            std::memcpy(bytes_.get() + size_, text.data(), text.size());
        }
        size_ += text.size();
    }

private:
    void grow(size_t bytes);

    std::unique_ptr<char[]> bytes_;
    size_t size_ = 0;
    size_t capacity_ = 0;
};

/// A String column that owns its bytes, in the layout of simd::StringColumnView.
class StringColumn
{
public:
    void reserve(size_t rows, size_t bytes);
    void append(std::string_view value);
    /// Removes every row, keeping the buffers' capacity for reuse.
    void clear()
    {
        chars_.clear();
        offsets_.resize(1);
    }

    /// The chars buffer, for appending one value in place: follow with finishRow(). It keeps
    /// TextBuffer::kShortCopy readable bytes past its end, so any row can be appendShort's
    /// source.
    TextBuffer& chars() { return chars_; }
    /// Ends the current row at the current end of chars().
    void finishRow() { offsets_.push_back(chars_.size()); }

    size_t rows() const { return offsets_.size() - 1; }
    size_t bytes() const { return chars_.size(); }
    std::string_view row(size_t index) const { return view().row(index); }
    simd::StringColumnView view() const { return {chars_.data(), offsets_.data(), rows()}; }

private:
    TextBuffer chars_;
    std::vector<uint64_t> offsets_{0};
};

}  // namespace granary::datagen
