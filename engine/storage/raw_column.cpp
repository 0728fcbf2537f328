#include <memory>
#include <span>

#include "engine/storage/column_files.h"
#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

/// Writes the values as they lie in memory; string offsets continue across views.
class RawColumnWriter final : public ColumnFilesWriter
{
public:
    RawColumnWriter(const std::filesystem::path& directory, size_t column, TypeId type)
    {
        if (!isString(type))
        {
            names_ = {columnFileName(column, ".bin")};
        }
        else
        {
            names_ = {columnFileName(column, ".chars"), columnFileName(column, ".offsets")};
        }
        for (const std::string& name : names_)
        {
            files_.emplace_back(std::make_unique<ChecksummedFileWriter>(directory / name));
        }
        if (isString(type))
        {
            const uint64_t first_offset = 0;
            files_[1]->append({reinterpret_cast<const char*>(&first_offset), sizeof(first_offset)});
        }
    }

    void append(const ColumnView& view) override
    {
        if (!isString(view.type))
        {
            files_[0]->append(
                {static_cast<const char*>(view.data), view.rows * fixedWidth(view.type)});
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

    std::vector<WrittenFile> close() override
    {
        std::vector<WrittenFile> written;
        for (size_t file = 0; file < files_.size(); ++file)
        {
            files_[file]->close();
            written.push_back({names_[file], files_[file]->size(), files_[file]->checksum()});
        }
        return written;
    }

private:
    std::vector<std::string> names_;
    std::vector<std::unique_ptr<ChecksummedFileWriter>> files_;
    std::vector<uint64_t> file_offsets_;
};

}  // namespace

std::unique_ptr<ColumnFilesWriter> makeRawColumnWriter(const std::filesystem::path& directory,
                                                       size_t column, TypeId type)
{
    return std::make_unique<RawColumnWriter>(directory, column, type);
}

}  // namespace granary
