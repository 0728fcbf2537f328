#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

namespace granary::programs
{

/// Adds `--setting NAME=VALUE` (repeatable) to `app`: query settings by name, as the native
/// protocol's Query packet carries them (engine/session/query_settings.cpp lists the names; a
/// wrong one fails when the first query runs).
void addSettingOption(CLI::App& app, std::map<std::string, std::string, std::less<>>& settings);

}  // namespace granary::programs
