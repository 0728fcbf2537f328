#include "engine/storage/part_files.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <tuple>

#include "engine/common/exception.h"
#include "engine/exec/executor.h"
#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

constexpr int kFormatVersion = 1;
constexpr const char* kMetadataFile = "metadata.json";

/// Built by appending: GCC 12 warns falsely (-Wrestrict) about `"c" + std::to_string(n)`.
std::string fileName(char prefix, size_t index, std::string_view suffix)
{
    std::string name(1, prefix);
    name += std::to_string(index);
    name += suffix;
    return name;
}

std::string columnFile(size_t column, std::string_view suffix)
{
    return fileName('c', column, suffix);
}

std::string marksFile(size_t key)
{
    return fileName('k', key, ".marks");
}

[[noreturn]] void corrupted(const std::filesystem::path& file, const std::string& problem)
{
    throw Exception(ErrorCode::kCorruptedData,
                    "corrupted part file '" + file.string() + "': " + problem);
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
/// starting at `offset` of `bytes`; advances offset. Throws through `corrupted`.
Column parseColumn(const std::filesystem::path& file, std::string_view bytes, size_t& offset,
                   TypeId type, size_t rows)
{
    Column column(type);
    auto take = [&](size_t size)
    {
        if (size > bytes.size() - offset)
        {
            corrupted(file, "shorter than its contents");
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
    if (offsets[0] != 0)
    {
        corrupted(file, "string offsets do not start at 0");
    }
    for (size_t row = 0; row < rows; ++row)
    {
        if (offsets[row + 1] < offsets[row])
        {
            corrupted(file, "string offsets decrease");
        }
    }
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
    std::map<std::string, FileRecord> files;

    static PartMetadata read(const std::filesystem::path& directory)
    {
        const std::filesystem::path path = directory / kMetadataFile;
        PartMetadata metadata;
        try
        {
            const nlohmann::json json = nlohmann::json::parse(readWholeFile(path));
            if (json.at("format_version").get<int>() != kFormatVersion)
            {
                corrupted(path, "unknown format version");
            }
            metadata.rows = json.at("rows").get<size_t>();
            for (const auto& [name, record] : json.at("files").items())
            {
                metadata.files[name] = {record.at("size").get<uint64_t>(),
                                        record.at("checksum").get<uint64_t>()};
            }
        }
        catch (const nlohmann::json::exception& error)
        {
            corrupted(path, error.what());
        }
        return metadata;
    }

    const FileRecord& record(const std::filesystem::path& directory, const std::string& name) const
    {
        const auto found = files.find(name);
        if (found == files.end())
        {
            corrupted(directory / kMetadataFile, "does not list " + name);
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
            corrupted(directory / kMetadataFile, "wrong size recorded for " + name);
        }
        MappedFile mapped(directory / name);
        if (mapped.size() != file.size)
        {
            corrupted(directory / name, "has " + std::to_string(mapped.size()) +
                                            " bytes instead of " + std::to_string(file.size));
        }
        return mapped;
    }
};

void verifyChecksum(const std::filesystem::path& file, const MappedFile& mapped, uint64_t expected)
{
    if (fileChecksum(mapped.data(), mapped.size()) != expected)
    {
        corrupted(file, "checksum mismatch");
    }
}

/// Rows are gathered and written this many at a time: the buffers stay in cache and are
/// reused, and whole granules keep the bounds appendable chunk by chunk.
constexpr size_t kWriteChunkRows = 2 * Part::kGranuleRows;

/// The files of one column of a part being written, fed the column's rows in the part's order
/// as consecutive views; appends the granule bounds of each view (whole granules but for the
/// last view) to `minimums` and `maximums` when they are given (a sort-key column).
class ColumnFileWriter
{
public:
    ColumnFileWriter(const std::filesystem::path& directory, size_t index, TypeId type,
                     Column* minimums, Column* maximums)
        : minimums_(minimums), maximums_(maximums)
    {
        if (!isString(type))
        {
            names_ = {columnFile(index, ".bin")};
            files_.emplace_back(std::make_unique<ChecksummedFileWriter>(directory / names_[0]));
            return;
        }
        names_ = {columnFile(index, ".chars"), columnFile(index, ".offsets")};
        for (const std::string& name : names_)
        {
            files_.emplace_back(std::make_unique<ChecksummedFileWriter>(directory / name));
        }
        const uint64_t first_offset = 0;
        files_[1]->append({reinterpret_cast<const char*>(&first_offset), sizeof(first_offset)});
    }

    void append(const ColumnView& view)
    {
        if (minimums_ != nullptr)
        {
            computeGranuleBounds(view, *minimums_, *maximums_);
        }
        if (!isString(view.type))
        {
            files_[0]->append(fixedBytes(view));
            return;
        }
        // The view's offsets start anywhere; the file's continue from the chars before.
        ChecksummedFileWriter& chars = *files_[0];
        const uint64_t first = view.offsets[0];
        const uint64_t base = chars.size();
        file_offsets_.resize(view.rows);
        for (size_t row = 0; row < view.rows; ++row)
        {
            file_offsets_[row] = view.offsets[row + 1] - first + base;
        }
        chars.append({view.chars + first, view.offsets[view.rows] - first});
        files_[1]->append(
            {reinterpret_cast<const char*>(file_offsets_.data()), view.rows * sizeof(uint64_t)});
    }

    /// Closes the files; returns their names and records.
    std::vector<std::pair<std::string, FileRecord>> close()
    {
        std::vector<std::pair<std::string, FileRecord>> written;
        for (size_t file = 0; file < files_.size(); ++file)
        {
            files_[file]->close();
            written.push_back({names_[file], {files_[file]->size(), files_[file]->checksum()}});
        }
        return written;
    }

private:
    std::vector<std::string> names_;
    std::vector<std::unique_ptr<ChecksummedFileWriter>> files_;
    std::vector<uint64_t> file_offsets_;
    Column* minimums_;
    Column* maximums_;
};

}  // namespace

/// The files of a part being written: one writer per column and the granule bounds of the
/// sort-key columns; finish() writes the marks and the metadata, all durably.
class PartFilesWriter
{
public:
    PartFilesWriter(const TableSchema& schema, const std::filesystem::path& directory)
        : directory_(directory), key_columns_(schema.sortKeyColumns())
    {
        std::vector<std::optional<size_t>> key_of_column(schema.columns.size());
        for (size_t key = 0; key < key_columns_.size(); ++key)
        {
            key_of_column[key_columns_[key]] = key;
            granule_min_.emplace_back(schema.columns[key_columns_[key]].type);
            granule_max_.emplace_back(schema.columns[key_columns_[key]].type);
        }
        for (size_t index = 0; index < schema.columns.size(); ++index)
        {
            const std::optional<size_t> key = key_of_column[index];
            columns_.push_back(std::make_unique<ColumnFileWriter>(
                directory, index, schema.columns[index].type, key ? &granule_min_[*key] : nullptr,
                key ? &granule_max_[*key] : nullptr));
        }
    }

    ColumnFileWriter& column(size_t index) { return *columns_[index]; }

    void finish(size_t rows)
    {
        nlohmann::json files = nlohmann::json::object();
        auto record = [&](const std::string& name, const FileRecord& file) {
            files[name] = {{"size", file.size}, {"checksum", file.checksum}};
        };
        for (const std::unique_ptr<ColumnFileWriter>& column : columns_)
        {
            for (const auto& [name, file] : column->close())
            {
                record(name, file);
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
        const nlohmann::json metadata = {
            {"format_version", kFormatVersion}, {"rows", rows}, {"files", files}};
        const std::string text = metadata.dump(1);
        writeFileDurably(directory_ / kMetadataFile, {std::span<const char>(text)});
        syncDirectory(directory_);
    }

private:
    std::filesystem::path directory_;
    std::vector<size_t> key_columns_;
    std::vector<Column> granule_min_;
    std::vector<Column> granule_max_;
    std::vector<std::unique_ptr<ColumnFileWriter>> columns_;
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
                          writer.column(index).append(*view);
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
                          writer_->column(index).append(
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

std::shared_ptr<const Part> openPartFiles(const std::filesystem::path& directory,
                                          const TableSchema& schema, bool verified)
{
    const PartMetadata metadata = PartMetadata::read(directory);
    PartContents contents;
    contents.rows = metadata.rows;
    const size_t rows = metadata.rows;
    for (size_t index = 0; index < schema.columns.size(); ++index)
    {
        const TypeId type = schema.columns[index].type;
        std::vector<std::pair<std::string, size_t>> checked_files;  // name, mapped_files index
        if (isString(type))
        {
            const std::string offsets_name = columnFile(index, ".offsets");
            const std::string chars_name = columnFile(index, ".chars");
            MappedFile offsets =
                metadata.map(directory, offsets_name, (rows + 1) * sizeof(uint64_t));
            MappedFile chars = metadata.map(directory, chars_name, std::nullopt);
            const auto* offset_values = reinterpret_cast<const uint64_t*>(offsets.data());
            if (offset_values[0] != 0 || offset_values[rows] != chars.size())
            {
                corrupted(directory / offsets_name, "offsets do not match " + chars_name);
            }
            contents.columns.push_back(ColumnView::ofStrings(chars.data(), offset_values, rows));
            contents.column_bytes.push_back(chars.size() + offsets.size());
            checked_files.emplace_back(offsets_name, contents.mapped_files.size());
            contents.mapped_files.push_back(std::move(offsets));
            checked_files.emplace_back(chars_name, contents.mapped_files.size());
            contents.mapped_files.push_back(std::move(chars));
        }
        else
        {
            const std::string name = columnFile(index, ".bin");
            MappedFile values = metadata.map(directory, name, rows * fixedWidth(type));
            contents.columns.push_back(ColumnView{type, rows, values.data(), nullptr, nullptr});
            contents.column_bytes.push_back(values.size());
            checked_files.emplace_back(name, contents.mapped_files.size());
            contents.mapped_files.push_back(std::move(values));
        }
        if (!verified)
        {
            std::vector<std::tuple<std::filesystem::path, size_t, uint64_t>> checks;
            for (const auto& [name, mapped_index] : checked_files)
            {
                checks.emplace_back(directory / name, mapped_index,
                                    metadata.record(directory, name).checksum);
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
        const TypeId type = schema.columns[key_columns[key]].type;
        size_t offset = 0;
        contents.granule_min.push_back(parseColumn(path, bytes, offset, type, granules));
        contents.granule_max.push_back(parseColumn(path, bytes, offset, type, granules));
        if (offset != bytes.size())
        {
            corrupted(path, "longer than its contents");
        }
    }
    return std::make_shared<const Part>(std::move(contents));
}

}  // namespace granary
