#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "engine/columns/column_view.h"
#include "engine/columns/data_type.h"
#include "engine/columns/internal/default_init_allocator.h"
#include "engine/columns/types.h"

namespace granary
{

/// An owning column of one type. Fixed-width values live in one byte buffer; strings in a
/// chars buffer plus offsets (starting with 0); Array and Map rows in offsets plus child
/// columns (the elements; the keys and the values); NULLs, once setNull() marks one, in a
/// validity bitmap (Arrow's layout). view() gives the ColumnView the engine reads.
class Column
{
public:
    explicit Column(TypeId type = TypeId::UInt8) : Column(DataType(type)) {}
    /// Throws std::invalid_argument for an Array or Map without its children's types.
    explicit Column(const DataType& type);
    /// An empty column of the type `view` holds.
    static Column emptyLike(const ColumnView& view) { return Column(DataType::of(view)); }
    /// An empty column of this column's type (Nullable if this one is).
    Column emptyLike() const { return Column(dataType()); }

    /// Copies re-point the children's views at the copy's own children.
    Column(const Column& other);
    Column& operator=(const Column& other);
    Column(Column&&) noexcept = default;
    Column& operator=(Column&&) noexcept = default;
    ~Column() = default;

    TypeId type() const { return type_; }
    /// Nullable when the column was made Nullable or holds a NULL; AggregateFunction(...) when
    /// it was made of that type (its values are the states' bytes, a String's).
    DataType dataType() const
    {
        if (state_type_)
        {
            return *state_type_;
        }
        DataType type = DataType::of(view());
        type.nullable = type.nullable || nullable_;
        return type;
    }
    /// Declares the column Nullable (its type says so even while no row is NULL).
    void setNullable() { nullable_ = true; }
    size_t size() const
    {
        return hasOffsets(type_) ? offsets_.size() - 1 : bytes_.size() / width();
    }

    template <typename T>
    void append(T value)
    {
        const size_t old_size = bytes_.size();
        bytes_.resize(old_size + sizeof(T));
        std::memcpy(bytes_.data() + old_size, &value, sizeof(T));
        syncValidity();
    }
    /// Appends one fixed-width value given as its bytes (fixedWidth(type()) of them).
    void appendRaw(const void* value)
    {
        const size_t old_size = bytes_.size();
        const size_t value_width = width();
        bytes_.resize(old_size + value_width);
        std::memcpy(bytes_.data() + old_size, value, value_width);
        syncValidity();
    }
    void appendString(std::string_view value)
    {
        chars_.insert(chars_.end(), value.begin(), value.end());
        offsets_.push_back(chars_.size());
        syncValidity();
    }
    /// Appends `count` default values: zeros, empty strings, empty arrays and maps.
    void appendDefaults(size_t count)
    {
        if (hasOffsets(type_))
        {
            offsets_.resize(offsets_.size() + count, offsets_.back());
        }
        else
        {
            resizeZeroed(bytes_, bytes_.size() + count * width());
        }
        syncValidity();
    }

    /// An Array's elements (i = 0), a Map's keys (0) and values (1). Whoever appends to a
    /// child closes the row with closeNestedRow(), which also re-points view()'s children.
    Column& child(size_t i) { return children_.at(i); }
    const Column& child(size_t i) const { return children_.at(i); }
    /// Ends an Array or Map row after the children's rows appended since the previous one.
    /// Throws std::invalid_argument when a Map's keys and values differ in count.
    void closeNestedRow();
    /// Ends one row per entry of `ends`, row i at child row base + ends[i] (non-decreasing,
    /// the last at the children's size), for readers that append all elements first.
    void closeNestedRows(std::span<const uint64_t> ends, uint64_t base);
    /// Appends rows [begin, begin + count) of `source` (same type).
    void appendRange(const ColumnView& source, size_t begin, size_t count);
    /// Marks row `row` (< size()) NULL; its value stays as written.
    void setNull(size_t row);
    /// Appends a NULL row (a default value marked NULL).
    void appendNull()
    {
        appendDefaults(1);
        setNull(size() - 1);
    }
    /// Appends `rows` values an input left out or gave as null: NULL where the column is
    /// declared Nullable, its type's default otherwise (ClickHouse's defaults for inserts).
    void appendMissing(size_t rows);
    /// Marks NULL each row whose flag in `flags` (a UInt8 column of as many rows: isNull of
    /// the values, as a grouping keeps it beside a key) is non-zero.
    void setNullWhere(const Column& flags);
    /// Gives NULL rows their type's default value (0, ''); scalar columns only.
    void defaultNullValues();
    /// Marks every row valid (a reused buffer forgets its NULLs).
    void clearNulls() { validity_.clear(); }
    /// Whether some row is NULL (setNull was called since the last clear()).
    bool hasNulls() const { return !validity_.empty(); }
    bool isNull(size_t row) const { return !view().isValid(row); }
    /// The validity bitmap (bit set = valid), ceil(size() / 8) bytes or more; empty when no
    /// row is NULL.
    const uint8_t* validity() const { return validity_.empty() ? nullptr : validity_.data(); }

