#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace granary::programs
{

/// A subcommand of the `granary` program: `setup` adds the command's options to its CLI11
/// app and returns the function that runs it (its exit status).
struct Command
{
    std::string name;
    std::string description;
    std::function<std::function<int()>(CLI::App& app)> setup;
};

/// Commands register themselves from their own files (one command per folder of programs/).
std::vector<Command>& commandRegistry();

struct CommandRegistrar
{
    explicit CommandRegistrar(Command command) { commandRegistry().push_back(std::move(command)); }
};

}  // namespace granary::programs
