#include "engine/storage/part.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <utility>

#include "engine/columns/gather.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

void checkIndex(size_t index, size_t count, const char* what)
{
    if (index >= count)
    {
        throw Exception(ErrorCode::kLogicalError,
                        std::string(what) + " index " + std::to_string(index) + " out of range");
    }
}

static_assert(Part::kGranuleRows == EncodedColumn::kBlockRows,
              "an encoded block holds one granule");

/// The first granule holding rows [first_row, first_row + rows) and how many granules do.
std::pair<size_t, size_t> granulesOf(size_t first_row, size_t rows)
{
    const size_t first = first_row / Part::kGranuleRows;
    return {first, (first_row + rows + Part::kGranuleRows - 1) / Part::kGranuleRows - first};
}

/// Calls each(granule, begin, end) for every run of `selected` (rows after first_row,
/// ascending) within one granule.
template <typename Each>
void forEachGranuleRun(size_t first_row, std::span<const uint32_t> selected, Each&& each)
{
    for (auto begin = selected.begin(); begin != selected.end();)
    {
        const size_t granule = (first_row + *begin) / Part::kGranuleRows;
        const auto granule_end = uint32_t((granule + 1) * Part::kGranuleRows - first_row);
        const auto end = std::lower_bound(begin, selected.end(), granule_end);
        each(granule, begin, end);
        begin = end;
    }
}

