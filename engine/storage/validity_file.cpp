#include "engine/storage/validity_file.h"

#include <span>
#include <vector>

#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

/// Keeps the part's bitmap in memory (one bit per row, 12.5 MB at 100M rows) from the first
/// view with a bitmap on, because whether the file exists is known only once every row has
/// been seen.
class NullableColumnWriter : public ColumnFilesWriter
{
public:
    NullableColumnWriter(const std::filesystem::path& directory, size_t column,
                         std::unique_ptr<ColumnFilesWriter> values)
        : path_(directory / validityFileName(column)), values_(std::move(values))
    {
    }

    void append(const ColumnView& view) override
    {
        values_->append(view);
        if (!view.hasValidity() && !bitmap_started_)
        {
            rows_ += view.rows;  // the bitmap is made at the first NULL
            return;
        }
        if (!bitmap_started_)
        {
            bitmap_.assign((rows_ + 7) / 8, 0xFF);  // every row so far was valid
            bitmap_started_ = true;
        }
        bitmap_.resize((rows_ + view.rows + 7) / 8, 0);
        for (size_t row = 0; row < view.rows; ++row, ++rows_)
        {
            const uint8_t bit = static_cast<uint8_t>(1u << (rows_ & 7));
            uint8_t& byte = bitmap_[rows_ >> 3];
            byte = static_cast<uint8_t>(view.isValid(row) ? byte | bit : byte & ~bit);
        }
    }

    std::vector<WrittenFile> close() override
    {
        std::vector<WrittenFile> files = values_->close();
        // A view with a bitmap but no NULL row still leaves the part without the file.
        if (bitmap_started_ && !allValid())
        {
            ChecksummedFileWriter file(path_);
            file.append(std::span<const char>(reinterpret_cast<const char*>(bitmap_.data()),
                                              bitmap_.size()));
            file.close();
            files.push_back({path_.filename().string(), file.size(), file.checksum()});
        }
        return files;
    }

private:
    bool allValid() const
    {
        for (size_t row = 0; row < rows_; ++row)
        {
            if (((bitmap_[row >> 3] >> (row & 7)) & 1) == 0)
            {
                return false;
            }
        }
        return true;
    }

    std::filesystem::path path_;
    std::unique_ptr<ColumnFilesWriter> values_;
    std::vector<uint8_t> bitmap_;
    size_t rows_ = 0;
    bool bitmap_started_ = false;
};

}  // namespace

std::string validityFileName(size_t column)
{
    return columnFileName(column, ".null");
}

std::unique_ptr<ColumnFilesWriter> makeNullableColumnWriter(
    const std::filesystem::path& directory, size_t column,
    std::unique_ptr<ColumnFilesWriter> values)
{
    return std::make_unique<NullableColumnWriter>(directory, column, std::move(values));
}

}  // namespace granary
