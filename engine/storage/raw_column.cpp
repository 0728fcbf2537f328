#include <memory>
#include <span>

#include "engine/storage/column_files.h"
#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

/// Writes the values as they lie in memory; string and nested offsets continue across views.
/// An Array or Map writes its offsets and then its children, each under the stem
/// `<stem>.n<child>` (rawChildStem), recursively.
class RawColumnWriter final : public ColumnFilesWriter
{
public:
    RawColumnWriter(const std::filesystem::path& directory, std::string stem, const DataType& type)
    {
        if (!hasOffsets(type.id))
        {
            names_ = {stem + ".bin"};
        }
        else if (isString(type.id))
        {
            names_ = {stem + ".chars", stem + ".offsets"};
        }
        else
        {
            names_ = {stem + ".offsets"};
            for (size_t child = 0; child < type.children.size(); ++child)
            {
                children_.push_back(std::make_unique<RawColumnWriter>(
                    directory, rawChildStem(stem, child), type.children[child]));
            }
        }
        for (const std::string& name : names_)
        {
            files_.emplace_back(std::make_unique<ChecksummedFileWriter>(directory / name));
        }
        if (hasOffsets(type.id))
        {
            const uint64_t first_offset = 0;
            files_.back()->append(
                {reinterpret_cast<const char*>(&first_offset), sizeof(first_offset)});
        }
    }

    void append(const ColumnView& view) override
    {
        if (!hasOffsets(view.type))
        {
            files_[0]->append(
                {static_cast<const char*>(view.data), view.rows * fixedWidth(view.type)});
            return;
        }
        // The view's offsets start anywhere; the file's continue from what came before.
        const uint64_t first = view.offsets[0];
        const uint64_t last = view.offsets[view.rows];
        const uint64_t base = isString(view.type) ? files_[0]->size() : nested_rows_;
        file_offsets_.resize(view.rows);
        for (size_t row = 0; row < view.rows; ++row)
        {
            file_offsets_[row] = view.offsets[row + 1] - first + base;
        }
        if (isString(view.type))
        {
            files_[0]->append({view.chars + first, last - first});
        }
        for (size_t child = 0; child < children_.size(); ++child)
        {
            children_[child]->append(view.children[child].slice(first, last - first));
        }
        nested_rows_ += last - first;
        files_.back()->append(
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
        for (const std::unique_ptr<RawColumnWriter>& child : children_)
        {
            for (WrittenFile& file : child->close())
            {
                written.push_back(std::move(file));
            }
        }
        return written;
    }

private:
    std::vector<std::string> names_;
    std::vector<std::unique_ptr<ChecksummedFileWriter>> files_;
    std::vector<std::unique_ptr<RawColumnWriter>> children_;
    std::vector<uint64_t> file_offsets_;
    uint64_t nested_rows_ = 0;  ///< Children's rows written so far (nested columns).
};

}  // namespace

std::string rawChildStem(const std::string& stem, size_t child)
{
    return stem + ".n" + std::to_string(child);
}

std::unique_ptr<ColumnFilesWriter> makeRawColumnWriter(const std::filesystem::path& directory,
                                                       size_t column, const DataType& type)
{
    return std::make_unique<RawColumnWriter>(directory, columnFileName(column, ""), type);
}

}  // namespace granary
