// The `granary` program: one binary, one subcommand per tool (local, gen-hits, clickbench,
// server, scale, functions).
#include <exception>
#include <iostream>
#include <map>

#include "engine/common/exception.h"
#include "programs/command_registry.h"

int main(int argc, char** argv)
{
    CLI::App app{"Granary: an analytical aggregation engine for many-core machines"};
    app.require_subcommand(1);
    std::map<CLI::App*, std::function<int()>> runners;
    for (const granary::programs::Command& command : granary::programs::commandRegistry())
    {
        CLI::App* sub = app.add_subcommand(command.name, command.description);
        runners[sub] = command.setup(*sub);
    }
    CLI11_PARSE(app, argc, argv);
    try
    {
        for (const auto& [sub, run] : runners)
        {
            if (sub->parsed())
            {
                return run();
            }
        }
    }
    catch (const granary::Exception& error)
    {
        std::cerr << "granary: error " << static_cast<int>(error.code()) << " ("
                  << granary::errorCodeName(error.code()) << "): " << error.what() << "\n";
        return 2;
    }
    catch (const std::exception& error)
    {
        std::cerr << "granary: " << error.what() << "\n";
        return 2;
    }
    return 1;
}
