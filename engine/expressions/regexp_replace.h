#pragma once

#include <string_view>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// replaceRegexpOne(s, pattern, replacement) (first match only) and replaceRegexpAll /
/// REGEXP_REPLACE (every non-overlapping match) over a String, with RE2 syntax. The pattern is
/// compiled once; in the replacement \0 is the whole match, \1..\9 the capture groups and \\ a
/// backslash. A value without a match comes back unchanged. Throws Exception kBadArguments
/// naming the pattern when it does not compile or the replacement names a missing group.
NodePtr makeRegexpReplace(NodePtr value, std::string_view pattern, std::string_view replacement,
                          bool replace_all);

}  // namespace granary
