#include "programs/scale/output_file.h"

#include "engine/common/exception.h"

namespace granary::scale
{

void createOutputDirectory(const std::filesystem::path& dir)
{
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        "cannot create " + dir.string() + ": " + error.message());
    }
}

std::ofstream openForWriting(const std::filesystem::path& path)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot write " + path.string());
    }
    return out;
}

void writeFile(const std::filesystem::path& path, std::string_view content)
{
    std::ofstream out = openForWriting(path);
    out << content;
    if (!out)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot write " + path.string());
    }
}

}  // namespace granary::scale
