#include "tests/server/run_command.h"

#include <cstdio>

namespace granary::server::testing
{

std::string runCommand(const std::string& command, int* status)
{
    std::string output;
    FILE* pipe = ::popen(command.c_str(), "r");
    char chunk[4096];
    size_t size;
    while ((size = std::fread(chunk, 1, sizeof(chunk), pipe)) > 0)
    {
        output.append(chunk, size);
    }
    const int result = ::pclose(pipe);
    if (status != nullptr)
    {
        *status = result;
    }
    return output;
}

}  // namespace granary::server::testing
