#include "engine/storage/part_builder.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/storage/sort_permutation.h"
#include "engine/storage/value_order.h"

namespace granary
{
namespace
{

/// Column `column` of the rows `order` picks from the pieces.
Column gather(const std::vector<std::vector<ColumnView>>& pieces, size_t column,
              const std::vector<SourceRow>& order)
{
    const TypeId type = pieces.front()[column].type;
    Column result(type);
    const size_t rows = order.size();
    if (isString(type))
    {
        uint64_t bytes = 0;
        for (const std::vector<ColumnView>& piece : pieces)
        {
            const ColumnView& view = piece[column];
            bytes += view.offsets[view.rows] - view.offsets[0];
        }
        result.resizeStrings(rows, bytes);
        char* chars = result.mutableChars();
        uint64_t* offsets = result.mutableOffsets();
        offsets[0] = 0;
        for (size_t row = 0; row < rows; ++row)
        {
            const std::string_view value =
                pieces[order[row].piece][column].stringAt(order[row].row);
            std::memcpy(chars + offsets[row], value.data(), value.size());
            offsets[row + 1] = offsets[row] + value.size();
        }
        return result;
    }
    result.resizeFixed(rows);
    dispatchFixedType(type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          std::vector<const T*> sources;
                          for (const std::vector<ColumnView>& piece : pieces)
                          {
                              sources.push_back(static_cast<const T*>(piece[column].data));
                          }
                          T* to = result.mutableData<T>();
                          for (size_t row = 0; row < rows; ++row)
                          {
                              to[row] = sources[order[row].piece][order[row].row];
                          }
                      });
    return result;
}

/// Column `column` of the pieces one after the other.
Column concatenate(const std::vector<std::vector<ColumnView>>& pieces, size_t column)
{
    Column result(pieces.front()[column].type);
    for (const std::vector<ColumnView>& piece : pieces)
    {
        result.appendRange(piece[column], 0, piece[column].rows);
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

PartData buildPartData(const std::vector<std::vector<ColumnView>>& pieces,
                       const TableSchema& schema, bool parallel)
{
    const std::vector<size_t> key_indexes = schema.sortKeyColumns();
    std::vector<std::vector<ColumnView>> key_pieces;
    PartData data;
    for (const std::vector<ColumnView>& piece : pieces)
    {
        key_pieces.emplace_back();
        for (size_t index : key_indexes)
        {
            key_pieces.back().push_back(piece[index]);
        }
        data.rows += piece.front().rows;
    }
    const size_t columns = schema.columns.size();
    data.columns.resize(columns);
    const std::vector<SourceRow> order = sortRows(key_pieces, parallel);
    auto fill_column = [&](size_t index)
    {
        data.columns[index] =
            order.empty() ? concatenate(pieces, index) : gather(pieces, index, order);
    };
    if (parallel)
    {
        tbb::parallel_for(size_t{0}, columns, fill_column);
    }
    else
    {
        for (size_t index = 0; index < columns; ++index)
        {
            fill_column(index);
        }
    }
    for (size_t index : key_indexes)
    {
        data.granule_min.emplace_back(schema.columns[index].type);
        data.granule_max.emplace_back(schema.columns[index].type);
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
