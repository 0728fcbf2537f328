#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/columns/block.h"

namespace granary::distributed
{

/// A message of the state exchange holds rows of at most this many bytes (a larger row goes
/// alone), plus its block header: a round (one message per peer) then stays within about
/// ranks × this of memory at the receiver.
inline constexpr size_t kMessageBytes = 8 << 20;

/// The partial-state rows of `fragments` (their first `keys` columns the keys) by destination:
/// a row of bucket b (partialStateBucket) goes to rank b mod `ranks`, so that every rank
/// holds all the states of its buckets' keys; without keys, every row goes to rank 0. Each
/// destination's rows are cut into serialized blocks (block_wire.h) of at most kMessageBytes
/// of rows.
/// Returns `ranks` lists of messages, this rank's own included.
std::vector<std::vector<std::string>> routeStates(const std::vector<Block>& fragments, size_t keys,
                                                  size_t ranks);

}  // namespace granary::distributed
