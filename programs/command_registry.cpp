#include "programs/command_registry.h"

namespace granary::programs
{

std::vector<Command>& commandRegistry()
{
    static std::vector<Command> commands;
    return commands;
}

}  // namespace granary::programs
