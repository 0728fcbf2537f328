#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"

namespace granary::encoding
{

/// The dictionary of one string column of a part, grown block by block as the part is
/// written: a block is coded against it only when that is smaller than storing its strings,
/// so high-cardinality columns never fill it.
class StringDictionaryBuilder
{
public:
    /// Bounds on one part's dictionary: past them, blocks store their strings.
    static constexpr size_t kMaxEntries = size_t(1) << 20;
    static constexpr size_t kMaxBytes = size_t(32) << 20;

    /// The codes of `rows` (a whole block) when coding them against the dictionary, grown by
    /// the block's new strings, costs fewer bytes than `plain_bytes`; else nothing, and the
    /// dictionary is unchanged.
    std::optional<std::vector<uint64_t>> tryCode(const ColumnView& rows, size_t plain_bytes);

    size_t size() const { return entries_.size(); }
    /// The entries, in code order.
    const Column& values() const { return entries_; }

private:
    /// Looks std::string keys up by std::string_view.
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view value) const { return absl::HashOf(value); }
    };
    struct Equal
    {
        using is_transparent = void;
        bool operator()(std::string_view left, std::string_view right) const
        {
            return left == right;
        }
    };

    absl::flat_hash_map<std::string, uint32_t, Hash, Equal> codes_;
    Column entries_{TypeId::String};
    size_t bytes_ = 0;  ///< Of the entries' strings.
};

}  // namespace granary::encoding
