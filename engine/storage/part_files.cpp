#include "engine/storage/part_files.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <tuple>

#include "engine/common/exception.h"
#include "engine/exec/executor.h"
#include "engine/storage/column_files.h"
#include "engine/storage/storage_files.h"
#include "engine/storage/validity_file.h"

namespace granary
{
namespace
{

/// 1: raw columns only; 2: the metadata names the columns' layout (raw or encoded).
constexpr int kFormatVersion = 2;
constexpr const char* kMetadataFile = "metadata.json";

std::string marksFile(size_t key)
{
    return partFileName('k', key, ".marks");
}

std::span<const char> fixedBytes(const ColumnView& view)
{
    return {static_cast<const char*>(view.data), view.rows * fixedWidth(view.type)};
}

std::span<const char> offsetBytes(const ColumnView& view)
{
    return {reinterpret_cast<const char*>(view.offsets), (view.rows + 1) * sizeof(uint64_t)};
}

std::span<const char> charBytes(const ColumnView& view)
{
    return {view.chars, static_cast<size_t>(view.offsets[view.rows])};
}

/// Parses a column of `rows` values of `type` laid out as writePartFiles lays out marks,
/// starting at `offset` of `bytes`; advances offset. Throws through `corruptedPartFile`.
Column parseColumn(const std::filesystem::path& file, std::string_view bytes, size_t& offset,
                   TypeId type, size_t rows)
{
    Column column(type);
    auto take = [&](size_t size)
    {
        if (size > bytes.size() - offset)
        {
            corruptedPartFile(file, "shorter than its contents");
        }
        const char* start = bytes.data() + offset;
        offset += size;
        return start;
    };
    if (!isString(type))
    {
        column.resizeFixed(rows);
        const size_t size = rows * fixedWidth(type);
        if (size > 0)
        {
            std::memcpy(column.mutableData<char>(), take(size), size);
        }
        return column;
    }
    std::vector<uint64_t> offsets(rows + 1);
    std::memcpy(offsets.data(), take(offsets.size() * sizeof(uint64_t)),
                offsets.size() * sizeof(uint64_t));
    checkStringOffsets(file, offsets.data(), rows);
    const char* chars = take(offsets[rows]);
    for (size_t row = 0; row < rows; ++row)
    {
        column.appendString({chars + offsets[row], offsets[row + 1] - offsets[row]});
    }
    return column;
}

struct FileRecord
{
    uint64_t size;
    uint64_t checksum;
};

/// The part's metadata.json, each file named by it checked for presence and size.
struct PartMetadata
{
    size_t rows = 0;
    PartFormat format = PartFormat::kRaw;
    std::map<std::string, FileRecord> files;

    static PartMetadata read(const std::filesystem::path& directory)
    {
        const std::filesystem::path path = directory / kMetadataFile;
        PartMetadata metadata;
        try
        {
            const nlohmann::json json = nlohmann::json::parse(readWholeFile(path));
            const int version = json.at("format_version").get<int>();
            if (version < 1 || version > kFormatVersion)
            {
                corruptedPartFile(path, "format version " + std::to_string(version) +
                                            " is not one this version reads (1 to " +
                                            std::to_string(kFormatVersion) + ")");
            }
            metadata.rows = json.at("rows").get<size_t>();
            if (version >= 2)
            {
                metadata.format = partFormatFromName(json.at("storage_format").get<std::string>());
            }
            for (const auto& [name, record] : json.at("files").items())
            {
                metadata.files[name] = {record.at("size").get<uint64_t>(),
                                        record.at("checksum").get<uint64_t>()};
            }
        }
        catch (const nlohmann::json::exception& error)
        {
            corruptedPartFile(path, error.what());
        }
        catch (const Exception& error)
        {
            if (error.code() == ErrorCode::kCorruptedData)
            {
                throw;
            }
            corruptedPartFile(path, error.what());
        }
        return metadata;
    }

    const FileRecord& record(const std::filesystem::path& directory, const std::string& name) const
    {
        const auto found = files.find(name);
        if (found == files.end())
        {
            corruptedPartFile(directory / kMetadataFile, "does not list " + name);
        }
        return found->second;
    }

