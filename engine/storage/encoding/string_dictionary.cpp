#include "engine/storage/encoding/string_dictionary.h"

#include "engine/storage/encoding/packed_ints.h"

namespace granary::encoding
{
namespace
{

/// What an entry costs in the dictionary besides its bytes: its offset.
constexpr size_t kEntryOverheadBytes = sizeof(uint64_t);
/// A block adding at most one new string per this many rows is coded whatever its own bytes
/// say: the part's later blocks reuse the entries (the first blocks of a low-cardinality
/// column add most of them), and scans filter coded blocks by code.
constexpr size_t kFewNewStringsRowsPerString = 4;

}  // namespace

std::optional<std::vector<uint64_t>> StringDictionaryBuilder::tryCode(const ColumnView& rows,
                                                                      size_t plain_bytes)
{
    std::vector<uint64_t> codes(rows.rows);
    // The block's strings not yet in the dictionary, with the codes they would get.
    absl::flat_hash_map<std::string_view, uint32_t> added;
    std::vector<std::string_view> added_order;
    size_t added_bytes = 0;
    // A row equal to the one before takes its code unhashed: low-cardinality columns repeat
    // (SearchPhrase is mostly empty strings).
    std::optional<std::string_view> previous;
    for (size_t row = 0; row < rows.rows; ++row)
    {
        const std::string_view value = rows.stringAt(row);
        if (previous == value)
        {
            codes[row] = codes[row - 1];
            continue;
        }
        previous = value;
        if (const auto known = codes_.find(value); known != codes_.end())
        {
            codes[row] = known->second;
            continue;
        }
        const auto [slot, inserted] = added.try_emplace(value, uint32_t(size() + added.size()));
        if (inserted)
        {
            added_order.push_back(value);
            added_bytes += value.size() + kEntryOverheadBytes;
            // Mostly new strings: the column is of high cardinality here.
            if (2 * added.size() > rows.rows)
            {
                return std::nullopt;
            }
        }
        codes[row] = slot->second;
    }
    if (size() + added.size() > kMaxEntries || bytes_ + added_bytes > kMaxBytes)
    {
        return std::nullopt;
    }
    const bool few_new = added.size() * kFewNewStringsRowsPerString <= rows.rows;
    const PackedInts frame = PackedInts::frameOf(codes, false);
    if (!few_new && added_bytes + frame.serializedBytes(codes.size()) >= plain_bytes)
    {
        return std::nullopt;
    }
    for (const std::string_view value : added_order)
    {
        codes_.emplace(std::string(value), uint32_t(size()));
        entries_.appendString(value);
        bytes_ += value.size();
    }
    return codes;
}

}  // namespace granary::encoding
