#include "engine/datagen/url_generator.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace granary::datagen
{
namespace
{

/// Distinct hosts; their popularity follows kHostZipfExponent, so a few dozen get most visits.
constexpr size_t kHostCount = 20000;
constexpr double kHostZipfExponent = 1.1;
/// Path and query words are drawn from kWords by a flatter Zipf law.
constexpr double kWordZipfExponent = 0.9;
/// Tries before giving up on a URL free of the needles not planted in it.
constexpr int kMaxAttempts = 1000;
/// Places for a planted needle: UrlGenerator::Spot's values.
constexpr uint64_t kSpots = 3;
/// Share of URLs with plain http rather than https.
constexpr double kHttpShare = 0.7;
/// Share of hosts whose name ends in a word ("kato-pizza.ru").
constexpr double kHostWordShare = 0.2;
/// Path segments per URL: uniform in [0, kMaxPathSegments].
constexpr uint64_t kMaxPathSegments = 4;
/// Share of URLs with a query string.
constexpr double kQueryShare = 0.5;
/// Hex digits of a session-like token.
constexpr size_t kTokenDigits = 16;

/// An inclusive range of counts, drawn uniformly.
struct CountRange
{
    uint64_t min;
    uint64_t max;
};
constexpr CountRange kHostSyllables{2, 4};
constexpr CountRange kPathIdDigits{3, 9};
constexpr CountRange kSlugWords{2, 4};
constexpr CountRange kSlugNumberDigits{1, 5};
constexpr CountRange kQueryParameters{1, 4};
constexpr CountRange kQueryNumberDigits{1, 8};
constexpr CountRange kCyrillicLetters{3, 8};

enum class PathSegmentShape : uint8_t
{
    Word,
    Id,
    Slug,
    CyrillicText,
};
/// Relative frequency of each PathSegmentShape, in declaration order.
constexpr std::array<uint32_t, 4> kPathSegmentShapeWeights = {5, 2, 2, 1};

enum class QueryValueShape : uint8_t
{
    Number,
    Word,
    CyrillicText,
    Token,
};
/// Relative frequency of each QueryValueShape, in declaration order.
constexpr std::array<uint32_t, 4> kQueryValueShapeWeights = {4, 3, 2, 1};

/// Common words of URL paths and query values, most popular first.
constexpr std::string_view kWords[] = {
    "news",     "catalog",    "index",    "search",    "video",     "products", "article",
    "user",     "photo",      "page",     "item",      "category",  "forum",    "topic",
    "view",     "list",       "detail",   "show",      "film",      "music",    "games",
    "online",   "download",   "files",    "blog",      "post",      "comments", "profile",
    "login",    "register",   "cart",     "order",     "help",      "about",    "contacts",
    "sport",    "football",   "weather",  "maps",      "travel",    "auto",     "cars",
    "realty",   "job",        "vacancy",  "resume",    "shop",      "sale",     "price",
    "reviews",  "images",     "gallery",  "album",     "serial",    "season",   "episode",
    "watch",    "free",       "best",     "new",       "top",       "city",     "moscow",
    "region",   "market",     "company",  "service",   "support",   "account",  "settings",
    "messages", "friends",    "groups",   "events",    "tickets",   "hotels",   "flights",
    "tours",    "health",     "beauty",   "fashion",   "women",     "men",      "kids",
    "home",     "garden",     "repair",   "building",  "tools",     "phones",   "laptops",
    "tablets",  "software",   "windows",  "android",   "apple",     "samsung",  "books",
    "school",   "education",  "science",  "history",   "culture",   "politics", "economy",
    "finance",  "credit",     "bank",     "insurance", "law",       "tax",      "recipes",
    "food",     "restaurant", "delivery", "pizza",     "coffee",    "animals",  "dogs",
    "cats",     "fishing",    "hunting",  "dacha",     "wedding",   "dating",   "chat",
    "radio",    "tv",         "programs", "schedule",  "horoscope", "humor",    "jokes",
    "anekdot",  "wallpapers", "themes",
};

/// Repeated entries in the lists below weigh the draw.
constexpr std::string_view kHostPrefixes[] = {"", "", "", "www.", "www.", "m.", "news.", "forum."};
constexpr std::string_view kTopLevelDomains[] = {".ru",  ".ru",  ".ru", ".ru", ".com", ".com",
                                                 ".net", ".org", ".ua", ".by", ".kz",  ".info"};
constexpr std::string_view kHostConsonants = "bdfgklmnprstvz";
constexpr std::string_view kHostVowels = "aeiou";
constexpr std::string_view kQueryKeys[] = {"id",   "page",       "q",          "text", "p",
                                           "from", "utm_source", "utm_medium", "ref",  "sort",
                                           "lang", "cat",        "s",          "clid"};
constexpr std::string_view kFileSuffixes[] = {"", "", "", "/", ".html", ".php", ".htm"};
constexpr std::string_view kHexDigits = "0123456789ABCDEF";
/// UTF-8 of the Cyrillic letters U+0430..U+044F: lead byte, then the first continuation byte.
constexpr std::array<std::pair<uint8_t, uint8_t>, 2> kCyrillicRanges = {
    {{0xD0, 0xB0}, {0xD1, 0x80}}};
constexpr size_t kCyrillicLettersPerRange = 16;

template <class Strings>
std::string_view pick(Random& random, const Strings& strings)
{
    return strings[random.below(std::size(strings))];
}

uint64_t countIn(Random& random, CountRange range)
{
    return random.between(range.min, range.max);
}

/// A shape drawn with probability proportional to its weight.
template <class Shape, size_t kShapes>
Shape pickShape(Random& random, const std::array<uint32_t, kShapes>& weights)
{
    uint64_t total = 0;
    for (uint32_t weight : weights)
    {
        total += weight;
    }
    uint64_t draw = random.below(total);
    size_t shape = 0;
    while (draw >= weights[shape])
    {
        draw -= weights[shape];
        ++shape;
    }
    return static_cast<Shape>(shape);
}

void appendDigits(Random& random, std::string& out, CountRange digits)
{
    for (uint64_t left = countIn(random, digits); left > 0; --left)
    {
        out += static_cast<char>('0' + random.below(10));
    }
}

/// Percent-encoded UTF-8, as browsers send search text: "%D0%BF%D0%B8...".
void appendCyrillicText(Random& random, std::string& out)
{
    auto append_byte = [&](uint8_t byte)
    {
        out += '%';
        out += kHexDigits[byte >> 4];
        out += kHexDigits[byte & 0xF];
    };
    for (uint64_t letters = countIn(random, kCyrillicLetters); letters > 0; --letters)
    {
        const auto& [lead, first_continuation] =
            kCyrillicRanges[random.below(kCyrillicRanges.size())];
        append_byte(lead);
        append_byte(
            static_cast<uint8_t>(first_continuation + random.below(kCyrillicLettersPerRange)));
    }
}

/// Needles that can stand for a host's main label ("google" in "www.google.ru").
bool isHostLabel(const std::string& text)
{
    for (char byte : text)
    {
        if (!((byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || byte == '-'))
        {
            return false;
        }
    }
    return !text.empty();
}

std::string makeHost(Random& random)
{
    std::string host(pick(random, kHostPrefixes));
    for (uint64_t syllables = countIn(random, kHostSyllables); syllables > 0; --syllables)
    {
        host.push_back(kHostConsonants[random.below(kHostConsonants.size())]);
        host.push_back(kHostVowels[random.below(kHostVowels.size())]);
    }
    if (random.chance(kHostWordShare))
    {
        host += '-';
        host += kWords[random.below(std::size(kWords))];
    }
    host += pick(random, kTopLevelDomains);
    return host;
}

}  // namespace

UrlGenerator::UrlGenerator(uint64_t seed, std::vector<PlantedNeedle> planted)
    : random_(seed),
      planted_(std::move(planted)),
      host_popularity_(kHostCount, kHostZipfExponent),
      word_popularity_(std::size(kWords), kWordZipfExponent)
{
    hosts_.reserve(kHostCount);
    for (size_t i = 0; i < kHostCount; ++i)
    {
        hosts_.push_back(makeHost(random_));
    }
}

void UrlGenerator::appendUrl(std::string& out)
{
    plantings_.clear();
    bool host_taken = false;
    for (size_t needle = 0; needle < planted_.size(); ++needle)
    {
        if (random_.chance(planted_[needle].row_fraction))
        {
            auto spot = static_cast<Spot>(random_.below(kSpots));
            if (spot == Spot::Host && (host_taken || !isHostLabel(planted_[needle].text)))
            {
                spot = Spot::Path;
            }
            host_taken = host_taken || spot == Spot::Host;
            plantings_.push_back({needle, spot});
        }
    }
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt)
    {
        if (tryAppendUrl(out))
        {
            return;
        }
    }
    throw std::invalid_argument("UrlGenerator: a planted needle occurs by chance in most URLs");
}

bool UrlGenerator::isPlanted(size_t needle) const
{
    return std::any_of(plantings_.begin(), plantings_.end(),
                       [&](const Planting& planting) { return planting.needle == needle; });
}

bool UrlGenerator::tryAppendUrl(std::string& out)
{
    const size_t start = out.size();
    out += random_.chance(kHttpShare) ? "http://" : "https://";
    const auto host_planting =
        std::find_if(plantings_.begin(), plantings_.end(),
                     [](const Planting& planting) { return planting.spot == Spot::Host; });
    if (host_planting != plantings_.end())
    {
        out += "www.";
        out += planted_[host_planting->needle].text;
        out += pick(random_, kTopLevelDomains);
    }
    else
    {
        appendHost(out);
    }
    const uint64_t segments = random_.below(kMaxPathSegments + 1);
    for (uint64_t segment = 0; segment < segments; ++segment)
    {
        out += '/';
        appendPathSegment(out);
    }
    for (const Planting& planting : plantings_)
    {
        if (planting.spot == Spot::Path)
        {
            out += '/';
            out += planted_[planting.needle].text;
        }
    }
    out += segments == 0 ? "/" : pick(random_, kFileSuffixes);
    const uint64_t parameters =
        random_.chance(kQueryShare) ? countIn(random_, kQueryParameters) : 0;
    char separator = '?';
    for (uint64_t parameter = 0; parameter < parameters; ++parameter)
    {
        out += separator;
        out += pick(random_, kQueryKeys);
        out += '=';
        appendQueryValue(out);
        separator = '&';
    }
    for (const Planting& planting : plantings_)
    {
        if (planting.spot == Spot::Query)
        {
            out += separator;
            out += pick(random_, kQueryKeys);
            out += '=';
            out += planted_[planting.needle].text;
            separator = '&';
        }
    }

    const std::string_view url = std::string_view(out).substr(start);
    for (size_t needle = 0; needle < planted_.size(); ++needle)
    {
        if (!isPlanted(needle) && url.find(planted_[needle].text) != std::string_view::npos)
        {
            out.resize(start);
            return false;
        }
    }
    return true;
}

void UrlGenerator::appendHost(std::string& out)
{
    out += hosts_[host_popularity_.sample(random_)];
}

void UrlGenerator::appendPathSegment(std::string& out)
{
    switch (pickShape<PathSegmentShape>(random_, kPathSegmentShapeWeights))
    {
        case PathSegmentShape::Word:
            appendWord(out);
            return;
        case PathSegmentShape::Id:
            appendDigits(random_, out, kPathIdDigits);
            return;
        case PathSegmentShape::Slug:
            // "best-pizza-moscow-2041"
            for (uint64_t words = countIn(random_, kSlugWords); words > 0; --words)
            {
                appendWord(out);
                out += '-';
            }
            appendDigits(random_, out, kSlugNumberDigits);
            return;
        case PathSegmentShape::CyrillicText:
            appendCyrillicText(random_, out);
            return;
    }
}

void UrlGenerator::appendQueryValue(std::string& out)
{
    switch (pickShape<QueryValueShape>(random_, kQueryValueShapeWeights))
    {
        case QueryValueShape::Number:
            appendDigits(random_, out, kQueryNumberDigits);
            return;
        case QueryValueShape::Word:
            appendWord(out);
            return;
        case QueryValueShape::CyrillicText:
            appendCyrillicText(random_, out);
            return;
        case QueryValueShape::Token:
            for (size_t digit = 0; digit < kTokenDigits; ++digit)
            {
                out += kHexDigits[random_.below(kHexDigits.size())];
            }
            return;
    }
}

void UrlGenerator::appendWord(std::string& out)
{
    out += kWords[word_popularity_.sample(random_)];
}

StringColumn generateUrlColumn(UrlGenerator& generator, size_t target_bytes)
{
    /// Generous average URL size, to reserve the offsets once.
    constexpr size_t kReserveBytesPerUrl = 64;
    /// Room for the URL that crosses target_bytes.
    constexpr size_t kLastUrlSlack = 4096;
    StringColumn column;
    column.reserve(target_bytes / kReserveBytesPerUrl, target_bytes + kLastUrlSlack);
    std::string url;
    while (column.bytes() < target_bytes)
    {
        url.clear();
        generator.appendUrl(url);
        column.append(url);
    }
    return column;
}

}  // namespace granary::datagen
