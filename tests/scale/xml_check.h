#pragma once

#include <map>
#include <string>
#include <string_view>

namespace granary::scale::testing
{

/// What a small, independent XML reader found in a document.
struct XmlSummary
{
    bool well_formed = false;
    std::string problem;                     ///< Why it is not well-formed.
    std::map<std::string, size_t> elements;  ///< Element name → count.
    std::string text;                        ///< All character data, entities decoded.
};

/// Checks tags nest and close, attributes are quoted, entities are known; counts elements.
XmlSummary checkXml(std::string_view document);

}  // namespace granary::scale::testing