    void reserve(size_t rows, size_t string_bytes = 0);
    /// Removes every row, keeping the buffers' capacity for reuse.
    void clear();
    /// Sets the row count of a fixed-width column, zero-filling new rows; for bulk writes
    /// through mutableData().
    void resizeFixed(size_t rows)
    {
        resizeZeroed(bytes_, rows * width());
        syncValidity();
    }
    /// Sets the row count of a fixed-width column leaving new rows unwritten, for writers that
    /// fill every row (zeroing them first would touch the memory twice).
    void resizeFixedUninitialized(size_t rows)
    {
        bytes_.resize(rows * width());
        syncValidity();
    }

    /// Sets a String column to `rows` rows over `chars_bytes` bytes, for bulk writes through
    /// mutableChars() and mutableOffsets() (rows + 1 offsets, the first one 0).
    void resizeStrings(size_t rows, size_t chars_bytes)
    {
        resizeZeroed(chars_, chars_bytes);
        resizeZeroed(offsets_, rows + 1);
        syncValidity();
    }
    /// The same leaving the new chars and offsets unwritten, for writers that fill them all.
    void resizeStringsUninitialized(size_t rows, size_t chars_bytes)
    {
        chars_.resize(chars_bytes);
        offsets_.resize(rows + 1);
        syncValidity();
    }
    char* mutableChars() { return chars_.data(); }
    uint64_t* mutableOffsets() { return offsets_.data(); }

    template <typename T>
    T* mutableData()
    {
        return reinterpret_cast<T*>(bytes_.data());
    }
    template <typename T>
    T valueAt(size_t row) const
    {
        T value;
        std::memcpy(&value, bytes_.data() + row * sizeof(T), sizeof(T));
        return value;
    }
    std::string_view stringAt(size_t row) const { return view().stringAt(row); }

    ColumnView view() const
    {
        ColumnView view = hasOffsets(type_)
                              ? ColumnView{type_, size(), nullptr, chars_.data(), offsets_.data()}
                              : ColumnView{type_, size(), bytes_.data(), nullptr, nullptr};
        view.validity = validity();
        view.children = child_views_.empty() ? nullptr : child_views_.data();
        view.precision = precision_;
        return view;
    }

    /// Bytes held by the column's buffers, its children's included.
    size_t allocatedBytes() const;

private:
    /// Growth by resize() leaves new elements uninitialised (see DefaultInitAllocator).
    template <typename T>
    using Buffer = std::vector<T, internal::DefaultInitAllocator<T>>;

    size_t width() const { return fixedWidth(type_); }
    void appendValues(const ColumnView& source, size_t begin, size_t count);
    void appendNestedValues(const ColumnView& source, size_t begin, size_t count);
    void refreshChildViews();

    template <typename T>
    static void resizeZeroed(Buffer<T>& buffer, size_t size)
    {
        const size_t old_size = buffer.size();
        buffer.resize(size);
        if (size > old_size)
        {
            std::memset(buffer.data() + old_size, 0, (size - old_size) * sizeof(T));
        }
    }

    /// Keeps the bitmap, where there is one, covering every row: rows past those marked are
    /// valid (bytes are added all ones).
    void syncValidity()
    {
        if (!validity_.empty()) [[unlikely]]
        {
            growValidity();
        }
    }
    void growValidity();

    TypeId type_;
    uint8_t precision_ = 0;  ///< DateTime64's.
    bool nullable_ = false;  ///< Declared Nullable (see dataType()).
    /// AggregateFunction(...): the states' function, parameters and argument types, which a
    /// view (a String's) does not hold; shared between copies, as types do not change.
    std::shared_ptr<const DataType> state_type_;
    Buffer<uint8_t> validity_;
    Buffer<char> bytes_;
    Buffer<char> chars_;
    Buffer<uint64_t> offsets_;
    std::vector<Column> children_;
    /// children_[i].view(), refreshed by every method that changes the row count, so that
    /// view() hands out stable pointers without writing anything (readers share columns).
    std::vector<ColumnView> child_views_;
};

/// Bytes that `view`'s rows take in Column's layout: values, chars and offsets, and the
/// children's rows that nested rows span.
size_t valueBytes(const ColumnView& view);

}  // namespace granary
