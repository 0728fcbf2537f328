#include "programs/scale/thread_counts.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "engine/common/exception.h"

namespace granary::scale
{

std::vector<size_t> parseThreadCounts(std::string_view list, size_t hardware_threads)
{
    std::vector<size_t> counts;
    size_t begin = 0;
    while (begin <= list.size())
    {
        const size_t comma = std::min(list.find(',', begin), list.size());
        const std::string_view entry = list.substr(begin, comma - begin);
        size_t count = 0;
        if (entry == "max")
        {
            count = std::max<size_t>(1, hardware_threads);
        }
        else
        {
            const auto [end, error] =
                std::from_chars(entry.data(), entry.data() + entry.size(), count);
            if (entry.empty() || error != std::errc() || end != entry.data() + entry.size() ||
                count == 0)
            {
                throw Exception(ErrorCode::kBadArguments,
                                "thread count '" + std::string(entry) +
                                    "' is neither a positive integer nor 'max' (in '" +
                                    std::string(list) + "')");
            }
        }
        counts.push_back(count);
        begin = comma + 1;
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

}  // namespace granary::scale
