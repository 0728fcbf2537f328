#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/datagen/random.h"
#include "engine/datagen/string_column.h"
#include "engine/datagen/zipf_distribution.h"

namespace granary::datagen
{

/// A string to put into a chosen fraction of the generated URLs (a LIKE needle to search for).
struct PlantedNeedle
{
    std::string text;
    double row_fraction = 0;
};

/// Deterministic URL-like strings shaped like web-analytics data (ClickBench's `hits.URL`):
/// http(s) scheme, hosts of Zipf-distributed popularity, paths of common words, numeric ids and
/// slugs, query strings with utm tags, ids and percent-encoded Cyrillic search text; about 80
/// bytes on average. Each planted needle appears in about its row_fraction of the URLs (as a host
/// label, a path segment or a query value) and in no other URL; appendUrl throws
/// std::invalid_argument if a planted needle turns up by chance in nearly every URL. The same
/// seed and needles give the same URLs on every platform.
class UrlGenerator
{
public:
    explicit UrlGenerator(uint64_t seed, std::vector<PlantedNeedle> planted = {});

    /// Appends one URL to `out`.
    void appendUrl(std::string& out);

    std::string nextUrl()
    {
        std::string url;
        appendUrl(url);
        return url;
    }

private:
    enum class Spot : uint8_t
    {
        Host,
        Path,
        Query,
    };

    /// planted_[needle] goes into this URL at `spot`.
    struct Planting
    {
        size_t needle;
        Spot spot;
    };

    void appendHost(std::string& out);
    void appendPathSegment(std::string& out);
    void appendQueryValue(std::string& out);
    void appendWord(std::string& out);
    /// Appends a URL holding the needles of plantings_ and no other planted needle; false (and
    /// `out` as it was) if another one appeared by chance.
    bool tryAppendUrl(std::string& out);
    bool isPlanted(size_t needle) const;

    Random random_;
    std::vector<PlantedNeedle> planted_;
    std::vector<std::string> hosts_;
    ZipfDistribution host_popularity_;
    ZipfDistribution word_popularity_;
    /// The plantings of the URL being generated.
    std::vector<Planting> plantings_;
};

/// URLs from `generator` until the column holds at least `target_bytes` bytes.
StringColumn generateUrlColumn(UrlGenerator& generator, size_t target_bytes);

}  // namespace granary::datagen
