// `granary functions`: the aggregate function reference (docs/functions.md) or, with --scalar,
// the scalar one (docs/scalar-functions.md), from the registries.
#include <iostream>
#include <memory>

#include "engine/aggregation/function_reference.h"
#include "engine/expressions/function_registry.h"
#include "programs/command_registry.h"

namespace granary::programs
{
namespace
{

std::function<int()> setupFunctions(CLI::App& app)
{
    auto scalar = std::make_shared<bool>(false);
    app.add_flag("--scalar", *scalar,
                 "The scalar function reference (docs/scalar-functions.md) instead");
    return [scalar]
    {
        std::cout << (*scalar ? scalarFunctionReference() : aggregateFunctionReference());
        return 0;
    };
}

const CommandRegistrar kFunctions(
    {"functions", "Print the aggregate (or --scalar) function reference (Markdown)",
     setupFunctions});

}  // namespace
}  // namespace granary::programs
