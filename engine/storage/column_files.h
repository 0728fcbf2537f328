#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/column_view.h"
#include "engine/columns/data_type.h"
#include "engine/storage/encoding/block_codec.h"

namespace granary
{

/// A file of a part as its metadata records it.
struct WrittenFile
{
    std::string name;
    uint64_t size = 0;
    uint64_t checksum = 0;
};

/// The files of one column of a part being written, fed the column's rows in the part's order
/// as consecutive views of any length.
class ColumnFilesWriter
{
public:
    virtual ~ColumnFilesWriter() = default;
    virtual void append(const ColumnView& view) = 0;
    /// Writes what is buffered and closes the files (not yet durable: the part syncs them all).
    virtual std::vector<WrittenFile> close() = 0;
};

/// `<prefix><index><suffix>`: the name of a file in a part's folder ("c3.bin", "k0.marks").
std::string partFileName(char prefix, size_t index, std::string_view suffix);
/// `c<column><suffix>`: a column's file.
inline std::string columnFileName(size_t column, std::string_view suffix)
{
    return partFileName('c', column, suffix);
}

/// Throws Exception(kCorruptedData) "corrupted part file '<file>': <problem>".
[[noreturn]] void corruptedPartFile(const std::filesystem::path& file, const std::string& problem);

/// Checks the count + 1 string offsets read from `file`: they start at 0 and never decrease
/// (kCorruptedData naming the file).
void checkStringOffsets(const std::filesystem::path& file, const uint64_t* offsets, size_t count);

/// The raw layout: `c<i>.bin` (fixed width), `c<i>.chars` + `c<i>.offsets` (rows + 1 uint64
/// offsets), or for Array and Map `c<i>.offsets` and each child's files under
/// rawChildStem (both part formats keep nested columns this way).
std::unique_ptr<ColumnFilesWriter> makeRawColumnWriter(const std::filesystem::path& directory,
                                                       size_t column, const DataType& type);
/// The stem of a nested column's child `child` in the raw layout: `c3.n0`, `c3.n1.n0`.
std::string rawChildStem(const std::string& stem, size_t child);

/// The encoded layout (encoded_column.h): `c<i>.blocks`, `c<i>.index` and, for strings,
/// `c<i>.dict`.
std::unique_ptr<ColumnFilesWriter> makeEncodedColumnWriter(const std::filesystem::path& directory,
                                                           size_t column, TypeId type,
                                                           const encoding::CodecChoice& codec);

}  // namespace granary
