#include "engine/storage/encoded_column.h"

#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/common/exception.h"
#include "engine/storage/column_files.h"
#include "engine/storage/encoding/column_block.h"
#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

constexpr size_t kBlockRows = EncodedColumn::kBlockRows;

ColumnView parseDictionary(const std::filesystem::path& file, std::string_view bytes)
{
    if (bytes.empty())
    {
        return ColumnView::ofStrings(nullptr, nullptr, 0);
    }
    uint64_t entries = 0;
    if (bytes.size() < sizeof(entries))
    {
        corruptedPartFile(file, "cut short");
    }
    std::memcpy(&entries, bytes.data(), sizeof(entries));
    const size_t offsets_bytes = (bytes.size() - sizeof(entries)) / sizeof(uint64_t);
    if (entries >= offsets_bytes)
    {
        corruptedPartFile(file, "cut short");
    }
    const auto* offsets = reinterpret_cast<const uint64_t*>(bytes.data() + sizeof(entries));
    const size_t chars_start = sizeof(entries) + (entries + 1) * sizeof(uint64_t);
    checkStringOffsets(file, offsets, entries);
    if (offsets[entries] != bytes.size() - chars_start)
    {
        corruptedPartFile(file, "offsets do not match its bytes");
    }
    return ColumnView::ofStrings(bytes.data() + chars_start, offsets, entries);
}

class EncodedColumnWriter final : public ColumnFilesWriter
{
public:
    EncodedColumnWriter(const std::filesystem::path& directory, size_t column, TypeId type,
                        const encoding::CodecChoice& codec)
        : directory_(directory),
          column_(column),
          codec_(codec),
          blocks_(directory / columnFileName(column, ".blocks")),
          pending_(type)
    {
        if (isString(type))
        {
            dictionary_.emplace();
        }
        block_offsets_.push_back(0);
    }

    void append(const ColumnView& view) override
    {
        size_t begin = 0;
        if (pending_.size() > 0)
        {
            begin = std::min(view.rows, kBlockRows - pending_.size());
            pending_.appendRange(view, 0, begin);
            if (pending_.size() == kBlockRows)
            {
                writeBlock(pending_.view());
                pending_.clear();
            }
        }
        for (; begin + kBlockRows <= view.rows; begin += kBlockRows)
        {
            writeBlock(view.slice(begin, kBlockRows));
        }
        if (begin < view.rows)
        {
            pending_.appendRange(view, begin, view.rows - begin);
        }
    }

    std::vector<WrittenFile> close() override
    {
        if (pending_.size() > 0)
        {
            writeBlock(pending_.view());
            pending_.clear();
        }
        blocks_.close();
        std::vector<WrittenFile> written{
            {columnFileName(column_, ".blocks"), blocks_.size(), blocks_.checksum()}};
        written.push_back(
            writeFile(".index", {{reinterpret_cast<const char*>(block_offsets_.data()),
                                  block_offsets_.size() * sizeof(uint64_t)}}));
        if (dictionary_)
        {
            const ColumnView entries = dictionary_->values().view();
            const uint64_t count = entries.rows;
            written.push_back(writeFile(
                ".dict",
                {{reinterpret_cast<const char*>(&count), sizeof(count)},
                 {reinterpret_cast<const char*>(entries.offsets), (count + 1) * sizeof(uint64_t)},
                 {entries.chars, size_t(entries.offsets[count])}}));
        }
        return written;
    }

private:
    void writeBlock(const ColumnView& rows)
    {
        block_.clear();
        encoding::encodeBlock(rows, codec_, dictionary_ ? &*dictionary_ : nullptr, scratch_,
                              block_);
        blocks_.append(block_);
        block_offsets_.push_back(blocks_.size());
    }

    WrittenFile writeFile(std::string_view suffix,
                          std::initializer_list<std::span<const char>> pieces)
    {
        const std::string name = columnFileName(column_, suffix);
        ChecksummedFileWriter file(directory_ / name);
        for (const std::span<const char> piece : pieces)
        {
            file.append(piece);
        }
        file.close();
        return {name, file.size(), file.checksum()};
    }

