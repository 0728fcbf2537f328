#include "engine/aggregation/partitioned_rows.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace granary
{
namespace
{

/// Bytes of a cache line, the unit in which scattered values of 1 to 8 bytes are written.
constexpr size_t kLineBytes = 64;

/// Writes a whole cache line with non-temporal stores: the line is not read first (no read
/// for ownership) and does not stay in the cache, where the bucket tasks would not find it
/// anyway: they read the routed rows only after the partial phase.
void streamLine(char* destination, const char* line)
{
#if defined(__SSE2__)
    for (size_t offset = 0; offset < kLineBytes; offset += sizeof(__m128i))
    {
        _mm_stream_si128(reinterpret_cast<__m128i*>(destination + offset),
                         _mm_load_si128(reinterpret_cast<const __m128i*>(line + offset)));
    }
#else
    std::memcpy(destination, line, kLineBytes);
#endif
}

/// Scatters values of Width bytes: row i goes to destinations[buckets[i]], each bucket's rows
/// one after the other. A bucket's values are gathered in a staging line that mirrors its
/// destination line and is streamed out once full, so 256 interleaved write streams cost one
/// line write each per 64 bytes instead of a read and a write of a line that the others keep
/// evicting (2.5x faster in isolation). The bytes before the first line boundary (their line
/// holds earlier rows) and after the last one are written directly. Destinations are
/// multiples of Width apart from malloc's alignment, so a bucket's values meet each line end.
template <size_t Width>
void scatterThroughLines(const char* values, size_t count, const uint8_t* buckets,
                         const std::array<char*, kPartitionBuckets>& destinations)
{
    static_assert(kLineBytes % Width == 0);
    alignas(kLineBytes) char staged[kPartitionBuckets][kLineBytes];
    std::array<char*, kPartitionBuckets> next = destinations;
    std::array<char*, kPartitionBuckets> first_line{};
    for (size_t b = 0; b < kPartitionBuckets; ++b)
    {
        const uintptr_t address = reinterpret_cast<uintptr_t>(destinations[b]);
        first_line[b] = destinations[b] + (kLineBytes - address % kLineBytes) % kLineBytes;
    }
    for (size_t i = 0; i < count; ++i)
    {
        const size_t b = buckets[i];
        char* at = next[b];
        if (at < first_line[b])
        {
            std::memcpy(at, values + i * Width, Width);
        }
        else
        {
            const size_t offset = reinterpret_cast<uintptr_t>(at) % kLineBytes;
            std::memcpy(staged[b] + offset, values + i * Width, Width);
            if (offset + Width == kLineBytes)
            {
                streamLine(at + Width - kLineBytes, staged[b]);
            }
        }
        next[b] = at + Width;
    }
    for (size_t b = 0; b < kPartitionBuckets; ++b)
    {
        const size_t offset = reinterpret_cast<uintptr_t>(next[b]) % kLineBytes;
        if (next[b] > first_line[b] && offset != 0)
        {
            std::memcpy(next[b] - offset, staged[b], offset);
        }
    }
}

/// Scatters values of any other width, one plain copy per row.
void scatterAnyWidth(const char* values, size_t width, size_t count, const uint8_t* buckets,
                     std::array<char*, kPartitionBuckets> next)
{
    for (size_t i = 0; i < count; ++i)
    {
        std::memcpy(next[buckets[i]], values + i * width, width);
        next[buckets[i]] += width;
    }
}

}  // namespace

PartitionedRows::PartitionedRows(const std::vector<ColumnView>& layout, std::vector<bool> used)
    : used_(std::move(used))
{
    for (const ColumnView& column : layout)
    {
        types_.push_back(column.type);
    }
}

PartitionedRows::Chunk& PartitionedRows::chunkWithRoom(size_t bucket, size_t rows)
{
    std::vector<Chunk>& chunks = buckets_[bucket];
    if (!chunks.empty() && chunks.back().capacity - chunks.back().rows >= rows)
    {
        return chunks.back();
    }
    const size_t previous = chunks.empty() ? kFirstChunkRows / 2 : chunks.back().capacity;
    Chunk& chunk = chunks.emplace_back();
    chunk.capacity = std::max(rows, std::min(previous * 2, kMaxChunkRows));
    chunk.columns.resize(types_.size());
    for (size_t c = 0; c < types_.size(); ++c)
    {
        if (!used_[c])
        {
            continue;
        }
        if (isString(types_[c]))
        {
            chunk.columns[c].offsets.reserve(chunk.capacity + 1);
            chunk.columns[c].offsets.push_back(0);
        }
        else
        {
            chunk.columns[c].bytes.reserve(chunk.capacity * fixedWidth(types_[c]));
        }
    }
    return chunk;
}

void PartitionedRows::append(const std::vector<ColumnView>& columns, size_t count,
                             const uint8_t* buckets)
{
    std::array<size_t, kPartitionBuckets> added{};
    for (size_t i = 0; i < count; ++i)
    {
        ++added[buckets[i]];
    }
    // Each bucket's rows of this call go to one chunk, at consecutive positions.
    std::array<Chunk*, kPartitionBuckets> chunks{};
    std::array<size_t, kPartitionBuckets> first_row{};
    for (size_t b = 0; b < kPartitionBuckets; ++b)
    {
        if (added[b] > 0)
        {
            chunks[b] = &chunkWithRoom(b, added[b]);
            first_row[b] = chunks[b]->rows;
        }
    }
    std::array<char*, kPartitionBuckets> targets{};
    for (size_t c = 0; c < types_.size(); ++c)
    {
        if (!used_[c])
        {
            continue;
        }
        const ColumnView& source = columns[c];
        if (isString(types_[c]))
        {
            // Bytes first: each chunk grows once per call by the bytes of its rows.
            std::array<size_t, kPartitionBuckets> added_bytes{};
            for (size_t i = 0; i < count; ++i)
            {
                added_bytes[buckets[i]] += source.offsets[i + 1] - source.offsets[i];
            }
            std::array<size_t, kPartitionBuckets> byte_positions{};
            for (size_t b = 0; b < kPartitionBuckets; ++b)
            {
                if (added[b] == 0)
                {
                    continue;
                }
                ChunkColumn& column = chunks[b]->columns[c];
                byte_positions[b] = column.bytes.size();
                const size_t bytes = column.bytes.size() + added_bytes[b];
                if (bytes > column.bytes.capacity())
                {
                    // Room for the whole chunk at the average length so far, not a doubling.
                    const size_t rows = first_row[b] + added[b];
                    column.bytes.reserve(std::max(bytes, bytes * chunks[b]->capacity / rows));
                }
                column.bytes.resize(bytes);
                column.offsets.resize(first_row[b] + added[b] + 1);
                targets[b] = column.bytes.data();
            }
            std::array<size_t, kPartitionBuckets> rows = first_row;
            for (size_t i = 0; i < count; ++i)
            {
                const size_t b = buckets[i];
                const std::string_view value = source.stringAt(i);
                std::memcpy(targets[b] + byte_positions[b], value.data(), value.size());
                byte_positions[b] += value.size();
                chunks[b]->columns[c].offsets[++rows[b]] = byte_positions[b];
            }
            continue;
        }
        const size_t width = fixedWidth(types_[c]);
        for (size_t b = 0; b < kPartitionBuckets; ++b)
        {
            if (added[b] > 0)
            {
                Bytes& bytes = chunks[b]->columns[c].bytes;
                bytes.resize((first_row[b] + added[b]) * width);
                targets[b] = bytes.data() + first_row[b] * width;
            }
        }
        const char* values = static_cast<const char*>(source.data);
        switch (width)
        {
            case 1:
                scatterThroughLines<1>(values, count, buckets, targets);
                break;
            case 2:
                scatterThroughLines<2>(values, count, buckets, targets);
                break;
            case 4:
                scatterThroughLines<4>(values, count, buckets, targets);
                break;
            case 8:
                scatterThroughLines<8>(values, count, buckets, targets);
                break;
            default:
                scatterAnyWidth(values, width, count, buckets, targets);
                break;
        }
    }
#if defined(__SSE2__)
    // The streamed lines are weakly ordered: make them visible before the rows are handed to
    // the bucket tasks (on other threads).
    _mm_sfence();
#endif
    for (size_t b = 0; b < kPartitionBuckets; ++b)
    {
        if (added[b] > 0)
        {
            chunks[b]->rows += added[b];
        }
    }
    rows_ += count;
}

std::vector<ColumnView> PartitionedRows::chunk(size_t bucket, size_t index, size_t& rows) const
{
    const Chunk& source = buckets_[bucket][index];
    rows = source.rows;
    std::vector<ColumnView> views;
    for (size_t c = 0; c < types_.size(); ++c)
    {
        const ChunkColumn& column = source.columns[c];
        if (!used_[c])
        {
            views.push_back(ColumnView{types_[c], source.rows, nullptr, nullptr, nullptr});
        }
        else if (isString(types_[c]))
        {
            views.push_back(
                ColumnView::ofStrings(column.bytes.data(), column.offsets.data(), source.rows));
        }
        else
        {
            views.push_back(
                ColumnView{types_[c], source.rows, column.bytes.data(), nullptr, nullptr});
        }
    }
    return views;
}

size_t PartitionedRows::memoryBytes() const
{
    size_t bytes = 0;
    for (const std::vector<Chunk>& chunks : buckets_)
    {
        for (const Chunk& chunk : chunks)
        {
            for (const ChunkColumn& column : chunk.columns)
            {
                bytes += column.bytes.capacity() + column.offsets.capacity() * sizeof(uint64_t);
            }
        }
    }
    return bytes;
}

}  // namespace granary
