#include "engine/aggregation/partitioned_rows.h"

#include <algorithm>
#include <cstring>

#include "engine/aggregation/bucket_scatter.h"

namespace granary
{
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
    size_t& in_use = chunks_in_use_[bucket];
    if (in_use > 0 && chunks[in_use - 1].capacity - chunks[in_use - 1].rows >= rows)
    {
        return chunks[in_use - 1];
    }
    const size_t previous = in_use == 0 ? kFirstChunkRows / 2 : chunks[in_use - 1].capacity;
    const size_t capacity = std::max(rows, std::min(previous * 2, kMaxChunkRows));
    if (in_use == chunks.size())
    {
        chunks.emplace_back();
    }
    Chunk& chunk = chunks[in_use++];
    if (chunk.capacity >= rows)
    {
        empty(chunk);
        return chunk;
    }
    chunk = Chunk{};
    chunk.capacity = capacity;
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

void PartitionedRows::empty(Chunk& chunk) const
{
    chunk.rows = 0;
    for (size_t c = 0; c < types_.size(); ++c)
    {
        chunk.columns[c].bytes.clear();
        chunk.columns[c].offsets.clear();
        if (used_[c] && isString(types_[c]))
        {
            chunk.columns[c].offsets.push_back(0);
        }
    }
}

void PartitionedRows::release(size_t bucket)
{
    std::vector<Chunk>().swap(buckets_[bucket]);
    chunks_in_use_[bucket] = 0;
}

void PartitionedRows::clear()
{
    chunks_in_use_.fill(0);
    rows_ = 0;
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
                if (!value.empty())  // An empty value's pointer and target may be null.
                {
                    std::memcpy(targets[b] + byte_positions[b], value.data(), value.size());
                }
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
        scatterToBuckets(static_cast<const char*>(source.data), width, count, buckets, targets);
    }
    for (size_t b = 0; b < kPartitionBuckets; ++b)
    {
        if (added[b] > 0)
        {
            chunks[b]->rows += added[b];
        }
    }
    rows_ += count;
}

size_t PartitionedRows::rows(size_t bucket) const
{
    size_t rows = 0;
    for (size_t index = 0; index < chunks_in_use_[bucket]; ++index)
    {
        rows += buckets_[bucket][index].rows;
    }
    return rows;
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
