#include "simd/substring_searcher.h"

#include <cstdint>
#include <stdexcept>

namespace granary::simd
{
namespace
{

SimdLevel checkedSimdLevel(const SearchOptions& options)
{
    const SimdLevel level = options.simd_level.value_or(defaultSimdLevel());
    if (!cpuSupports(level))
    {
        throw std::invalid_argument("SubstringSearcher: this CPU cannot run the " +
                                    std::string(simdLevelName(level)) + " kernels");
    }
    return level;
}

}  // namespace

SubstringSearcher::SubstringSearcher(std::string_view needle, SearchOptions options)
    : needle_(needle),
      case_sensitivity_(options.case_sensitivity),
      simd_level_(checkedSimdLevel(options)),
      plan_(internal::makeSearchPlan(needle, options.case_sensitivity, options.pair_choice)),
      kernels_(&internal::kernelsFor(simd_level_))
{
}

size_t SubstringSearcher::find(std::string_view haystack) const
{
    if (needle_.empty())
    {
        return 0;
    }
    // The haystack as a one-row column: the same kernels serve single strings.
    const uint64_t offsets[2] = {0, haystack.size()};
    uint64_t position = 0;
    kernels_->first_positions(plan_, StringColumnView{haystack.data(), offsets, 1}, &position);
    return position == 0 ? std::string_view::npos : position - 1;
}

}  // namespace granary::simd