    /// Maps the file, checking its size against the metadata and `expected_size` (when set).
    MappedFile map(const std::filesystem::path& directory, const std::string& name,
                   std::optional<uint64_t> expected_size) const
    {
        const FileRecord& file = record(directory, name);
        if (expected_size && *expected_size != file.size)
        {
            corruptedPartFile(directory / kMetadataFile, "wrong size recorded for " + name);
        }
        MappedFile mapped(directory / name);
        if (mapped.size() != file.size)
        {
            corruptedPartFile(directory / name, "has " + std::to_string(mapped.size()) +
                                                    " bytes instead of " +
                                                    std::to_string(file.size));
        }
        return mapped;
    }
};

void verifyChecksum(const std::filesystem::path& file, const MappedFile& mapped, uint64_t expected)
{
    if (fileChecksum(mapped.data(), mapped.size()) != expected)
    {
        corruptedPartFile(file, "checksum mismatch");
    }
}

/// Rows are gathered and written this many at a time: the buffers stay in cache and are
/// reused, and whole granules keep the bounds appendable chunk by chunk.
constexpr size_t kWriteChunkRows = 2 * Part::kGranuleRows;

}  // namespace

/// The files of a part being written: one writer per column and the granule bounds of the
/// sort-key columns; finish() writes the marks and the metadata, all durably.
class PartFilesWriter
{
public:
    PartFilesWriter(const TableSchema& schema, const std::filesystem::path& directory)
        : directory_(directory),
          format_(schema.part_format),
          key_columns_(schema.sortKeyColumns()),
          key_of_column_(schema.columns.size())
    {
        for (size_t key = 0; key < key_columns_.size(); ++key)
        {
            key_of_column_[key_columns_[key]] = key;
            granule_min_.emplace_back(schema.columns[key_columns_[key]].type);
            granule_max_.emplace_back(schema.columns[key_columns_[key]].type);
        }
        for (size_t index = 0; index < schema.columns.size(); ++index)
        {
            const ColumnSchema& column = schema.columns[index];
            std::unique_ptr<ColumnFilesWriter> values =
                format_ == PartFormat::kRaw || isNested(column.type.id)
                    ? makeRawColumnWriter(directory, index, column.type)
                    : makeEncodedColumnWriter(directory, index, column.type.id, column.codec);
            columns_.push_back(column.type.nullable
                                   ? makeNullableColumnWriter(directory, index, std::move(values))
                                   : std::move(values));
        }
    }

    /// The next rows of column `index` (views of whole granules but for the last one); a
    /// sort-key column's granule bounds are taken on the way.
    void append(size_t index, const ColumnView& view)
    {
        if (const std::optional<size_t> key = key_of_column_[index])
        {
            computeGranuleBounds(view, granule_min_[*key], granule_max_[*key]);
        }
        columns_[index]->append(view);
    }

