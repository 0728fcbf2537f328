#include "engine/storage/column_files.h"

#include "engine/common/exception.h"

namespace granary
{

std::string partFileName(char prefix, size_t index, std::string_view suffix)
{
    // Built by appending: GCC 12 warns falsely (-Wrestrict) about `"c" + std::to_string(n)`.
    std::string name(1, prefix);
    name += std::to_string(index);
    name += suffix;
    return name;
}

void corruptedPartFile(const std::filesystem::path& file, const std::string& problem)
{
    throw Exception(ErrorCode::kCorruptedData,
                    "corrupted part file '" + file.string() + "': " + problem);
}

void checkStringOffsets(const std::filesystem::path& file, const uint64_t* offsets, size_t count)
{
    if (offsets[0] != 0)
    {
        corruptedPartFile(file, "string offsets do not start at 0");
    }
    for (size_t entry = 0; entry < count; ++entry)
    {
        if (offsets[entry + 1] < offsets[entry])
        {
            corruptedPartFile(file, "string offsets decrease");
        }
    }
}

}  // namespace granary
