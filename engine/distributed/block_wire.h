#pragma once

#include <string>
#include <string_view>

#include "engine/columns/block.h"

namespace granary::distributed
{

/// A block as bytes between ranks: what the exchange sends (partial states, result rows).
/// Little-endian; the columns' names, types, NULL bitmaps and values, strings as lengths then
/// bytes. Not a storage format: both ends run the same build.
std::string serializeBlock(const Block& block);

/// The block `bytes` holds. Exception(kIncorrectData) naming `origin` (which rank's message)
/// and the byte where the message is truncated, has bytes left over or names an unknown type.
Block deserializeBlock(std::string_view bytes, std::string_view origin);

/// Bytes serializeBlock would give row `row` of `block`, less the block's fixed overhead:
/// what a message is cut by.
size_t serializedRowBytes(const Block& block, size_t row);

}  // namespace granary::distributed
