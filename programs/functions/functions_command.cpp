// `granary functions`: the aggregate function reference (docs/functions.md) from the registry.
#include <iostream>

#include "engine/aggregation/function_reference.h"
#include "programs/command_registry.h"

namespace granary::programs
{
namespace
{

std::function<int()> setupFunctions(CLI::App&)
{
    return []
    {
        std::cout << aggregateFunctionReference();
        return 0;
    };
}

const CommandRegistrar kFunctions({"functions",
                                   "Print the aggregate function reference (Markdown)",
                                   setupFunctions});

}  // namespace
}  // namespace granary::programs
