#pragma once

#include <optional>
#include <string>

#include "engine/expressions/expression_node.h"

namespace granary
{

/// Functions of Array, Map and JSON values, as ClickHouse names them. length(x) of either is
/// string_functions.h's makeLength: it reads offsets only.

/// arrayElement(container, index), written container[index]: a Map's value for the key `index`
/// (the value type's default when absent, as in ClickHouse), an Array's element at the 1-based
/// `index` (negative counts from the end; out of range gives the default).
NodePtr makeArrayElement(NodePtr container, NodePtr index);

/// mapKeys(m) and mapValues(m): the Map's keys or values as an Array.
NodePtr makeMapPart(NodePtr map, bool keys);

/// has(array, value) and mapContains(map, key): 1 when an element (a key) equals the value.
NodePtr makeContains(NodePtr container, NodePtr value);

/// getSubcolumn(json, 'a.b'), written json.a.b: the path's value as text (strings as they are,
/// numbers in decimal, arrays as [1,'x']), or the empty string where a row lacks the path.
/// With `typed` (a typed path's type, not nested), the value in that type, or its default.
NodePtr makeJsonPath(NodePtr json, std::string path, std::optional<DataType> typed = {});

/// Whether `value` (of type `value_type`) can be compared with elements of `element_type`:
/// both strings, or both numbers (dates and times count as numbers).
bool comparableElements(const DataType& element_type, TypeId value_type);

}  // namespace granary
