#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/cpu_features.h"
#include "simd/internal/search_plan.h"
#include "simd/string_column_view.h"

namespace granary::simd::internal
{

/// The column scans of one instruction-set level. Each finds every row of `column` containing
/// the (non-empty) needle of `plan` and writes only the entries of those rows.
struct KernelTable
{
    /// Sets row_mask[row] = match_value for each such row (row_mask may be null); returns how
    /// many rows contain the needle.
    size_t (*mark_rows)(const SearchPlan& plan, StringColumnView column, uint8_t* row_mask,
                        uint8_t match_value);
    /// Sets positions[row] to the 1-based byte offset of the first occurrence in the row.
    void (*first_positions)(const SearchPlan& plan, StringColumnView column, uint64_t* positions);
    /// Adds to counts[row] the number of non-overlapping occurrences in the row.
    void (*count_occurrences)(const SearchPlan& plan, StringColumnView column, uint64_t* counts);
};

extern const KernelTable kScalarKernels;
#if defined(__x86_64__)
extern const KernelTable kSseKernels;
extern const KernelTable kAvx2Kernels;
extern const KernelTable kAvx512Kernels;
#endif

/// The kernels of `level`, which the CPU must support.
const KernelTable& kernelsFor(SimdLevel level);

}  // namespace granary::simd::internal
