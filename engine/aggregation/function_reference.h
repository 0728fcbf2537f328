#pragma once

#include <string>

namespace granary
{

/// The aggregate function reference (docs/functions.md) as Markdown, generated from the
/// registry (aggregateFunctions()) so that the documentation cannot drift from the code.
/// `granary functions` prints it; a test compares it with the file.
std::string aggregateFunctionReference();

}  // namespace granary