    void finish(size_t rows)
    {
        nlohmann::json files = nlohmann::json::object();
        auto record = [&](const std::string& name, const FileRecord& file) {
            files[name] = {{"size", file.size}, {"checksum", file.checksum}};
        };
        for (const std::unique_ptr<ColumnFilesWriter>& column : columns_)
        {
            for (const WrittenFile& file : column->close())
            {
                record(file.name, {file.size, file.checksum});
            }
        }
        for (size_t key = 0; key < key_columns_.size(); ++key)
        {
            ChecksummedFileWriter marks(directory_ / marksFile(key));
            for (const Column* bounds : {&granule_min_[key], &granule_max_[key]})
            {
                const ColumnView view = bounds->view();
                if (isString(view.type))
                {
                    marks.append(offsetBytes(view));
                    marks.append(charBytes(view));
                }
                else
                {
                    marks.append(fixedBytes(view));
                }
            }
            marks.close();
            record(marksFile(key), {marks.size(), marks.checksum()});
        }
        // All files were written before the first fsync, so the disk worked on them while
        // the next ones were written.
        for (const auto& [name, file] : files.items())
        {
            syncFile(directory_ / name);
        }
        const nlohmann::json metadata = {{"format_version", kFormatVersion},
                                         {"rows", rows},
                                         {"storage_format", partFormatName(format_)},
                                         {"files", files}};
        const std::string text = metadata.dump(1);
        writeFileDurably(directory_ / kMetadataFile, {std::span<const char>(text)});
        syncDirectory(directory_);
    }

private:
    std::filesystem::path directory_;
    PartFormat format_;
    std::vector<size_t> key_columns_;
    std::vector<std::optional<size_t>> key_of_column_;
    std::vector<Column> granule_min_;
    std::vector<Column> granule_max_;
    std::vector<std::unique_ptr<ColumnFilesWriter>> columns_;
};

namespace
{

void forEachColumn(size_t columns, bool parallel, const std::function<void(size_t)>& body)
{
    if (parallel)
    {
        Executor::forEachNested(columns, body);
        return;
    }
    for (size_t index = 0; index < columns; ++index)
    {
        body(index);
    }
}

}  // namespace

void writePartFiles(const SortedRows& rows, const TableSchema& schema,
                    const std::filesystem::path& directory, bool parallel)
{
    PartFilesWriter writer(schema, directory);
    forEachColumn(schema.columns.size(), parallel,
                  [&](size_t index)
                  {
                      // Each chunk of rows is the source rows themselves when they are in order
                      // in one piece, else gathered into a reused buffer.
                      Column chunk(schema.columns[index].type);
                      for (size_t begin = 0; begin < rows.rows(); begin += kWriteChunkRows)
                      {
                          const size_t end = std::min(rows.rows(), begin + kWriteChunkRows);
                          std::optional<ColumnView> view = rows.inPlace(index, begin, end);
                          if (!view)
                          {
                              rows.gather(index, begin, end, chunk);
                              view = chunk.view();
                          }
                          writer.append(index, *view);
                      }
                  });
    writer.finish(rows.rows());
}

SortedPartWriter::SortedPartWriter(const TableSchema& schema,
                                   const std::filesystem::path& directory)
    : schema_(schema), writer_(std::make_unique<PartFilesWriter>(schema, directory))
{
}

SortedPartWriter::~SortedPartWriter() = default;

void SortedPartWriter::append(const std::vector<ColumnView>& columns, bool parallel)
{
    const size_t rows = columns.empty() ? 0 : columns.front().rows;
    if (rows == 0)
    {
        return;
    }
    if (rows_ % Part::kGranuleRows != 0)
    {
        throw Exception(ErrorCode::kLogicalError,
                        "rows appended to a sorted part after a piece of partial granules");
    }
    std::vector<ColumnView> keys;
    for (const size_t index : schema_.sortKeyColumns())
    {
        keys.push_back(columns[index]);
    }
    if (!inKeyOrder(last_keys_.empty()
                        ? std::vector<std::vector<ColumnView>>{keys}
                        : std::vector<std::vector<ColumnView>>{lastKeyViews(), keys}))
    {
        throw Exception(ErrorCode::kBadArguments,
                        "rows appended to a sorted part are not in the "
                        "order of the sort key");
    }
    forEachColumn(columns.size(), parallel,
                  [&](size_t index)
                  {
                      for (size_t begin = 0; begin < rows; begin += kWriteChunkRows)
                      {
                          writer_->append(
                              index,
                              columns[index].slice(begin, std::min(rows - begin, kWriteChunkRows)));
                      }
                  });
    last_keys_.clear();
    for (const ColumnView& key : keys)
    {
        Column& last = last_keys_.emplace_back(key.type);
        last.appendRange(key, rows - 1, 1);
    }
    rows_ += rows;
}

void SortedPartWriter::finish()
{
    writer_->finish(rows_);
}

std::vector<ColumnView> SortedPartWriter::lastKeyViews() const
{
    std::vector<ColumnView> views;
    for (const Column& key : last_keys_)
    {
        views.push_back(key.view());
    }
    return views;
}

namespace
{

/// Maps the raw layout's files of a column (or of a nested column's child) under `stem`: the
/// view of its `rows` rows, recursing into children. `map` maps one file (an expected size, or
/// nullopt), recording it; `bytes` adds up their sizes.
class RawColumnMapper
{
public:
    using MapFile = std::function<std::string_view(const std::string&, std::optional<uint64_t>)>;

    RawColumnMapper(const std::filesystem::path& directory, MapFile map, PartContents& contents)
        : directory_(directory), map_(std::move(map)), contents_(contents)
    {
    }

    size_t bytes() const { return bytes_; }

    ColumnView view(const std::string& stem, const DataType& type, size_t rows)
    {
        if (!hasOffsets(type.id))
        {
            const std::string_view values = mapFile(stem + ".bin", rows * fixedWidth(type.id));
            ColumnView view{type.id, rows, values.data(), nullptr, nullptr};
            view.precision = type.precision;
            return view;
        }
        const std::string offsets_name = stem + ".offsets";
        const std::string_view offsets = mapFile(offsets_name, (rows + 1) * sizeof(uint64_t));
        const auto* offset_values = reinterpret_cast<const uint64_t*>(offsets.data());
        if (offset_values[0] != 0)
        {
            corruptedPartFile(directory_ / offsets_name, "offsets do not start at 0");
        }
        if (isString(type.id))
        {
            const std::string chars_name = stem + ".chars";
            const std::string_view chars = mapFile(chars_name, std::nullopt);
            if (offset_values[rows] != chars.size())
            {
                corruptedPartFile(directory_ / offsets_name, "offsets do not match " + chars_name);
            }
            return ColumnView::ofStrings(chars.data(), offset_values, rows);
        }
        // The children's views live as long as the part; their row count is the last offset.
        auto children = std::make_unique<ColumnView[]>(type.children.size());
        for (size_t child = 0; child < type.children.size(); ++child)
        {
            children[child] =
                view(rawChildStem(stem, child), type.children[child], offset_values[rows]);
        }
        ColumnView view{type.id, rows, nullptr, nullptr, offset_values};
        view.children = children.get();
        contents_.child_views.push_back(std::move(children));
        return view;
    }

private:
    std::string_view mapFile(const std::string& name, std::optional<uint64_t> expected_size)
    {
        const std::string_view bytes = map_(name, expected_size);
        bytes_ += bytes.size();
        return bytes;
    }

