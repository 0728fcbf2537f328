#include "engine/columns/column.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace granary
{

Column::Column(const DataType& type)
    : type_(type.id),
      precision_(type.precision),
      nullable_(type.nullable),
      state_type_(type.isAggregateState() ? std::make_shared<const DataType>(type) : nullptr)
{
    const size_t expected_children = nestedChildCount(type_);
    if (type.children.size() != expected_children)
    {
        throw std::invalid_argument("Column: " + std::string(typeName(type_)) + " needs " +
                                    std::to_string(expected_children) + " child types");
    }
    if (hasOffsets(type_))
    {
        offsets_.push_back(0);
    }
    for (const DataType& child_type : type.children)
    {
        children_.emplace_back(child_type);
    }
    refreshChildViews();
}

Column::Column(const Column& other)
    : type_(other.type_),
      precision_(other.precision_),
      nullable_(other.nullable_),
      state_type_(other.state_type_),
      validity_(other.validity_),
      bytes_(other.bytes_),
      chars_(other.chars_),
      offsets_(other.offsets_),
      children_(other.children_)
{
    refreshChildViews();
}

Column& Column::operator=(const Column& other)
{
    if (this != &other)
    {
        Column copy(other);
        *this = std::move(copy);
    }
    return *this;
}

void Column::refreshChildViews()
{
    child_views_.resize(children_.size());
    for (size_t i = 0; i < children_.size(); ++i)
    {
        child_views_[i] = children_[i].view();
    }
}

void Column::closeNestedRow()
{
    const size_t elements = children_.at(0).size();
    if (nestedChildCount(type_) == 2 && children_.at(1).size() != elements)
    {
        throw std::invalid_argument("Column: a Map or JSON row with " + std::to_string(elements) +
                                    " keys and " + std::to_string(children_[1].size()) + " values");
    }
    offsets_.push_back(elements);
    refreshChildViews();
    syncValidity();
}

void Column::closeNestedRows(std::span<const uint64_t> ends, uint64_t base)
{
    const uint64_t elements = children_.at(0).size();
    uint64_t previous = offsets_.back();
    for (const uint64_t end : ends)
    {
        if (base + end < previous || base + end > elements)
        {
            throw std::invalid_argument(
                "Column: nested row ends out of order or past the elements");
        }
        previous = base + end;
    }
    if (previous != elements ||
        (nestedChildCount(type_) == 2 && children_.at(1).size() != elements))
    {
        throw std::invalid_argument("Column: nested rows do not end at the children's size");
    }
    for (const uint64_t end : ends)
    {
        offsets_.push_back(base + end);
    }
    refreshChildViews();
    syncValidity();
}

void Column::clear()
{
    bytes_.clear();
    chars_.clear();
    offsets_.resize(hasOffsets(type_) ? 1 : 0);
    validity_.clear();
    for (Column& child : children_)
    {
        child.clear();
    }
    refreshChildViews();
}

size_t Column::allocatedBytes() const
{
    size_t bytes = bytes_.capacity() + chars_.capacity() + offsets_.capacity() * sizeof(uint64_t) +
                   validity_.capacity();
    for (const Column& child : children_)
    {
        bytes += child.allocatedBytes();
    }
    return bytes;
}

void Column::appendRange(const ColumnView& source, size_t begin, size_t count)
{
    const size_t first_row = size();
    appendValues(source, begin, count);
    syncValidity();
    if (source.hasValidity())
    {
        for (size_t i = 0; i < count; ++i)
        {
            if (!source.isValid(begin + i))
            {
                setNull(first_row + i);
            }
        }
    }
}

void Column::setNull(size_t row)
{
    if (validity_.empty())
    {
        growValidity();
    }
    validity_[row >> 3] &= static_cast<uint8_t>(~(1u << (row & 7)));
}

void Column::appendMissing(size_t rows)
{
    const size_t first = size();
    appendDefaults(rows);
    for (size_t row = first; nullable_ && row < first + rows; ++row)
    {
        setNull(row);
    }
}

void Column::setNullWhere(const Column& flags)
{
    for (size_t row = 0; row < flags.size(); ++row)
    {
        if (flags.valueAt<uint8_t>(row) != 0)
        {
            setNull(row);
        }
    }
}

void Column::defaultNullValues()
{
    if (!hasNulls() || isNested(type_))
    {
        return;
    }
    const ColumnView nulls = view();
    if (!isString(type_))
    {
        const size_t value_width = width();
        for (size_t row = 0; row < size(); ++row)
        {
            if (!nulls.isValid(row))
            {
                std::memset(bytes_.data() + row * value_width, 0, value_width);
            }
        }
        return;
    }
    Column copy(dataType());
    copy.reserve(size(), chars_.size());
    for (size_t row = 0; row < size(); ++row)
    {
        copy.appendString(nulls.isValid(row) ? nulls.stringAt(row) : std::string_view());
    }
    copy.validity_ = validity_;
    *this = std::move(copy);
}

void Column::growValidity()
{
    const size_t bytes = (size() + 7) / 8;
    if (validity_.size() < bytes || validity_.empty())
    {
        // At least one byte, so that a bitmap exists once a NULL is marked even at zero rows.
        const size_t old_size = validity_.size();
        validity_.resize(std::max<size_t>(bytes, 1));
        std::memset(validity_.data() + old_size, 0xFF, validity_.size() - old_size);
    }
}

void Column::appendNestedValues(const ColumnView& source, size_t begin, size_t count)
{
    const uint64_t first = source.offsets[begin];
    const uint64_t last = source.offsets[begin + count];
    const uint64_t base = children_.at(0).size();
    const size_t old_rows = offsets_.size();
    offsets_.resize(old_rows + count);
    for (size_t i = 0; i < count; ++i)
    {
        offsets_[old_rows + i] = base + source.offsets[begin + i + 1] - first;
    }
    for (size_t i = 0; i < children_.size(); ++i)
    {
        children_[i].appendRange(source.children[i], first, last - first);
    }
    refreshChildViews();
}

void Column::appendValues(const ColumnView& source, size_t begin, size_t count)
{
    if (isNested(type_))
    {
        appendNestedValues(source, begin, count);
        return;
    }
    if (isString(type_))
    {
        const uint64_t first = source.offsets[begin];
        const uint64_t last = source.offsets[begin + count];
        const uint64_t base = chars_.size();
        chars_.insert(chars_.end(), source.chars + first, source.chars + last);
        // Resized, not reserved: reserve grows to exactly what is asked, so appending row by
        // row would copy the offsets on every call.
        const size_t old_rows = offsets_.size();
        offsets_.resize(old_rows + count);
        for (size_t i = 0; i < count; ++i)
        {
            offsets_[old_rows + i] = base + source.offsets[begin + i + 1] - first;
        }
        return;
    }
    const char* values = static_cast<const char*>(source.data) + begin * width();
    bytes_.insert(bytes_.end(), values, values + count * width());
}

void Column::reserve(size_t rows, size_t string_bytes)
{
    if (hasOffsets(type_))
    {
        offsets_.reserve(rows + 1);
        chars_.reserve(string_bytes);
    }
    else
    {
        bytes_.reserve(rows * width());
    }
}

size_t valueBytes(const ColumnView& view)
{
    if (!hasOffsets(view.type))
    {
        return view.rows * fixedWidth(view.type);
    }
    const uint64_t first = view.offsets[0];
    const uint64_t last = view.offsets[view.rows];
    size_t bytes = (view.rows + 1) * sizeof(uint64_t);
    if (isString(view.type))
    {
        return bytes + (last - first);
    }
    for (size_t i = 0; i < nestedChildCount(view.type); ++i)
    {
        bytes += valueBytes(view.children[i].slice(first, last - first));
    }
    return bytes;
}

}  // namespace granary
