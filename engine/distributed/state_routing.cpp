#include "engine/distributed/state_routing.h"

#include <cstdint>

#include "engine/aggregation/state_bucket.h"
#include "engine/columns/gather.h"
#include "engine/distributed/block_wire.h"

namespace granary::distributed
{
namespace
{

std::vector<size_t> destinationsOf(const Block& fragment, size_t keys, size_t ranks)
{
    std::vector<size_t> destinations(fragment.rows(), 0);
    if (keys == 0)
    {
        return destinations;
    }
    std::vector<ColumnView> key_views;
    for (size_t k = 0; k < keys; ++k)
    {
        key_views.push_back(fragment.columns[k].column.view());
    }
    for (size_t row = 0; row < fragment.rows(); ++row)
    {
        destinations[row] = partialStateBucket(key_views, row) % ranks;
    }
    return destinations;
}

std::string serializeRows(const Block& fragment, std::span<const uint32_t> rows)
{
    Block message;
    for (const Block::Entry& entry : fragment.columns)
    {
        Column column(entry.column.type());
        gatherRows(entry.column.view(), 0, rows, column);
        message.columns.push_back({entry.name, std::move(column)});
    }
    return serializeBlock(message);
}

}  // namespace

std::vector<std::vector<std::string>> routeStates(const std::vector<Block>& fragments, size_t keys,
                                                  size_t ranks)
{
    std::vector<std::vector<std::string>> messages(ranks);
    for (const Block& fragment : fragments)
    {
        const std::vector<size_t> destinations = destinationsOf(fragment, keys, ranks);
        std::vector<std::vector<uint32_t>> rows(ranks);
        std::vector<size_t> bytes(ranks, 0);
        for (size_t row = 0; row < fragment.rows(); ++row)
        {
            const size_t to = destinations[row];
            const size_t row_bytes = serializedRowBytes(fragment, row);
            if (!rows[to].empty() && bytes[to] + row_bytes > kMessageBytes)
            {
                messages[to].push_back(serializeRows(fragment, rows[to]));
                rows[to].clear();
                bytes[to] = 0;
            }
            rows[to].push_back(static_cast<uint32_t>(row));
            bytes[to] += row_bytes;
        }
        for (size_t to = 0; to < ranks; ++to)
        {
            if (!rows[to].empty())
            {
                messages[to].push_back(serializeRows(fragment, rows[to]));
            }
        }
    }
    return messages;
}

}  // namespace granary::distributed
