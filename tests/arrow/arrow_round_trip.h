#pragma once

// Helpers for tests that import Arrow batches, export Granary blocks, and compare the two.

#include <string>
#include <vector>

#include "engine/arrow/arrow_import.h"
#include "engine/columns/block.h"
#include "granary/arrow_c_data.h"

namespace granary::arrow::testing
{

/// A field that is not dictionary-encoded.
ArrowField plainField(std::string name, TypeId type, bool nullable, std::string format);

/// An owning copy of an imported batch (NULLs kept), named and typed as `fields`.
Block blockOf(const ImportedBatch& batch, const std::vector<ArrowField>& fields);

/// Every column of `batch` as renderRows writes it.
std::vector<std::vector<std::string>> renderBatch(const ImportedBatch& batch);
/// Every column of `block` the same way.
std::vector<std::vector<std::string>> renderBlock(const Block& block);

/// An exported array and schema that the test releases when done, whatever it asserted.
struct ExportedBatch
{
    ArrowArray array{};
    ArrowSchema schema{};

    ExportedBatch() = default;
    ExportedBatch(const ExportedBatch&) = delete;
    ExportedBatch& operator=(const ExportedBatch&) = delete;
    ~ExportedBatch();
};

}  // namespace granary::arrow::testing
