#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/arrow/arrow_import.h"
#include "engine/arrow/arrow_metadata.h"
#include "engine/columns/block.h"
#include "granary/groupby.h"

namespace granary
{

struct ResultBatch::Impl
{
    Block block;
    /// The result's fields: Arrow formats, and nullability by the schema, not by the batch.
    std::vector<arrow::ArrowField> fields;
    std::vector<std::string> formats;
    arrow::ArrowMetadata metadata;  ///< The schema's (partial states: their version).
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
    Impl(std::vector<Block> fragments, std::vector<arrow::ArrowField> fields, size_t batch_rows,
         arrow::ArrowMetadata metadata = {});

    /// The next unclaimed slice as a block; false at the end.
    bool claim(Block& out);

    std::vector<Block> fragments;
    std::vector<arrow::ArrowField> fields;
    std::vector<Field> schema;
    std::vector<std::string> formats;
    arrow::ArrowMetadata metadata;
    std::vector<Slice> slices;
    size_t rows = 0;
    std::atomic<size_t> next_slice{0};
};

}  // namespace granary
