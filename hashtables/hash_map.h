#pragma once

#include <string_view>
#include <type_traits>

#include "hashtables/cells.h"
#include "hashtables/fixed_hash_table.h"
#include "hashtables/grower.h"
#include "hashtables/hash.h"
#include "hashtables/hash_table.h"
#include "hashtables/packed_key.h"
#include "hashtables/string_hash_table.h"
#include "hashtables/two_level_hash_table.h"

namespace granary
{

/// The hash policy that suits each key kind.
template <typename Key, typename = void>
struct DefaultHash;
template <typename Key>
struct DefaultHash<Key, std::enable_if_t<std::is_integral_v<Key>>>
{
    using type = IntHash;
};
template <size_t Words>
struct DefaultHash<PackedKey<Words>>
{
    using type = PackedKeyHash;
};
template <>
struct DefaultHash<std::string_view>
{
    using type = StringHash;
};
template <typename Key>
using DefaultHash_t = typename DefaultHash<Key>::type;

/// Maps fill to 12 % up to 2^12 cells (512 keys) and then grow 4x, so a map of 513 to 2048
/// keys sits at 3-12 % load in 2^14 cells (256 KiB of 16-byte cells): nearly every lookup
/// finds its key at home. A map is one table per query and thread, where a cache-resident
/// lookup's speed matters more than a few hundred KiB; iterating it scans 4x more cells.
/// Sets keep the default: one per key in count(DISTINCT), where bytes per set matter.
using MapGrower = HashTableGrower<8, 50, 23, 12>;

/// Single-level map and set for fixed-width keys (integers, packed keys).
template <typename Key, typename Mapped, typename Hash = DefaultHash_t<Key>,
          typename Grower = MapGrower>
using HashMap = HashTable<HashMapCell<Key, Mapped, Hash>, Hash, Grower>;
template <typename Key, typename Hash = DefaultHash_t<Key>, typename Grower = HashTableGrower<>>
using HashSet = HashTable<HashSetCell<Key, Hash>, Hash, Grower>;

/// Buckets of a two-level table start at 16 cells (256 of them, times hundreds of partials,
/// must stay cheap), grow 2x and fill to 75%: two-level tables are the large ones, where
/// bytes per key decide whether the data fits in memory (~40 B/key for count(*) at 1e7
/// keys instead of ~100 with 4x growth at 50%).
using TwoLevelBucketGrower = HashTableGrower<4, 75, 0>;

template <typename Key, typename Mapped, typename Hash = DefaultHash_t<Key>,
          typename Grower = TwoLevelBucketGrower>
using TwoLevelHashMap = TwoLevelHashTable<HashMap<Key, Mapped, Hash, Grower>>;
template <typename Key, typename Hash = DefaultHash_t<Key>, typename Grower = TwoLevelBucketGrower>
using TwoLevelHashSet = TwoLevelHashTable<HashSet<Key, Hash, Grower>>;

/// Direct-mapped map and set for 8- and 16-bit keys.
template <typename Key, typename Mapped>
using FixedHashMap = FixedHashTable<Key, Mapped>;
template <typename Key>
using FixedHashSet = FixedHashTable<Key, void>;

/// String keys, dispatched by length.
template <typename Mapped>
using StringHashMap = StringHashTable<Mapped>;
using StringHashSet = StringHashTable<void>;
template <typename Mapped>
using TwoLevelStringHashMap = TwoLevelStringHashTable<Mapped, TwoLevelBucketGrower>;
using TwoLevelStringHashSet = TwoLevelStringHashTable<void, TwoLevelBucketGrower>;

}  // namespace granary
