#include "tests/planner/hits_generator.h"

#include <array>
#include <map>
#include <string>

namespace granary::oracle
{
namespace
{

uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int64_t hashText(const std::string& text)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text)
    {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return static_cast<int64_t>(hash);
}

class Random
{
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() { return state_ = mix(state_); }
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
    bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1p-53 < p; }
    /// Small indexes are far more likely (density falling as 1/sqrt).
    size_t skewed(size_t n)
    {
        const double u = static_cast<double>(next() >> 11) * 0x1p-53;
        return std::min(n - 1, static_cast<size_t>(u * u * static_cast<double>(n)));
    }

private:
    uint64_t state_;
};

const std::array<const char*, 30> kDomains = {
    "yandex.ru",      "mail.ru",         "vk.com",        "ok.ru",           "avito.ru",
    "news.example",   "lenta.ru",        "rbc.ru",        "kp.ru",           "auto.ru",
    "kinopoisk.ru",   "drive2.ru",       "irr.ru",        "livejournal.com", "wikipedia.org",
    "youtube.com",    "habr.com",        "gismeteo.ru",   "sport.example",   "market.example",
    "maps.example",   "weather.example", "shop.example",  "forum.example",   "blog.example",
    "travel.example", "music.example",   "games.example", "cars.example",    "food.example"};

std::string urlOf(size_t index)
{
    switch (index % 25)
    {
        case 0:
            return "https://www.google.com/search?q=item" + std::to_string(index);
        case 1:
            return "http://googleplex.example/page" + std::to_string(index);
        case 2:
            return "http://maps.google.ru/?ll=" + std::to_string(index);
        default:
            return "http://" + std::string(kDomains[index % kDomains.size()]) + "/catalog/" +
                   std::to_string(index) + ".html";
    }
}

std::string titleOf(size_t index)
{
    switch (index % 10)
    {
        case 0:
            return "Google " + std::to_string(index) + " results";
        case 1:
            return "\xd0\x9f\xd0\xbe\xd0\xb8\xd1\x81\xd0\xba Google " + std::to_string(index);
        case 2:
            return "google lower " + std::to_string(index);
        default:
            return "Page title " + std::to_string(index);
    }
}

std::string refererOf(Random& random)
{
    const std::string domain = kDomains[random.skewed(kDomains.size())];
    const size_t kind = random.below(20);
    const std::string number = std::to_string(random.below(1000));
    if (kind < 14)
    {
        return "https://www." + domain + "/ref/" + number;
    }
    if (kind < 17)
    {
        return "http://" + domain + "/";
    }
    if (kind < 19)
    {
        return "https://" + domain;  // No path: Q29's pattern does not match.
    }
    return "android-app://com.app" + std::to_string(random.below(50));
}

std::string searchPhraseOf(size_t index)
{
    // Some phrases are UTF-8, so that byte order matters in ORDER BY and MIN.
    return (index % 7 == 0 ? "\xd0\xbf\xd0\xbe\xd0\xb3\xd0\xbe\xd0\xb4\xd0\xb0 " : "query ") +
           std::to_string(index);
}

Value fillerValue(TypeId type, uint64_t hash, int64_t event_time)
{
    switch (type)
    {
        case TypeId::String:
            return hash % 3 == 0 ? "f" + std::to_string(hash % 10) : std::string();
        case TypeId::Date:
            return DateValue{event_time / 86400};
        case TypeId::DateTime:
            return DateTimeValue{event_time + static_cast<int64_t>(hash % 7200) - 3600};
        case TypeId::Float32:
        case TypeId::Float64:
            return static_cast<double>(hash % 1000) / 8;
        default:
            return valueOfType(type, Value(static_cast<int64_t>(hash % 100)));
    }
}

}  // namespace