    std::filesystem::path directory_;
    size_t column_;
    encoding::CodecChoice codec_;
    ChecksummedFileWriter blocks_;
    std::vector<uint64_t> block_offsets_;
    /// Rows of a granule not yet complete.
    Column pending_;
    std::optional<encoding::StringDictionaryBuilder> dictionary_;
    encoding::EncodeScratch scratch_;
    std::string block_;
};

}  // namespace

std::unique_ptr<ColumnFilesWriter> makeEncodedColumnWriter(const std::filesystem::path& directory,
                                                           size_t column, TypeId type,
                                                           const encoding::CodecChoice& codec)
{
    return std::make_unique<EncodedColumnWriter>(directory, column, type, codec);
}

EncodedColumn::EncodedColumn(const std::filesystem::path& blocks_file, size_t rows,
                             std::string_view blocks, std::string_view index,
                             std::string_view dictionary)
    : blocks_file_(blocks_file),
      rows_(rows),
      granules_((rows + kBlockRows - 1) / kBlockRows),
      blocks_(blocks),
      block_offsets_(reinterpret_cast<const uint64_t*>(index.data()))
{
    std::filesystem::path index_file = blocks_file;
    index_file.replace_extension(".index");
    if (index.size() != (granules_ + 1) * sizeof(uint64_t))
    {
        corruptedPartFile(index_file, "has " + std::to_string(index.size()) + " bytes for " +
                                          std::to_string(granules_) + " granules");
    }
    if (block_offsets_[0] != 0 || block_offsets_[granules_] != blocks.size())
    {
        corruptedPartFile(index_file, "does not span the blocks");
    }
    for (size_t granule = 0; granule < granules_; ++granule)
    {
        if (block_offsets_[granule + 1] <= block_offsets_[granule])
        {
            corruptedPartFile(index_file, "block offsets do not increase");
        }
    }
    std::filesystem::path dictionary_file = blocks_file;
    dictionary_file.replace_extension(".dict");
    dictionary_ = parseDictionary(dictionary_file, dictionary);
}

void EncodedColumn::read(size_t first_granule, size_t granules, Column& out) const
{
    for (size_t granule = first_granule; granule < first_granule + granules; ++granule)
    {
        decode(granule, out, nullptr);
    }
}

void EncodedColumn::gather(size_t granule, std::span<const uint32_t> rows, Column& scratch,
                           Column& out) const
{
    const encoding::BlockSelection selection{rows, scratch};
    decode(granule, out, &selection);
}

template <typename DecodeBlock>
auto EncodedColumn::decodeGranule(size_t granule, DecodeBlock decode_block) const
{
    const size_t begin = block_offsets_[granule];
    const size_t rows = std::min(kBlockRows, rows_ - granule * kBlockRows);
    try
    {
        return decode_block(blocks_.substr(begin, block_offsets_[granule + 1] - begin), rows);
    }
    catch (const Exception& error)
    {
        if (error.code() != ErrorCode::kCorruptedData &&
            error.code() != ErrorCode::kUnknownCompressionMethod)
        {
            throw;
        }
        corruptedPartFile(blocks_file_, "granule " + std::to_string(granule) + ": " + error.what());
    }
}

void EncodedColumn::decode(size_t granule, Column& out,
                           const encoding::BlockSelection* selection) const
{
    decodeGranule(granule, [&](std::string_view block, size_t rows)
                  { encoding::decodeBlock(block, rows, dictionary_, out, selection); });
}

bool EncodedColumn::readCodes(size_t first_granule, size_t granules, Column& codes) const
{
    for (size_t granule = first_granule; granule < first_granule + granules; ++granule)
    {
        const bool coded = decodeGranule(granule,
                                         [&](std::string_view block, size_t rows)
                                         {
                                             const size_t old_rows = codes.size();
                                             codes.resizeFixedUninitialized(old_rows + rows);
                                             return encoding::decodeDictionaryCodes(
                                                 block, rows, dictionary_.rows,
                                                 codes.mutableData<uint32_t>() + old_rows);
                                         });
        if (!coded)
        {
            return false;
        }
    }
    return true;
}

size_t EncodedColumn::bytes(size_t first_granule, size_t granules) const
{
    return block_offsets_[first_granule + granules] - block_offsets_[first_granule];
}

}  // namespace granary