    std::filesystem::path directory_;
    MapFile map_;
    PartContents& contents_;
    size_t bytes_ = 0;
};

/// Maps a column's files into `contents` (its view, or its encoded form, and its bytes);
/// returns the names of the files it mapped.
std::vector<std::string> openColumn(const std::filesystem::path& directory,
                                    const PartMetadata& metadata, size_t index,
                                    const DataType& type, PartContents& contents)
{
    const size_t rows = metadata.rows;
    std::vector<std::string> names;
    // The mapping's memory stays where it is when the MappedFile moves.
    auto map = [&](const std::string& name, std::optional<uint64_t> expected_size)
    {
        names.push_back(name);
        contents.mapped_files.push_back(metadata.map(directory, name, expected_size));
        return std::string_view(contents.mapped_files.back().data(),
                                contents.mapped_files.back().size());
    };
    contents.validity.push_back(nullptr);
    if (type.nullable && metadata.files.contains(validityFileName(index)))
    {
        const std::string_view bitmap = map(validityFileName(index), (rows + 7) / 8);
        contents.validity.back() = reinterpret_cast<const uint8_t*>(bitmap.data());
    }
    if (metadata.format == PartFormat::kEncoded && !isNested(type.id))
    {
        const std::string blocks_name = columnFileName(index, ".blocks");
        const std::string_view blocks = map(blocks_name, std::nullopt);
        const std::string_view block_index = map(columnFileName(index, ".index"), std::nullopt);
        const std::string_view dictionary = isString(type.id)
                                                ? map(columnFileName(index, ".dict"), std::nullopt)
                                                : std::string_view();
        contents.encoded.push_back(std::make_unique<const EncodedColumn>(
            directory / blocks_name, rows, blocks, block_index, dictionary));
        contents.columns.push_back(ColumnView{type.id, rows, nullptr, nullptr, nullptr});
        contents.columns.back().precision = type.precision;
        contents.column_bytes.push_back(blocks.size() + block_index.size() + dictionary.size() +
                                        (rows + 7) / 8 * (contents.validity.back() != nullptr));
        return names;
    }
    contents.encoded.push_back(nullptr);
    RawColumnMapper mapper(directory, map, contents);
    contents.columns.push_back(mapper.view(columnFileName(index, ""), type.valueType(), rows)
                                   .withValidity(contents.validity.back()));
    contents.column_bytes.push_back(mapper.bytes() +
                                    (rows + 7) / 8 * (contents.validity.back() != nullptr));
    return names;
}

}  // namespace

std::shared_ptr<const Part> openPartFiles(const std::filesystem::path& directory,
                                          const TableSchema& schema, bool verified)
{
    const PartMetadata metadata = PartMetadata::read(directory);
    PartContents contents;
    contents.rows = metadata.rows;
    const size_t rows = metadata.rows;
    for (size_t index = 0; index < schema.columns.size(); ++index)
    {
        const size_t first_file = contents.mapped_files.size();
        const std::vector<std::string> names =
            openColumn(directory, metadata, index, schema.columns[index].type, contents);
        if (!verified)
        {
            std::vector<std::tuple<std::filesystem::path, size_t, uint64_t>> checks;
            for (size_t file = 0; file < names.size(); ++file)
            {
                checks.emplace_back(directory / names[file], first_file + file,
                                    metadata.record(directory, names[file]).checksum);
            }
            contents.first_use_checks.push_back(
                [checks](const PartContents& part)
                {
                    for (const auto& [path, mapped_index, checksum] : checks)
                    {
                        verifyChecksum(path, part.mapped_files[mapped_index], checksum);
                    }
                });
        }
    }
    const std::vector<size_t> key_columns = schema.sortKeyColumns();
    const size_t granules = (rows + Part::kGranuleRows - 1) / Part::kGranuleRows;
    for (size_t key = 0; key < key_columns.size(); ++key)
    {
        const std::string name = marksFile(key);
        const MappedFile marks = metadata.map(directory, name, std::nullopt);
        const std::filesystem::path path = directory / name;
        verifyChecksum(path, marks, metadata.record(directory, name).checksum);
        const std::string_view bytes(marks.data(), marks.size());
        const TypeId type = schema.columns[key_columns[key]].type.id;
        size_t offset = 0;
        contents.granule_min.push_back(parseColumn(path, bytes, offset, type, granules));
        contents.granule_max.push_back(parseColumn(path, bytes, offset, type, granules));
        if (offset != bytes.size())
        {
            corruptedPartFile(path, "longer than its contents");
        }
    }
    return std::make_shared<const Part>(std::move(contents));
}

}  // namespace granary
