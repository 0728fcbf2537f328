#pragma once

#include "engine/expressions/expression_node.h"

namespace granary
{

/// `value` as `target` (CAST and the to<Type> functions), or null where no conversion exists
/// (nested types on either side). Numbers convert as C++ does (integers wrap, floats truncate
/// toward zero, saturating); a Date becomes a DateTime at midnight and a DateTime the Date of
/// its day; Strings parse as the type's text (the TSV loader's rules: kCannotParseInput
/// naming the text and the type when a row does not parse); anything becomes a String as TSV
/// writes it.
NodePtr makeConversion(NodePtr value, const DataType& target);

}  // namespace granary
