#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alloc/arena.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/columns/internal/default_init_allocator.h"
#include "hashtables/hash_map.h"

namespace granary
{

/// Key methods: how the GROUP BY key columns become one hash-table key, and back. Each
/// method names its tables (Single, and TwoLevel where it has one), extracts the keys of a
/// batch of rows (`extract(first_row, count, scratch)` returns them: in `scratch`, or in place
/// where the column's values are the keys), and appends a key to the result's key columns. The
/// aggregator picks the cheapest method for the key column types (see chooseKeyMethod).
///
/// Mapped values are pointers to the group's aggregate states in the partial's arena, or, for
/// a lone count, the count itself (inline_count.h).
using StatePointer = char*;

/// Bits of a fixed-width value of `width` bytes (1, 2, 4 or 8), zero-extended.
inline uint64_t readBits(const char* value, size_t width)
{
    uint64_t bits = 0;
    std::memcpy(&bits, value, width);
    return bits;
}

/// Appends `count` keys that are the column's values as they are (one fixed-width key).
template <typename K>
void appendKeyValues(const K* keys, size_t count, Column& column)
{
    column.appendRange(ColumnView::of(column.type(), keys, count), 0, count);
}

/// One 8- or 16-bit key: a direct-mapped table, no hashing.
template <typename K>
struct FixedKeyMethod
{
    using Key = K;
    using Single = FixedHashMap<K, StatePointer>;
    static constexpr bool kHasTwoLevel = false;

    struct Extractor
    {
        explicit Extractor(const std::vector<ColumnView>& keys)
            : column(keys[0]),
              // Integer values are the keys as they are: read in place (an aligned array of
              // K or its signed twin). Floats are read through a copy, as their bits.
              in_place(column.type != TypeId::Float32 && column.type != TypeId::Float64 &&
                       reinterpret_cast<uintptr_t>(column.data) % alignof(K) == 0)
        {
        }
        const Key* extract(size_t first_row, size_t count, Key* scratch) const
        {
            if (in_place)
            {
                return static_cast<const K*>(column.data) + first_row;
            }
            std::memcpy(scratch, static_cast<const char*>(column.data) + first_row * sizeof(K),
                        count * sizeof(K));
            return scratch;
        }
        ColumnView column;
        bool in_place;
    };
    static std::unique_ptr<Single> makeSingle(Arena*) { return std::make_unique<Single>(); }
    static void appendKeys(const Key* keys, size_t count, std::vector<Column>& columns)
    {
        appendKeyValues(keys, count, columns[0]);
    }
};

/// One 32- or 64-bit key (integers, dates, floats by bit pattern).
template <typename K>
struct NumberKeyMethod
{
    using Key = K;
    using Single = HashMap<K, StatePointer>;
    using TwoLevel = TwoLevelHashMap<K, StatePointer>;
    static constexpr bool kHasTwoLevel = true;

    using Extractor = typename FixedKeyMethod<K>::Extractor;
    static std::unique_ptr<Single> makeSingle(Arena*) { return std::make_unique<Single>(); }
    static std::unique_ptr<TwoLevel> convert(const Single& single, Arena*)
    {
        return std::make_unique<TwoLevel>(single);
    }
    static void appendKeys(const Key* keys, size_t count, std::vector<Column>& columns)
    {
        appendKeyValues(keys, count, columns[0]);
    }
};

/// Calls f(std::integral_constant<size_t, W>) for a fixed width W of 1, 2, 4 or 8 bytes.
template <typename F>
decltype(auto) dispatchWidth(size_t width, F&& f)
{
    switch (width)
    {
        case 1:
            return f(std::integral_constant<size_t, 1>{});
        case 2:
            return f(std::integral_constant<size_t, 2>{});
        case 4:
            return f(std::integral_constant<size_t, 4>{});
        default:
            return f(std::integral_constant<size_t, 8>{});
    }
}

/// Writes the rows [first_row, first_row + count) of fixed-width `columns` side by side into
/// `out`'s keys, each zeroed first. A loop per column at its known width: copies of a width
/// known only at run time compile to a memcpy call per value.
template <typename Key>
void packKeyColumns(const std::vector<ColumnView>& columns, size_t first_row, size_t count,
                    Key* out)
{
    std::memset(static_cast<void*>(out), 0, count * sizeof(Key));
    char* keys = reinterpret_cast<char*>(out);
    size_t offset = 0;
    for (const ColumnView& column : columns)
    {
        const size_t width = fixedWidth(column.type);
        const char* values = static_cast<const char*>(column.data) + first_row * width;
        dispatchWidth(width,
                      [&]<size_t W>(std::integral_constant<size_t, W>)
                      {
                          for (size_t i = 0; i < count; ++i)
                          {
                              std::memcpy(keys + i * sizeof(Key) + offset, values + i * W, W);
                          }
                      });
        offset += width;
    }
}

/// The inverse of packKeyColumns: appends each key's values to the key columns.
template <typename Key>
void unpackKeyColumns(const Key* keys, size_t count, std::vector<Column>& columns)
{
    const char* bytes = reinterpret_cast<const char*>(keys);
    size_t offset = 0;
    for (Column& column : columns)
    {
        const size_t width = fixedWidth(column.type());
        const size_t first_row = column.size();
        column.resizeFixedUninitialized(first_row + count);
        char* values = column.mutableData<char>() + first_row * width;
        dispatchWidth(width,
                      [&]<size_t W>(std::integral_constant<size_t, W>)
                      {
                          for (size_t i = 0; i < count; ++i)
                          {
                              std::memcpy(values + i * W, bytes + i * sizeof(Key) + offset, W);
                          }
                      });
        offset += width;
    }
}

/// Several fixed-width keys packed side by side into one word (uint64_t: up to 8 bytes, which
/// hashes and compares as one integer) or a PackedKey of 16 or 32 bytes.
template <typename K>
struct PackedKeyMethod
{
    using Key = K;
    using Single = HashMap<Key, StatePointer>;
    using TwoLevel = TwoLevelHashMap<Key, StatePointer>;
    static constexpr bool kHasTwoLevel = true;

