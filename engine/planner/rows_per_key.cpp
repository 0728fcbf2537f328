#include "engine/planner/rows_per_key.h"

#include <absl/container/flat_hash_map.h>

#include <string>

#include "engine/columns/row_key.h"

namespace granary
{

std::vector<uint32_t> rowsWithinKeyLimit(const std::vector<ColumnView>& keys,
                                         std::span<const uint32_t> rows, uint64_t offset,
                                         uint64_t limit)
{
    absl::flat_hash_map<std::string, uint64_t> seen;
    std::vector<uint32_t> kept;
    std::string key;
    for (const uint32_t row : rows)
    {
        key.clear();
        for (const ColumnView& column : keys)
        {
            appendRowKey(column, row, key);
        }
        const uint64_t occurrence = seen[key]++;
        if (occurrence >= offset && occurrence - offset < limit)
        {
            kept.push_back(row);
        }
    }
    return kept;
}

}  // namespace granary