uint64_t nextPartId()
{
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Part::Part(PartContents contents)
    : contents_(std::move(contents)),
      checked_(std::make_unique<std::once_flag[]>(contents_.columns.size())),
      id_(nextPartId())
{
}

void Part::checkOnFirstUse(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    if (!contents_.first_use_checks.empty())
    {
        std::call_once(checked_[column_index], contents_.first_use_checks[column_index],
                       std::cref(contents_));
    }
}

const uint8_t* Part::validityOf(size_t column_index) const
{
    return column_index < contents_.validity.size() ? contents_.validity[column_index] : nullptr;
}

void Part::checkReadRange(size_t first_row, size_t rows) const
{
    if (first_row % kGranuleRows != 0 || first_row + rows > this->rows())
    {
        throw Exception(ErrorCode::kLogicalError, "part read of rows " + std::to_string(first_row) +
                                                      " + " + std::to_string(rows) +
                                                      " is not granule-aligned within the part");
    }
}

bool Part::hasNulls(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    return validityOf(column_index) != nullptr || contents_.columns[column_index].hasValidity();
}

bool Part::isEncoded(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    return column_index < contents_.encoded.size() && contents_.encoded[column_index] != nullptr;
}

ColumnView Part::read(size_t column_index, size_t first_row, size_t rows, Column& buffer) const
{
    checkOnFirstUse(column_index);
    checkReadRange(first_row, rows);
    if (!isEncoded(column_index))
    {
        return contents_.columns[column_index].slice(first_row, rows);
    }
    buffer.clear();
    const auto [first_granule, granules] = granulesOf(first_row, rows);
    contents_.encoded[column_index]->read(first_granule, granules, buffer);
    // A read ending inside a granule decodes the whole granule: the view ends at the rows.
    return buffer.view().slice(0, rows).withValidity(validityOf(column_index), first_row);
}

std::optional<uint32_t> Part::cachedChunkOf(size_t column_index, size_t first_row,
                                            size_t rows) const
{
    if (rows == 0 || !isEncoded(column_index) ||
        first_row / kChunkRows != (first_row + rows - 1) / kChunkRows)
    {
        return std::nullopt;
    }
    return uint32_t(first_row / kChunkRows);
}

template <typename Decode>
std::shared_ptr<const Column> Part::findOrDecode(const DecodedChunkKey& key,
                                                 DecodedChunkCache& cache, bool decode_missing,
                                                 size_t* added_bytes, Decode decode) const
{
    if (!decode_missing)
    {
        return cache.find(key);
    }
    return cache.findOrInsert(key,
                              [&]
                              {
                                  const size_t first_granule = size_t(key.chunk) * kChunkGranules;
                                  Column decoded =
                                      decode(first_granule,
                                             std::min(kChunkGranules, granules() - first_granule));
                                  if (added_bytes != nullptr)
                                  {
                                      *added_bytes += decoded.allocatedBytes();
                                  }
                                  return decoded;
                              });
}

std::shared_ptr<const Column> Part::cachedChunk(size_t column_index, uint32_t chunk,
                                                DecodedChunkCache& cache, const DataType* decode,
                                                size_t* added_bytes) const
{
    return findOrDecode({id_, uint32_t(column_index), chunk, ChunkForm::kValues}, cache,
                        decode != nullptr, added_bytes,
                        [&](size_t first_granule, size_t granule_count)
                        {
                            // The values only: NULLs come from the part's bitmap, as for
                            // reads without the cache.
                            Column decoded(decode->withoutNullable());
                            contents_.encoded[column_index]->read(first_granule, granule_count,
                                                                  decoded);
                            return decoded;
                        });
}

std::shared_ptr<const Column> Part::cachedCodes(size_t column_index, uint32_t chunk,
                                                DecodedChunkCache& cache, bool fill,
                                                size_t* added_bytes) const
{
    return findOrDecode(
        {id_, uint32_t(column_index), chunk, ChunkForm::kCodes}, cache, fill, added_bytes,
        [&](size_t first_granule, size_t granule_count)
        {
            Column codes(TypeId::UInt32);
            if (!contents_.encoded[column_index]->readCodes(first_granule, granule_count, codes))
            {
                // Kept empty, so that later scans do not try again.
                codes = Column(TypeId::UInt32);
            }
            return codes;
        });
}

size_t Part::pinChunk(size_t column_index, size_t first_row, size_t rows, ColumnReadBuffer& buffer,
                      DecodedChunkCache* cache, bool fill) const
{
    buffer.pinned.reset();
    buffer.added_bytes = 0;
    const std::optional<uint32_t> chunk =
        cache ? cachedChunkOf(column_index, first_row, rows) : std::nullopt;
    if (!chunk)
    {
        return 0;
    }
    checkOnFirstUse(column_index);
    const DataType type = buffer.decoded.dataType();
    buffer.pinned =
        cachedChunk(column_index, *chunk, *cache, fill ? &type : nullptr, &buffer.added_bytes);
    return size_t(*chunk) * kChunkRows;
}

ColumnView Part::read(size_t column_index, size_t first_row, size_t rows, ColumnReadBuffer& buffer,
                      DecodedChunkCache* cache, bool fill) const
{
    checkReadRange(first_row, rows);
    const size_t chunk_first_row = pinChunk(column_index, first_row, rows, buffer, cache, fill);
    if (!buffer.pinned)
    {
        return read(column_index, first_row, rows, buffer.decoded);
    }
    return buffer.pinned->view()
        .slice(first_row - chunk_first_row, rows)
        .withValidity(validityOf(column_index), first_row);
}

size_t Part::gather(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                    ColumnReadBuffer& buffer, Column& out, DecodedChunkCache* cache,
                    bool fill) const
{
    // The span of rows the gather touches: an empty one is never served by the cache.
    const size_t span_first = selected.empty() ? first_row : first_row + selected.front();
    const size_t span_rows = selected.empty() ? 0 : selected.back() - selected.front() + 1;
    const size_t chunk_first_row =
        pinChunk(column_index, span_first, span_rows, buffer, cache, fill);
    if (!buffer.pinned)
    {
        return gather(column_index, first_row, selected, buffer.decoded, out);
    }
    const size_t first_out_row = out.size();
    gatherRows(buffer.pinned->view(), first_row - chunk_first_row, selected, out);
    markNulls(column_index, first_row, selected, out, first_out_row);
    return bytesOf(column_index, first_row + selected.front(),
                   selected.back() - selected.front() + 1);
}

size_t Part::gather(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                    Column& buffer, Column& out) const
{
    checkOnFirstUse(column_index);
    if (selected.empty())
    {
        return 0;
    }
    size_t bytes = 0;
    if (!isEncoded(column_index))
    {
        gatherRows(contents_.columns[column_index], first_row, selected, out);
        // The granules holding the rows, as an encoded column's gather counts them.
        forEachGranuleRun(first_row, selected,
                          [&](size_t granule, auto, auto)
                          {
                              const size_t start = granule * kGranuleRows;
                              bytes += bytesOf(column_index, start,
                                               std::min(kGranuleRows, rows() - start));
                          });
        return bytes;
    }
    const EncodedColumn& encoded = *contents_.encoded[column_index];
    const size_t first_out_row = out.size();
    thread_local std::vector<uint32_t> granule_offsets;
    // One granule at a time: the selected rows in it are gathered from its decoded block.
    forEachGranuleRun(
        first_row, selected,
        [&](size_t granule, auto begin, auto end)
        {
            bytes += encoded.bytes(granule, 1);
            granule_offsets.clear();
            for (auto row = begin; row != end; ++row)
            {
                granule_offsets.push_back(uint32_t(first_row + *row - granule * kGranuleRows));
            }
            encoded.gather(granule, granule_offsets, buffer, out);
        });
    markNulls(column_index, first_row, selected, out, first_out_row);
    return bytes;
}

void Part::markNulls(size_t column_index, size_t first_row, std::span<const uint32_t> selected,
                     Column& out, size_t first_out_row) const
{
    if (const uint8_t* validity = validityOf(column_index))
    {
        const ColumnView nulls = ColumnView{}.withValidity(validity, first_row);
        for (size_t i = 0; i < selected.size(); ++i)
        {
            if (!nulls.isValid(selected[i]))
            {
                out.setNull(first_out_row + i);
            }
        }
    }
}

std::optional<ColumnView> Part::dictionary(size_t column_index) const
{
    if (!isEncoded(column_index) || contents_.encoded[column_index]->dictionary().rows == 0)
    {
        return std::nullopt;
    }
    checkOnFirstUse(column_index);
    return contents_.encoded[column_index]->dictionary();
}

std::optional<ColumnView> Part::readCodes(size_t column_index, size_t first_row, size_t rows,
                                          ColumnReadBuffer& buffer, DecodedChunkCache* cache,
                                          bool fill) const
{
    checkReadRange(first_row, rows);
    buffer.pinned.reset();
    buffer.added_bytes = 0;
    if (!dictionary(column_index))
    {
        return std::nullopt;
    }
    if (const std::optional<uint32_t> chunk =
            cache ? cachedChunkOf(column_index, first_row, rows) : std::nullopt)
    {
        buffer.pinned = cachedCodes(column_index, *chunk, *cache, fill, &buffer.added_bytes);
        if (buffer.pinned && buffer.pinned->size() == 0)
        {
            return std::nullopt;
        }
        if (buffer.pinned)
        {
            return buffer.pinned->view().slice(first_row - size_t(*chunk) * kChunkRows, rows);
        }
    }
    buffer.decoded.clear();
    const auto [first_granule, granule_count] = granulesOf(first_row, rows);
    if (!contents_.encoded[column_index]->readCodes(first_granule, granule_count, buffer.decoded))
    {
        return std::nullopt;
    }
    return buffer.decoded.view().slice(0, rows);
}

size_t Part::bytesOf(size_t column_index, size_t first_row, size_t rows) const
{
    if (!isEncoded(column_index))
    {
        return columnBytes(column_index) / std::max<size_t>(this->rows(), 1) * rows;
    }
    const auto [first_granule, granules] = granulesOf(first_row, rows);
    return contents_.encoded[column_index]->bytes(first_granule, granules);
}

size_t Part::columnBytes(size_t column_index) const
{
    checkIndex(column_index, contents_.column_bytes.size(), "column");
    return contents_.column_bytes[column_index];
}

ColumnView Part::granuleMin(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_min.size(), "sort key");
    return contents_.granule_min[sort_key_index].view();
}

ColumnView Part::granuleMax(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_max.size(), "sort key");
    return contents_.granule_max[sort_key_index].view();
}

}  // namespace granary
