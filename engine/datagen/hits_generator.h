#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/columns/block.h"

namespace granary::datagen
{

/// Synthetic ClickBench `hits` rows (the 105 columns of hits_schema.h). The 25 columns the
/// queries read follow the published statistics (hits_targets.h) scaled to the row count; the
/// others hold plausible values of the right type and width. Chunk k holds rows
/// [k * kChunkRows, ...) and depends only on (seed, rows, k): chunks can be generated in any
/// order, on any threads, and always give the same table.
///
/// Consecutive chunks form groups of groupChunks() chunks (a number that depends on the row
/// count only) whose rows come sorted by the table's sort key (CounterID, EventDate, UserID,
/// EventTime, WatchID): the keys of a group are drawn and sorted first (sortGroup), then each
/// chunk generates the other columns for its rows of that order, so a part made of one group
/// needs no sort and no gather.
class HitsGenerator
{
public:
    static constexpr size_t kChunkRows = 65536;
    /// Groups hold at most 2^20 rows (Table::kMaxPartRows, the largest part).
    static constexpr size_t kMaxGroupChunks = 16;

    HitsGenerator(uint64_t rows, uint64_t seed);
    ~HitsGenerator();
    HitsGenerator(HitsGenerator&&) noexcept;
    HitsGenerator& operator=(HitsGenerator&&) noexcept;

    uint64_t rows() const { return rows_; }
    uint64_t seed() const { return seed_; }
    size_t chunkCount() const { return (rows_ + kChunkRows - 1) / kChunkRows; }
    /// A quarter of the chunks, so that a writer of one group's part overlaps the generation of
    /// the next one, within [1, kMaxGroupChunks].
    size_t groupChunks() const { return std::clamp<size_t>(chunkCount() / 4, 1, kMaxGroupChunks); }
    size_t groupCount() const { return (chunkCount() + groupChunks() - 1) / groupChunks(); }

    /// The sort keys of a group's rows, in the table's order.
    struct SortedKeys;
    /// Draws and sorts group `group`'s keys; runs oneTBB loops in the calling arena.
    /// Thread-safe.
    std::shared_ptr<const SortedKeys> sortGroup(size_t group) const;

    /// The rows of chunk `chunk_index`, columns in table order; `keys` are its group's.
    /// Thread-safe. Throws Exception(kBadArguments) past the last chunk.
    Block generateChunk(size_t chunk_index, const SortedKeys& keys) const;
    /// The same into `block`, reusing its buffers when it holds the hits columns (a block an
    /// earlier call filled): a caller that recycles blocks touches no fresh memory per chunk.
    void generateChunkInto(size_t chunk_index, const SortedKeys& keys, Block& block) const;
    /// The same, sorting the chunk's group first.
    Block generateChunk(size_t chunk_index) const;

    /// Models built once per (rows, seed): distributions, solved tail sizes, planted rows.
    struct Models;

private:
    uint64_t rows_;
    uint64_t seed_;
    std::unique_ptr<const Models> models_;
};

/// Fills the 80 columns the queries do not read (hits_filler_columns.cpp); `block` holds all
/// columns, the modeled ones already generated for rows [first_row, first_row + rows).
void generateFillerColumns(Block& block, uint64_t seed, size_t chunk_index);

}  // namespace granary::datagen
