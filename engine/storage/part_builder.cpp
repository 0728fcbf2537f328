#include "engine/storage/part_builder.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>

#include "engine/storage/value_order.h"

namespace granary
{
namespace
{

/// Sorting in parallel pays off only above this many rows.
constexpr size_t kParallelSortRows = 1 << 16;

/// Three-way comparison of two rows on one key column.
using KeyCompare = std::function<int(uint32_t, uint32_t)>;

KeyCompare makeKeyCompare(const ColumnView& column)
{
    return dispatchType(column.type,
                        [&]<typename T>(TypeTag<T>) -> KeyCompare
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                return [column](uint32_t left, uint32_t right)
                                { return column.stringAt(left).compare(column.stringAt(right)); };
                            }
                            else
                            {
                                const T* values = static_cast<const T*>(column.data);
                                return [values](uint32_t left, uint32_t right)
                                {
                                    if (valueLess(values[left], values[right]))
                                    {
                                        return -1;
                                    }
                                    return valueLess(values[right], values[left]) ? 1 : 0;
                                };
                            }
                        });
}

int compareRows(const std::vector<KeyCompare>& keys, uint32_t left, uint32_t right)
{
    for (const KeyCompare& key : keys)
    {
        if (const int order = key(left, right); order != 0)
        {
            return order;
        }
    }
    return 0;
}

/// Row order of the slice (indexes relative to its start); empty when it is already sorted.
std::vector<uint32_t> sortPermutation(const std::vector<ColumnView>& key_columns, size_t rows,
                                      bool parallel)
{
    std::vector<KeyCompare> keys;
    for (const ColumnView& column : key_columns)
    {
        keys.push_back(makeKeyCompare(column));
    }
    bool sorted = true;
    for (size_t row = 1; row < rows && sorted; ++row)
    {
        sorted = compareRows(keys, row - 1, row) <= 0;
    }
    if (sorted)
    {
        return {};
    }
    std::vector<uint32_t> permutation(rows);
    std::iota(permutation.begin(), permutation.end(), 0);
    // The row index breaks ties, so the unstable parallel sort gives the stable order.
    auto less = [&keys](uint32_t left, uint32_t right)
    {
        const int order = compareRows(keys, left, right);
        return order != 0 ? order < 0 : left < right;
    };
    if (parallel && rows >= kParallelSortRows)
    {
        tbb::parallel_sort(permutation.begin(), permutation.end(), less);
    }
    else
    {
        std::sort(permutation.begin(), permutation.end(), less);
    }
    return permutation;
}

Column gather(const ColumnView& source, const std::vector<uint32_t>& permutation)
{
    Column result(source.type);
    const size_t rows = permutation.size();
    if (isString(source.type))
    {
        const uint64_t bytes = source.offsets[rows] - source.offsets[0];
        result.resizeStrings(rows, bytes);
        char* chars = result.mutableChars();
        uint64_t* offsets = result.mutableOffsets();
        offsets[0] = 0;
        for (size_t row = 0; row < rows; ++row)
        {
            const std::string_view value = source.stringAt(permutation[row]);
            std::copy(value.begin(), value.end(), chars + offsets[row]);
            offsets[row + 1] = offsets[row] + value.size();
        }
        return result;
    }
    result.resizeFixed(rows);
    const size_t width = fixedWidth(source.type);
    const char* from = static_cast<const char*>(source.data);
    char* to = result.mutableData<char>();
    for (size_t row = 0; row < rows; ++row)
    {
        std::memcpy(to + row * width, from + permutation[row] * width, width);
    }
    return result;
}

template <typename T>
void appendBounds(const ColumnView& values, size_t begin, size_t end, Column& minimums,
                  Column& maximums)
{
    auto value = [&](size_t row)
    {
        if constexpr (std::is_same_v<T, std::string_view>)
        {
            return values.stringAt(row);
        }
        else
        {
            return values.valueAt<T>(row);
        }
    };
    T least = value(begin);
    T greatest = least;
    for (size_t row = begin + 1; row < end; ++row)
    {
        const T current = value(row);
        if (valueLess(current, least))
        {
            least = current;
        }
        if (valueLess(greatest, current))
        {
            greatest = current;
        }
    }
    if constexpr (std::is_same_v<T, std::string_view>)
    {
        minimums.appendString(least);
        maximums.appendString(greatest);
    }
    else
    {
        minimums.append(least);
        maximums.append(greatest);
    }
}

}  // namespace

void computeGranuleBounds(const ColumnView& values, Column& minimums, Column& maximums)
{
    dispatchType(values.type,
                 [&]<typename T>(TypeTag<T>)
                 {
                     for (size_t begin = 0; begin < values.rows; begin += Part::kGranuleRows)
                     {
                         const size_t end = std::min(values.rows, begin + Part::kGranuleRows);
                         appendBounds<T>(values, begin, end, minimums, maximums);
                     }
                 });
}

PartData buildPartData(const Block& block, size_t begin, size_t count, const TableSchema& schema,
                       bool parallel)
{
    std::vector<ColumnView> slices;
    for (const Block::Entry& entry : block.columns)
    {
        slices.push_back(entry.column.view().slice(begin, count));
    }
    std::vector<ColumnView> key_columns;
    const std::vector<size_t> key_indexes = schema.sortKeyColumns();
    for (size_t index : key_indexes)
    {
        key_columns.push_back(slices[index]);
    }

    PartData data;
    data.rows = count;
    data.columns.resize(slices.size());
    const std::vector<uint32_t> permutation = sortPermutation(key_columns, count, parallel);
    auto fill_column = [&](size_t index)
    {
        if (permutation.empty())
        {
            data.columns[index] = Column(slices[index].type);
            data.columns[index].appendRange(slices[index], 0, count);
        }
        else
        {
            data.columns[index] = gather(slices[index], permutation);
        }
    };
    if (parallel)
    {
        tbb::parallel_for(size_t{0}, slices.size(), fill_column);
    }
    else
    {
        for (size_t index = 0; index < slices.size(); ++index)
        {
            fill_column(index);
        }
    }
    for (size_t index : key_indexes)
    {
        data.granule_min.emplace_back(slices[index].type);
        data.granule_max.emplace_back(slices[index].type);
        computeGranuleBounds(data.columns[index].view(), data.granule_min.back(),
                             data.granule_max.back());
    }
    return data;
}

std::shared_ptr<const Part> makeInMemoryPart(PartData data)
{
    PartContents contents;
    contents.rows = data.rows;
    for (const Column& column : data.columns)
    {
        const ColumnView view = column.view();
        contents.columns.push_back(view);
        contents.column_bytes.push_back(isString(view.type) ? view.offsets[view.rows] +
                                                                  (view.rows + 1) * sizeof(uint64_t)
                                                            : view.rows * fixedWidth(view.type));
    }
    contents.owned_columns = std::move(data.columns);
    contents.granule_min = std::move(data.granule_min);
    contents.granule_max = std::move(data.granule_max);
    return std::make_shared<const Part>(std::move(contents));
}

}  // namespace granary
