#include "programs/clickbench/process_io.h"

#include <fstream>
#include <string>

namespace granary::clickbench
{

std::optional<uint64_t> storageReadBytes()
{
    std::ifstream io("/proc/self/io");
    std::string key;
    while (io >> key)
    {
        uint64_t bytes = 0;
        if (key == "read_bytes:" && io >> bytes)
        {
            return bytes;
        }
        io.ignore(1 << 16, '\n');
    }
    return std::nullopt;
}

}  // namespace granary::clickbench
