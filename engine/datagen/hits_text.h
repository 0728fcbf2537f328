#pragma once

#include <cstdint>

#include "engine/datagen/string_column.h"

namespace granary::datagen
{

/// The strings of `hits`, each a pure function of (seed, index): the same index always gives
/// the same text, so distinct counts follow from the distinct indices drawn. No generated text
/// contains 'google' or 'Google' except the *Google* functions' output.
class HitsText
{
public:
    explicit HitsText(uint64_t seed);

    /// http(s)://host/path?query, ~90 bytes; the host follows a Zipf law over the index.
    void appendUrl(uint64_t index, TextBuffer& out) const;
    /// A URL on one site (counter 62's), shorter paths.
    void appendHotCounterUrl(uint64_t index, TextBuffer& out) const;
    /// A URL with 'google' in the host (and '.google.' as Q23 excludes, for half of them).
    void appendGoogleUrl(uint64_t index, TextBuffer& out) const;
    /// Mostly Cyrillic words and a site name, ~70 bytes.
    void appendTitle(uint64_t index, TextBuffer& out) const;
    /// A title containing 'Google'.
    void appendGoogleTitle(uint64_t index, TextBuffer& out) const;
    /// http(s)://[www.]domain/path, with the domain drawn by `domain_unit` (uniform in [0, 1))
    /// from a skewed list; a few have no path, which Q29's regexp leaves whole.
    void appendReferer(uint64_t index, double domain_unit, TextBuffer& out) const;
    /// One to four words, mostly Cyrillic; a few start with ' ' or '!'.
    void appendSearchPhrase(uint64_t index, TextBuffer& out) const;
    /// A phone model: "iPad", "iPhone" for index 0 and 1, invented model codes after.
    void appendMobilePhoneModel(uint64_t index, TextBuffer& out) const;

private:
    uint64_t seed_;
    /// The invented host names of URLs and titles, and the invented referer domains, by rank:
    /// built once, since the same few thousand names are spelled in most rows.
    StringColumn hosts_;
    StringColumn referer_hosts_;
};

}  // namespace granary::datagen