    struct Extractor
    {
        explicit Extractor(const std::vector<ColumnView>& keys) : columns(keys) {}
        const Key* extract(size_t first_row, size_t count, Key* out) const
        {
            packKeyColumns(columns, first_row, count, out);
            return out;
        }
        std::vector<ColumnView> columns;
    };
    static std::unique_ptr<Single> makeSingle(Arena*) { return std::make_unique<Single>(); }
    static std::unique_ptr<TwoLevel> convert(const Single& single, Arena*)
    {
        return std::make_unique<TwoLevel>(single);
    }
    static void appendKeys(const Key* keys, size_t count, std::vector<Column>& columns)
    {
        unpackKeyColumns(keys, count, columns);
    }
};

/// One String key: length-dispatched string tables; new long keys are copied into the
/// partial's arena.
struct StringKeyMethod
{
    using Key = std::string_view;
    using Single = StringHashMap<StatePointer>;
    using TwoLevel = TwoLevelStringHashMap<StatePointer>;
    static constexpr bool kHasTwoLevel = true;
    /// Bucket tasks copy new long keys into arenas of their own (CopyingKeysInto).

    struct Extractor
    {
        explicit Extractor(const std::vector<ColumnView>& keys) : column(keys[0]) {}
        const Key* extract(size_t first_row, size_t count, Key* out) const
        {
            for (size_t i = 0; i < count; ++i)
            {
                out[i] = column.stringAt(first_row + i);
            }
            return out;
        }
        ColumnView column;
    };
    static std::unique_ptr<Single> makeSingle(Arena* arena)
    {
        return std::make_unique<Single>(arena);
    }
    static std::unique_ptr<TwoLevel> convert(const Single& single, Arena* arena)
    {
        return std::make_unique<TwoLevel>(single, arena);
    }
    static void appendKey(const Key& key, std::vector<Column>& columns)
    {
        columns[0].appendString(key);
    }
};

/// The general fallback: each row's keys serialized into one byte string (fixed-width values
/// as their bytes, strings as a 4-byte length and the bytes; a last string column without its
/// length, which the key's own gives), kept in the string tables. (UInt64, '') is then 8 bytes,
/// which the string tables keep inline.
struct SerializedKeyMethod
{
    /// Bytes of the length before string column `column` of `columns`: none for the last.
    static size_t lengthPrefixBytes(size_t column, size_t columns)
    {
        return column + 1 == columns ? 0 : sizeof(uint32_t);
    }

    using Key = std::string_view;
    using Single = StringHashMap<StatePointer>;
    using TwoLevel = TwoLevelStringHashMap<StatePointer>;
    static constexpr bool kHasTwoLevel = true;
    /// Bucket tasks copy new long keys into arenas of their own (CopyingKeysInto).

    class Extractor
    {
    public:
        explicit Extractor(const std::vector<ColumnView>& keys) : columns_(keys) {}
        /// The keys point into a scratch buffer valid until the next extract().
        const Key* extract(size_t first_row, size_t count, Key* out);

    private:
        /// Sets ends_[i] to where key i ends and positions_[i] to where it starts, keys side
        /// by side; returns their bytes.
        size_t sizeKeys(size_t first_row, size_t count);

        std::vector<ColumnView> columns_;
        /// Every byte is written after it grows: no zeroing first.
        std::vector<char, internal::DefaultInitAllocator<char>> scratch_;
        std::vector<size_t> ends_;
        std::vector<size_t> positions_;  ///< Where each key's next value goes.
    };
    static std::unique_ptr<Single> makeSingle(Arena* arena)
    {
        return std::make_unique<Single>(arena);
    }
    static std::unique_ptr<TwoLevel> convert(const Single& single, Arena* arena)
    {
        return std::make_unique<TwoLevel>(single, arena);
    }
    /// Writes the keys' values column by column: each column grows once per batch, and
    /// fixed-width values are copied at their known width instead of through a call per value.
    static void appendKeys(const Key* keys, size_t count, std::vector<Column>& columns);
};

/// Which method suits the key column types.
enum class KeyMethodKind
{
    kNone,  ///< No GROUP BY keys.
    kFixed8,
    kFixed16,
    kNumber32,
    kNumber64,
    kPacked8,
    kPacked16,
    kPacked32,
    kString,
    kSerialized,
};

KeyMethodKind chooseKeyMethod(const std::vector<DataType>& key_types);
std::string_view keyMethodName(KeyMethodKind kind);

}  // namespace granary
