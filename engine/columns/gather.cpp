#include "engine/columns/gather.h"

#include <string>
#include <vector>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

void gatherStrings(const ColumnView& source, size_t begin, std::span<const uint32_t> offsets,
                   Column& to)
{
    const size_t old_rows = to.size();
    const uint64_t old_bytes = to.view().offsets[old_rows];
    uint64_t new_bytes = 0;
    for (const uint32_t offset : offsets)
    {
        new_bytes += source.offsets[begin + offset + 1] - source.offsets[begin + offset];
    }
    to.resizeStringsUninitialized(old_rows + offsets.size(), old_bytes + new_bytes);
    char* chars = to.mutableChars();
    uint64_t* row_ends = to.mutableOffsets();
    uint64_t end = old_bytes;
    for (size_t i = 0; i < offsets.size(); ++i)
    {
        const std::string_view value = source.stringAt(begin + offsets[i]);
        if (!value.empty())
        {
            std::memcpy(chars + end, value.data(), value.size());
        }
        end += value.size();
        row_ends[old_rows + i + 1] = end;
    }
}

void gatherFixed(const ColumnView& source, size_t begin, std::span<const uint32_t> offsets,
                 Column& to)
{
    dispatchFixedType(source.type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          const size_t old_rows = to.size();
                          to.resizeFixed(old_rows + offsets.size());
                          T* out = to.mutableData<T>() + old_rows;
                          const T* values = static_cast<const T*>(source.data) + begin;
                          for (size_t i = 0; i < offsets.size(); ++i)
                          {
                              out[i] = values[offsets[i]];
                          }
                      });
}

/// The rows' elements gathered child by child (an index list per child, recursively), then
/// the rows closed at their new ends: no per-row calls.
void gatherNested(const ColumnView& source, size_t begin, std::span<const uint32_t> offsets,
                  Column& to)
{
    std::vector<uint64_t> ends;
    ends.reserve(offsets.size());
    std::vector<uint32_t> elements;
    for (const uint32_t offset : offsets)
    {
        const uint64_t first = source.offsets[begin + offset];
        const uint64_t last = source.offsets[begin + offset + 1];
        if (last > UINT32_MAX)
        {
            throw Exception(ErrorCode::kTooLargeSize,
                            "gatherRows: a nested column past 2^32 elements");
        }
        for (uint64_t element = first; element < last; ++element)
        {
            elements.push_back(static_cast<uint32_t>(element));
        }
        ends.push_back(elements.size());
    }
    const uint64_t base = to.child(0).size();
    for (size_t child = 0; child < nestedChildCount(source.type); ++child)
    {
        gatherRows(source.children[child], 0, elements, to.child(child));
    }
    to.closeNestedRows(ends, base);
}

}  // namespace

void gatherRows(const ColumnView& source, size_t begin, std::span<const uint32_t> offsets,
                Column& to)
{
    if (to.type() != source.type)
    {
        if (to.size() != 0)
        {
            throw Exception(ErrorCode::kLogicalError,
                            "gatherRows: cannot append " + std::string(typeName(source.type)) +
                                " rows to a non-empty " + std::string(typeName(to.type())) +
                                " column");
        }
        to = Column::emptyLike(source);
    }
    const size_t old_rows = to.size();
    if (isNested(source.type))
    {
        gatherNested(source, begin, offsets, to);
    }
    else if (isString(source.type))
    {
        gatherStrings(source, begin, offsets, to);
    }
    else
    {
        gatherFixed(source, begin, offsets, to);
    }
    if (source.validity != nullptr)
    {
        for (size_t i = 0; i < offsets.size(); ++i)
        {
            if (!source.isValid(begin + offsets[i]))
            {
                to.setNull(old_rows + i);
            }
        }
    }
}

ColumnView replaceWithRows(const ColumnView& source, std::span<const uint32_t> offsets, Column& to)
{
    to.clear();
    gatherRows(source, 0, offsets, to);
    return to.view();
}

void gatherBlockRows(const Block& from, std::span<const uint32_t> rows, Block& to)
{
    if (to.columns.empty())
    {
        for (const Block::Entry& entry : from.columns)
        {
            to.columns.push_back({entry.name, entry.column.emptyLike()});
        }
    }
    for (size_t c = 0; c < from.columns.size(); ++c)
    {
        gatherRows(from.columns[c].column.view(), 0, rows, to.columns[c].column);
    }
}

}  // namespace granary
