#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/storage/encoding/column_block.h"

namespace granary
{

/// One column of a part in the encoded layout: one block per granule (encoding/column_block.h)
/// in `c<i>.blocks`, the granules + 1 block offsets in `c<i>.index` (uint64), and for a string
/// column the part's dictionary in `c<i>.dict` (entry count, count + 1 uint64 offsets, bytes).
/// Reads decode whole granules into the caller's column, so scans reuse their buffers.
class EncodedColumn
{
public:
    /// Rows per block: the part's granule (part_files.cpp checks that they agree).
    static constexpr size_t kBlockRows = 8192;

    /// Views of the mapped files, which must outlive this object. Checks the index and the
    /// dictionary's layout now, the blocks as they are read; every problem is
    /// Exception(kCorruptedData) naming the file (and the granule).
    EncodedColumn(const std::filesystem::path& blocks_file, size_t rows, std::string_view blocks,
                  std::string_view index, std::string_view dictionary);

    /// Appends the rows of granules [first_granule, first_granule + granules) to `out`.
    void read(size_t first_granule, size_t granules, Column& out) const;
    /// Appends rows `rows` (ascending, within the granule) of one granule to `out`; `scratch`
    /// (of the column's type) takes blocks that must be decoded whole.
    void gather(size_t granule, std::span<const uint32_t> rows, Column& scratch, Column& out) const;
    /// When every block of granules [first_granule, first_granule + granules) is coded
    /// against the part's dictionary, appends their codes to `codes` (a UInt32 column) and
    /// returns true; else returns false, `codes` holding an unspecified prefix of them.
    bool readCodes(size_t first_granule, size_t granules, Column& codes) const;
    /// A string column's dictionary (no entries for other columns).
    const ColumnView& dictionary() const { return dictionary_; }
    /// Bytes those granules take on disk.
    size_t bytes(size_t first_granule, size_t granules) const;

private:
    /// Decodes one granule's block, naming the file and the granule in corruption errors.
    void decode(size_t granule, Column& out, const encoding::BlockSelection* selection) const;
    /// Calls `decode_block(block bytes, rows)`, naming the file and the granule in corruption
    /// errors.
    template <typename DecodeBlock>
    auto decodeGranule(size_t granule, DecodeBlock decode_block) const;

    std::filesystem::path blocks_file_;
    size_t rows_;
    size_t granules_;
    std::string_view blocks_;
    const uint64_t* block_offsets_;
    ColumnView dictionary_;
};

}  // namespace granary
