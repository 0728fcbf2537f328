#pragma once

#include <string>

namespace granary::server::testing
{

/// Runs a shell command and returns its standard output; `status` receives pclose's status.
std::string runCommand(const std::string& command, int* status = nullptr);

}  // namespace granary::server::testing
