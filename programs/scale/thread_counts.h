#pragma once

#include <string_view>
#include <vector>

namespace granary::scale
{

/// "1,2,4,max" → {1, 2, 4, hardware_threads}, sorted, without duplicates. Throws
/// Exception(kBadArguments) naming the bad entry (not a positive integer, nor "max").
std::vector<size_t> parseThreadCounts(std::string_view list, size_t hardware_threads);

}  // namespace granary::scale
