#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "engine/aggregation/local_sink_state.h"
#include "engine/columns/block.h"
#include "engine/exec/query_context.h"

namespace granary
{

/// GROUP BY one key with count(DISTINCT x) of a fixed-width x as the only
/// aggregate, planned so that no set is ever merged. Workers route each row's key and x by
/// the hash of x to 256 buckets; one task per bucket then counts its distinct (key, x) pairs
/// per key. A value of x falls in one bucket only, so a key's counts over the buckets add up
/// to its distinct count: the buckets' counts are summed per key, by key-hash ranges in
/// parallel. A heavy key's rows spread over all buckets, and each bucket's pairs are a 256th
/// of the whole, near the caches, where one growing set per key is not (docs/aggregation.md).
/// Keys and values compare by their bit patterns widened to 64 bits, as GROUP BY number keys
/// and count(DISTINCT) sets do; String keys (`string_keys`) by the numbers each worker gives
/// its strings (KeyNumbering), made one numbering before the buckets are counted.
/// With a `mask_column` (UInt8), rows where it is 0 count no value, but their key is still a
/// group (of count 0 where no other row gives it one).
std::unique_ptr<LocalSinkState> makeValueRouter(size_t key_column, size_t value_column,
                                                std::optional<size_t> mask_column,
                                                bool string_keys);

/// Counts the distinct pairs the routers among `locals` (made by makeValueRouter) hold: the
/// result's key column (of `key_type`), then the counts.
Block countDistinctByValueBuckets(std::span<const std::unique_ptr<LocalSinkState>> locals,
                                  TypeId key_type, const std::string& key_name,
                                  const std::string& result_name, QueryContext& context);

}  // namespace granary
