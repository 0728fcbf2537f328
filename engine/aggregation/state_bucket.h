#pragma once

#include <cstdint>
#include <span>

#include "engine/columns/column_view.h"

namespace granary
{

/// The bucket (0..255) of a partial-state row, from its key values alone, so that every
/// process puts a key's states in the same bucket: an importer can take a subset of buckets
/// (bucket b on node b mod N) and have every state of its keys. Part of the partial-state
/// format (version 1, docs/embedding.md): each key's 64-bit value (its bit pattern widened,
/// FNV-1a of a string's bytes, a constant for NULL) is folded into a running hash with a
/// multiply-xorshift mix; the bucket is the hash's top byte.
uint8_t partialStateBucket(std::span<const ColumnView> keys, size_t row);

}  // namespace granary
