#pragma once

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
class HitsGenerator
{
public:
    static constexpr size_t kChunkRows = 65536;

    HitsGenerator(uint64_t rows, uint64_t seed);
    ~HitsGenerator();
    HitsGenerator(HitsGenerator&&) noexcept;
    HitsGenerator& operator=(HitsGenerator&&) noexcept;

    uint64_t rows() const { return rows_; }
    uint64_t seed() const { return seed_; }
    size_t chunkCount() const { return (rows_ + kChunkRows - 1) / kChunkRows; }

    /// The rows of chunk `chunk_index`, columns in table order. Thread-safe. Throws
    /// Exception(kBadArguments) past the last chunk.
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
