#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/arrow/arrow_import.h"
#include "engine/arrow/arrow_metadata.h"
#include "engine/columns/block.h"
#include "granary/groupby.h"

namespace granary
{

/// What every batch of a result shares: its fields (Arrow formats, and nullability by the
/// schema, not by the batch) and the schema's metadata (partial states: their version).
struct ResultShape
{
    ResultShape(std::vector<arrow::ArrowField> fields, arrow::ArrowMetadata metadata);

    std::vector<arrow::ArrowField> fields;
    std::vector<Field> schema;         ///< The fields as the public API names them.
    std::vector<std::string> formats;  ///< The fields' formats, as exportBlockArray takes them.
    arrow::ArrowMetadata metadata;
};

struct ResultBatch::Impl
{
    Block block;
    std::shared_ptr<const ResultShape> shape;
};

/// A finished result: its fragments, cut into batches of at most `batch_rows` rows that any
/// thread may claim.
struct ResultStream::Impl
{
    struct Slice
    {
        size_t fragment;
        size_t begin;
        size_t rows;
    };
    Impl(std::vector<Block> fragments, std::shared_ptr<const ResultShape> shape, size_t batch_rows);

    /// The next unclaimed slice as a block; false at the end.
    bool claim(Block& out);

    std::vector<Block> fragments;
    std::shared_ptr<const ResultShape> shape;
    std::vector<Slice> slices;
    size_t rows = 0;
    std::atomic<size_t> next_slice{0};
};

}  // namespace granary
