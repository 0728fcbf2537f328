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

/// The rows bound for one rank, gathered fragment by fragment into blocks of at most
/// kMessageBytes, each serialized once full.
class MessageBuilder
{
public:
    explicit MessageBuilder(std::vector<std::string>& messages) : messages_(messages) {}

    /// Takes row `row` of `fragment`, of `bytes` serialized bytes.
    void add(const Block& fragment, uint32_t row, size_t bytes)
    {
        if (bytes_ + bytes > kMessageBytes && bytes_ > 0)
        {
            flush(fragment);
        }
        rows_.push_back(row);
        bytes_ += bytes;
    }
    /// Moves the rows taken from `fragment` into the pending block (before the fragment goes).
    void endFragment(const Block& fragment)
    {
        if (rows_.empty())
        {
            return;
        }
        gatherBlockRows(fragment, rows_, pending_);
        rows_.clear();
    }
    /// Serializes what is pending (`fragment`: the one rows are being taken from).
    void flush(const Block& fragment)
    {
        endFragment(fragment);
        if (pending_.rows() > 0)
        {
            messages_.push_back(serializeBlock(pending_));
        }
        pending_ = Block();
        bytes_ = 0;
    }

private:
    std::vector<std::string>& messages_;
    Block pending_;
    std::vector<uint32_t> rows_;
    size_t bytes_ = 0;
};

}  // namespace

std::vector<std::vector<std::string>> routeStates(const std::vector<Block>& fragments, size_t keys,
                                                  size_t ranks)
{
    std::vector<std::vector<std::string>> messages(ranks);
    std::vector<MessageBuilder> builders;
    for (std::vector<std::string>& destination : messages)
    {
        builders.emplace_back(destination);
    }
    for (const Block& fragment : fragments)
    {
        const std::vector<size_t> destinations = destinationsOf(fragment, keys, ranks);
        for (size_t row = 0; row < fragment.rows(); ++row)
        {
            builders[destinations[row]].add(fragment, static_cast<uint32_t>(row),
                                            serializedRowBytes(fragment, row));
        }
        for (MessageBuilder& builder : builders)
        {
            builder.endFragment(fragment);
        }
    }
    for (MessageBuilder& builder : builders)
    {
        builder.flush(Block());
    }
    return messages;
}

}  // namespace granary::distributed
