#pragma once

// The benchmark's input: generated ClickBench `hits` columns held as Arrow batches (what a host
// engine would hand Granary and DuckDB), plus the integer columns once more as one contiguous
// block, for the engine's one-shot path that reads a single BlockView.

#include <cstddef>
#include <span>
#include <vector>

#include "engine/columns/block.h"
#include "granary/arrow_c_data.h"
#include "granary/groupby.h"

namespace granary::bench
{

/// The columns the benchmarked queries read, in the batches' order.
std::span<const Field> batchFields();
/// The integer columns of the contiguous block, in its order.
std::span<const Field> contiguousFields();

class HitsBatches
{
public:
    /// Generates `rows` rows of `hits` (fixed seed) in batches of HitsGenerator::kChunkRows.
    explicit HitsBatches(size_t rows);
    ~HitsBatches();
    HitsBatches(const HitsBatches&) = delete;
    HitsBatches& operator=(const HitsBatches&) = delete;

    size_t rows() const { return rows_; }
    /// Struct arrays, one child per batchFields() column; they stay this object's.
    std::span<const ArrowArray> batches() const { return batches_; }
    const ArrowSchema& schema() const { return schema_; }
    /// contiguousFields()' columns over every row.
    const Block& contiguous() const { return contiguous_; }

private:
    void addChunk(Block&& chunk);

    size_t rows_;
    std::vector<ArrowArray> batches_;
    ArrowSchema schema_{};
    Block contiguous_;
};

/// A shallow copy of `batch` that a consumer may take over and release (DuckDB releases the
/// arrays it converts) while the buffers stay `batch`'s.
ArrowArray borrowBatch(const ArrowArray& batch);

}  // namespace granary::bench
