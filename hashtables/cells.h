#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "hashtables/key_equality.h"

namespace granary
{

/// Cell policies. A cell holds one key (and for maps a mapped value). A cell whose key is the
/// zero value is empty: the table keeps the zero key in a separate cell outside the array, so
/// an array freshly zeroed by calloc is an empty table. Mapped values must be trivially
/// copyable; a new cell's mapped value starts as all-zero bytes.

template <typename Key>
struct ZeroKeyTraits
{
    static bool isZero(const Key& key) { return key == Key{}; }
};

template <>
struct ZeroKeyTraits<std::string_view>
{
    /// The empty string is the zero key; a zeroed string_view has size 0.
    static bool isZero(std::string_view key) { return key.empty(); }
};

/// Set cell: just the key; the hash is recomputed when needed (cheap for fixed-width keys).
template <typename KeyType, typename Hash>
struct HashSetCell
{
    using Key = KeyType;
    using Mapped = void;
    static constexpr bool kSavesHash = false;

    Key key_{};

    const Key& key() const { return key_; }
    void setKey(const Key& key, uint64_t /*hash*/) { key_ = key; }
    bool isZero() const { return ZeroKeyTraits<Key>::isZero(key_); }
    static bool isZeroKey(const Key& key) { return ZeroKeyTraits<Key>::isZero(key); }
    bool keyEquals(const Key& key, uint64_t /*hash*/) const { return keysEqual(key_, key); }
    uint64_t hash(const Hash& hasher) const { return hasher(key_); }
};

/// Set cell that stores its hash: comparisons check the hash before the (expensive) key bytes,
/// and resizes and conversions never rehash string bytes.
template <typename KeyType, typename Hash>
struct HashSetCellWithSavedHash : HashSetCell<KeyType, Hash>
{
    using Base = HashSetCell<KeyType, Hash>;
    static constexpr bool kSavesHash = true;

    uint64_t saved_hash_ = 0;

    void setKey(const KeyType& key, uint64_t hash)
    {
        Base::key_ = key;
        saved_hash_ = hash;
    }
    bool keyEquals(const KeyType& key, uint64_t hash) const
    {
        return saved_hash_ == hash && keysEqual(Base::key_, key);
    }
    uint64_t hash(const Hash& /*hasher*/) const { return saved_hash_; }
};

/// Map cell: a set cell plus the mapped value.
template <typename SetCell, typename MappedType>
struct MapCellOf : SetCell
{
    static_assert(std::is_trivially_copyable_v<MappedType>,
                  "mapped values live in zero-initialised memory and are moved by memcpy");
    using Mapped = MappedType;

    MappedType mapped_{};

    MappedType& mapped() { return mapped_; }
    const MappedType& mapped() const { return mapped_; }
};

template <typename Key, typename Mapped, typename Hash>
using HashMapCell = MapCellOf<HashSetCell<Key, Hash>, Mapped>;

template <typename Key, typename Mapped, typename Hash>
using HashMapCellWithSavedHash = MapCellOf<HashSetCellWithSavedHash<Key, Hash>, Mapped>;

/// Picks the set or map cell for `Mapped` (void means a set).
template <typename Key, typename Mapped, typename Hash, bool SaveHash>
struct CellFor
{
    using Set =
        std::conditional_t<SaveHash, HashSetCellWithSavedHash<Key, Hash>, HashSetCell<Key, Hash>>;
    using type = MapCellOf<Set, Mapped>;
};

template <typename Key, typename Hash, bool SaveHash>
struct CellFor<Key, void, Hash, SaveHash>
{
    using type =
        std::conditional_t<SaveHash, HashSetCellWithSavedHash<Key, Hash>, HashSetCell<Key, Hash>>;
};

template <typename Key, typename Mapped, typename Hash, bool SaveHash = false>
using CellFor_t = typename CellFor<Key, Mapped, Hash, SaveHash>::type;

}  // namespace granary