void appendHitsRows(RowTable& table, size_t rows, uint64_t seed)
{
    std::map<std::string, size_t, std::less<>> index;
    for (size_t c = 0; c < table.names.size(); ++c)
    {
        index[table.names[c]] = c;
    }
    const int64_t july_first = daysFromCivil(2013, 7, 1);
    const size_t first_row = table.rows.size();
    int64_t previous_watch_id = 0;
    int64_t previous_client_ip = 0;
    for (size_t r = 0; r < rows; ++r)
    {
        Random random(mix(seed ^ mix(first_row + r)));
        std::map<std::string, Value, std::less<>> values;

        const size_t day_kind = random.below(100);
        int64_t day = july_first + 13 + static_cast<int64_t>(random.below(2));  // July 14-15.
        if (day_kind >= 30 && day_kind < 85)
        {
            day = july_first + static_cast<int64_t>(random.below(31));
        }
        else if (day_kind >= 85)
        {
            day = july_first - 11 + static_cast<int64_t>(random.below(52));  // June 20..Aug 10.
        }
        const int64_t event_time = day * 86400 + static_cast<int64_t>(random.below(86400));
        values["EventTime"] = DateTimeValue{event_time};
        values["EventDate"] = DateValue{day};

        int64_t watch_id = static_cast<int64_t>(random.next() >> 1);
        int64_t client_ip = static_cast<int32_t>(mix(random.skewed(3000)));
        if (r % 5 == 1)
        {
            // Repeated (WatchID, ClientIP) pairs give Q32/Q33 counts above 1.
            watch_id = previous_watch_id;
            client_ip = previous_client_ip;
        }
        previous_watch_id = watch_id;
        previous_client_ip = client_ip;
        values["WatchID"] = watch_id;
        values["ClientIP"] = client_ip;

        values["CounterID"] =
            int64_t{random.chance(0.7) ? 62 : 1 + static_cast<int64_t>(random.below(40))};
        values["RegionID"] = static_cast<int64_t>(1 + random.skewed(250));
        const size_t user = random.skewed(4000);
        int64_t user_id = static_cast<int64_t>(mix(user + 17) >> 1);
        if (user % 9 == 0)
        {
            user_id = -user_id;
        }
        if ((first_row + r) % 12500 == 100)
        {
            user_id = kPlantedUserId;
        }
        values["UserID"] = user_id;

        std::string url;
        if (!random.chance(0.02))
        {
            url = urlOf(random.chance(0.5) ? random.below(100) : random.below(3000));
        }
        const std::string referer = random.chance(0.4) ? std::string() : refererOf(random);
        values["Title"] = titleOf(random.skewed(400));
        values["URLHash"] = random.chance(0.5) ? kPlantedUrlHash : hashText(url);
        values["RefererHash"] = random.chance(0.25) ? kPlantedRefererHash : hashText(referer);
        values["URL"] = url;
        values["Referer"] = referer;

        values["IsRefresh"] = int64_t{random.chance(0.08) ? 1 : 0};
        static constexpr std::array<int64_t, 10> kWidths = {1024, 1280, 1366, 1440, 1600,
                                                            1920, 0,    800,  1536, 360};
        values["ResolutionWidth"] = kWidths[random.below(kWidths.size())];
        values["MobilePhone"] = static_cast<int64_t>(random.below(20));
        values["MobilePhoneModel"] =
            random.chance(0.8) ? std::string() : "model " + std::to_string(random.skewed(40));
        static constexpr std::array<int64_t, 8> kSources = {0, 1, 2, 3, 4, 5, -1, 6};
        values["TraficSourceID"] =
            random.chance(0.3) ? kSources[6 + random.below(2)] : kSources[random.below(6)];
        values["SearchEngineID"] =
            static_cast<int64_t>(random.chance(0.4) ? 1 + random.below(10) : 0);
        values["SearchPhrase"] =
            random.chance(0.55) ? std::string() : searchPhraseOf(random.skewed(1500));
        values["AdvEngineID"] = static_cast<int64_t>(random.chance(0.1) ? 1 + random.below(30) : 0);
        values["WindowClientWidth"] = static_cast<int64_t>(random.below(2000));
        values["WindowClientHeight"] = static_cast<int64_t>(random.below(1500));
        values["IsLink"] = int64_t{random.chance(0.5) ? 1 : 0};
        values["IsDownload"] = int64_t{random.chance(0.1) ? 1 : 0};
        values["DontCountHits"] = int64_t{random.chance(0.08) ? 1 : 0};

        Row row;
        row.reserve(table.names.size());
        for (size_t c = 0; c < table.names.size(); ++c)
        {
            const auto found = values.find(table.names[c]);
            row.push_back(found != values.end()
                              ? valueOfType(table.types[c], found->second)
                              : fillerValue(table.types[c], mix(random.next() + c), event_time));
        }
        table.rows.push_back(std::move(row));
    }
}

}  // namespace granary::oracle
