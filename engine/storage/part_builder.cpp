#include "engine/storage/part_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/columns/gather.h"
#include "engine/exec/executor.h"
#include "engine/storage/value_order.h"

namespace granary
{
namespace
{

/// Rows gathered in sorted order are random accesses: their sources are prefetched this many
/// rows ahead.
constexpr size_t kPrefetchRows = 16;
/// String values up to this long are copied as one fixed-size block.
constexpr size_t kShortCopy = 16;

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

SortedRows::SortedRows(const std::vector<std::vector<ColumnView>>& pieces,
                       const TableSchema& schema, bool parallel)
    : pieces_(pieces)
{
    const std::vector<size_t> key_indexes = schema.sortKeyColumns();
    std::vector<std::vector<ColumnView>> key_pieces;
    for (const std::vector<ColumnView>& piece : pieces)
    {
        key_pieces.emplace_back();
        for (size_t index : key_indexes)
        {
            key_pieces.back().push_back(piece[index]);
        }
        piece_starts_.push_back(rows_);
        rows_ += piece.front().rows;
    }
    piece_starts_.push_back(rows_);
    order_ = sortRows(key_pieces, parallel);
    if (!order_.empty())
    {
        const size_t columns = pieces.front().size();
        concatenated_once_ = std::vector<std::once_flag>(columns);
        concatenated_.resize(columns);
    }
}

template <typename Visit>
void SortedRows::forEachRun(size_t begin, size_t end, Visit visit) const
{
    size_t piece =
        std::upper_bound(piece_starts_.begin(), piece_starts_.end(), begin) - piece_starts_.begin();
    for (size_t row = begin, at = 0; row < end; ++piece)
    {
        const size_t first = row - piece_starts_[piece - 1];
        const size_t count = std::min(end, piece_starts_[piece]) - row;
        visit(piece - 1, first, count, at);
        row += count;
        at += count;
    }
}

void SortedRows::gatherNested(size_t column, size_t begin, size_t end, Column& into) const
{
    into.clear();
    if (order_.empty())
    {
        forEachRun(begin, end,
                   [&](size_t piece, size_t first, size_t run, size_t)
                   { into.appendRange(pieces_[piece][column], first, run); });
        return;
    }
    std::call_once(concatenated_once_[column],
                   [&]
                   {
                       Column& all = concatenated_[column];
                       all = Column::emptyLike(pieces_.front()[column]);
                       for (const std::vector<ColumnView>& piece : pieces_)
                       {
                           all.appendRange(piece[column], 0, piece[column].rows);
                       }
                   });
    std::vector<uint32_t> rows(end - begin);
    for (size_t row = begin; row < end; ++row)
    {
        rows[row - begin] =
            static_cast<uint32_t>(piece_starts_[order_[row].piece] + order_[row].row);
    }
    gatherRows(concatenated_[column].view(), 0, rows, into);
}

void SortedRows::gather(size_t column, size_t begin, size_t end, Column& into) const
{
    if (isNested(into.type()))
    {
        gatherNested(column, begin, end, into);
        return;
    }
    if (isString(into.type()))
    {
        gatherStrings(column, begin, end, into);
        gatherValidity(column, begin, end, into);
        return;
    }
    gatherFixed(column, begin, end, into);
    gatherValidity(column, begin, end, into);
}

void SortedRows::gatherValidity(size_t column, size_t begin, size_t end, Column& into) const
{
    into.clearNulls();  // a reused buffer forgets its last NULLs
    if (std::none_of(pieces_.begin(), pieces_.end(),
                     [&](const std::vector<ColumnView>& piece)
                     { return piece[column].hasValidity(); }))
    {
        return;
    }
    if (order_.empty())
    {
        forEachRun(begin, end,
                   [&](size_t piece, size_t first, size_t run, size_t at)
                   {
                       for (size_t i = 0; i < run; ++i)
                       {
                           if (!pieces_[piece][column].isValid(first + i))
                           {
                               into.setNull(at + i);
                           }
                       }
                   });
        return;
    }
    for (size_t row = begin; row < end; ++row)
    {
        if (!pieces_[order_[row].piece][column].isValid(order_[row].row))
        {
            into.setNull(row - begin);
        }
    }
}

void SortedRows::gatherFixed(size_t column, size_t begin, size_t end, Column& into) const
{
    const size_t count = end - begin;
    // Every row is overwritten: resizing only zero-fills what a reused buffer gains.
    into.resizeFixed(count);
    dispatchFixedType(
        into.type(),
        [&]<typename T>(TypeTag<T>)
        {
            T* to = into.mutableData<T>();
            if (order_.empty())
            {
                forEachRun(begin, end,
                           [&](size_t piece, size_t first, size_t run, size_t at)
                           {
                               // A piece without rows may have no buffer.
                               if (run > 0)
                               {
                                   std::memcpy(to + at,
                                               pieces_[piece][column].values<T>().data() + first,
                                               run * sizeof(T));
                               }
                           });
                return;
            }
            std::vector<const T*> sources;
            for (const std::vector<ColumnView>& piece : pieces_)
            {
                sources.push_back(piece[column].values<T>().data());
            }
            const SourceRow* order = order_.data() + begin;
            for (size_t row = 0; row < count; ++row)
            {
                if (row + kPrefetchRows < count)
                {
                    const SourceRow ahead = order[row + kPrefetchRows];
                    __builtin_prefetch(sources[ahead.piece] + ahead.row);
                }
                to[row] = sources[order[row].piece][order[row].row];
            }
        });
}

std::optional<ColumnView> SortedRows::inPlace(size_t column, size_t begin, size_t end) const
{
    if (!order_.empty() || begin == end)
    {
        return std::nullopt;
    }
    const size_t piece =
        std::upper_bound(piece_starts_.begin(), piece_starts_.end(), begin) - piece_starts_.begin();
    if (end > piece_starts_[piece])
    {
        return std::nullopt;
    }
    const size_t first = begin - piece_starts_[piece - 1];
    return pieces_[piece - 1][column].slice(first, end - begin);
}

void SortedRows::gatherStrings(size_t column, size_t begin, size_t end, Column& into) const
{
    const size_t count = end - begin;
    if (order_.empty())
    {
        // Consecutive rows of a piece are consecutive chars: one copy per run.
        uint64_t bytes = 0;
        forEachRun(begin, end,
                   [&](size_t piece, size_t first, size_t run, size_t)
                   {
                       const ColumnView& view = pieces_[piece][column];
                       bytes += view.offsets[first + run] - view.offsets[first];
                   });
        into.resizeStrings(count, bytes);
        char* chars = into.mutableChars();
        uint64_t* offsets = into.mutableOffsets();
        offsets[0] = 0;
        forEachRun(begin, end,
                   [&](size_t piece, size_t first, size_t run, size_t at)
                   {
                       const ColumnView& view = pieces_[piece][column];
                       const uint64_t base = view.offsets[first];
                       // Runs of empty strings may come from a piece without a chars buffer.
                       if (view.offsets[first + run] > base)
                       {
                           std::memcpy(chars + offsets[at], view.chars + base,
                                       view.offsets[first + run] - base);
                       }
                       for (size_t row = 1; row <= run; ++row)
                       {
                           offsets[at + row] = offsets[at] + view.offsets[first + row] - base;
                       }
                   });
        return;
    }
    // The values are located first, so that the chars buffer is sized once.
    struct Source
    {
        const char* chars;
        uint32_t size;
        /// At least kShortCopy bytes of the piece's chars start at `chars`.
        bool can_over_read;
    };
    std::vector<ColumnView> views;
    std::vector<const char*> chars_ends;
    for (const std::vector<ColumnView>& piece : pieces_)
    {
        const ColumnView& view = piece[column];
        views.push_back(view);
        chars_ends.push_back(view.chars + view.offsets[view.rows]);
    }
    std::vector<Source> sources(count);
    const SourceRow* order = order_.data() + begin;
    uint64_t bytes = 0;
    for (size_t row = 0; row < count; ++row)
    {
        if (row + kPrefetchRows < count)
        {
            const SourceRow ahead = order[row + kPrefetchRows];
            __builtin_prefetch(views[ahead.piece].offsets + ahead.row);
        }
        const SourceRow source = order[row];
        const std::string_view value = views[source.piece].stringAt(source.row);
        sources[row] = {value.data(), static_cast<uint32_t>(value.size()),
                        chars_ends[source.piece] - value.data() >= std::ptrdiff_t{kShortCopy}};
        bytes += value.size();
    }
    // Short values are copied as fixed kShortCopy-byte blocks, which the compiler inlines;
    // the slack at the end of the buffer takes the last one's excess.
    into.resizeStrings(count, bytes + kShortCopy);
    char* chars = into.mutableChars();
    uint64_t* offsets = into.mutableOffsets();
    offsets[0] = 0;
    for (size_t row = 0; row < count; ++row)
    {
        if (row + kPrefetchRows < count)
        {
            __builtin_prefetch(sources[row + kPrefetchRows].chars);
        }
        const Source& source = sources[row];
        if (source.size <= kShortCopy && source.can_over_read)
        {
            std::memcpy(chars + offsets[row], source.chars, kShortCopy);
        }
        else
        {
            std::memcpy(chars + offsets[row], source.chars, source.size);
        }
        offsets[row + 1] = offsets[row] + source.size;
    }
    into.resizeStrings(count, bytes);
}

PartData buildPartData(const SortedRows& rows, const TableSchema& schema, bool parallel)
{
    PartData data;
    data.rows = rows.rows();
    const size_t columns = schema.columns.size();
    for (const ColumnSchema& column : schema.columns)
    {
        data.columns.emplace_back(column.type);
    }
    auto fill_column = [&](size_t index)
    { rows.gather(index, 0, rows.rows(), data.columns[index]); };
    if (parallel)
    {
        Executor::forEachNested(columns, fill_column);
    }
    else
    {
        for (size_t index = 0; index < columns; ++index)
        {
            fill_column(index);
        }
    }
    for (size_t index : schema.sortKeyColumns())
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
        contents.column_bytes.push_back(valueBytes(view));
    }
    contents.owned_columns = std::move(data.columns);
    contents.granule_min = std::move(data.granule_min);
    contents.granule_max = std::move(data.granule_max);
    return std::make_shared<const Part>(std::move(contents));
}

}  // namespace granary
