#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "simd/cpu_features.h"
#include "simd/internal/kernel_table.h"
#include "simd/internal/search_plan.h"
#include "simd/search_options.h"

namespace granary::simd
{

/// Finds one needle in many haystacks: prepared once per needle (which filter bytes to compare,
/// which kernels to run), then used for single strings (`find`) or whole String columns (the
/// functions of column_search.h). The kernels filter candidate starts by two needle bytes at
/// once, 16 to 64 starts per vector compare, and verify the few survivors word by word.
/// Immutable once built, so one searcher may serve many threads.
class SubstringSearcher
{
public:
    explicit SubstringSearcher(std::string_view needle, SearchOptions options = {});

    /// The needle as given.
    const std::string& needle() const { return needle_; }
    CaseSensitivity caseSensitivity() const { return case_sensitivity_; }
    SimdLevel simdLevel() const { return simd_level_; }
    /// Needle positions the first filter compares (equal for a one-byte needle).
    std::pair<size_t, size_t> filterPositions() const
    {
        return {plan_.first_position, plan_.second_position};
    }

    /// Byte offset of the first occurrence in `haystack`, or std::string_view::npos; an empty
    /// needle occurs at 0.
    size_t find(std::string_view haystack) const;
    bool contains(std::string_view haystack) const
    {
        return find(haystack) != std::string_view::npos;
    }

    /// For column_search.h: the prepared needle and the kernels chosen for it.
    const internal::SearchPlan& plan() const { return plan_; }
    const internal::KernelTable& kernels() const { return *kernels_; }

private:
    std::string needle_;
    CaseSensitivity case_sensitivity_;
    SimdLevel simd_level_;
    internal::SearchPlan plan_;
    const internal::KernelTable* kernels_;
};

}  // namespace granary::simd
