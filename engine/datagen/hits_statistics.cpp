#include "engine/datagen/hits_statistics.h"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/datagen/hits_schema.h"
#include "engine/datagen/hits_targets.h"
#include "hashtables/hash.h"

namespace granary::datagen
{
namespace targets = hits_targets;

namespace
{

uint64_t textHash(std::string_view text)
{
    return hashing::hashString(text);
}

/// The host Q29's regexp ^https?://(?:www\.)?([^/]+)/.*$ extracts, or the whole referer.
std::string_view refererDomain(std::string_view referer)
{
    std::string_view rest = referer;
    if (rest.starts_with("https://"))
    {
        rest.remove_prefix(8);
    }
    else if (rest.starts_with("http://"))
    {
        rest.remove_prefix(7);
    }
    else
    {
        return referer;
    }
    if (rest.starts_with("www."))
    {
        rest.remove_prefix(4);
    }
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0 || rest.find('\n') != std::string_view::npos)
    {
        return referer;
    }
    return rest.substr(0, slash);
}

template <typename Map>
double topShare(const Map& counts, size_t top, double rows)
{
    std::vector<uint64_t> values;
    for (const auto& [key, count] : counts)
    {
        values.push_back(count);
    }
    const size_t keep = std::min(top, values.size());
    std::partial_sort(values.begin(), values.begin() + static_cast<ptrdiff_t>(keep), values.end(),
                      std::greater<>());
    double total = 0;
    for (size_t i = 0; i < keep; ++i)
    {
        total += static_cast<double>(values[i]);
    }
    return rows == 0 ? 0 : total / rows;
}

}  // namespace

struct HitsStatistics::Accumulators
{
    uint64_t rows = 0;
    absl::flat_hash_set<int64_t> users;
    absl::flat_hash_map<int64_t, uint64_t> user_rows;
    long double user_sum = 0;
    uint64_t planted_user_rows = 0;
    absl::flat_hash_set<uint64_t> phrases;
    absl::flat_hash_map<uint64_t, uint64_t> phrase_rows;
    uint64_t non_empty_phrases = 0;
    uint64_t adv_non_zero = 0;
    uint64_t adv_sum = 0;
    absl::flat_hash_set<int16_t> adv_values;
    int64_t width_sum = 0;
    uint64_t region_229 = 0;
    absl::flat_hash_map<int32_t, uint64_t> counter_rows;
    uint64_t hot_rows = 0;
    uint64_t hot_rows_on_hot_date = 0;
    uint64_t url_google = 0;
    uint64_t url_empty = 0;
    uint64_t url_bytes = 0;
    absl::flat_hash_map<uint64_t, uint64_t> url_rows;
    uint64_t title_empty = 0;
    uint64_t title_google = 0;
    uint64_t referer_empty = 0;
    absl::flat_hash_set<uint64_t> referers;
    absl::flat_hash_map<std::string, uint64_t> referer_domain_rows;
    uint64_t mobile_models = 0;
    uint64_t is_refresh = 0;
    uint64_t dont_count_hits = 0;
    uint64_t is_link = 0;
    uint64_t is_download = 0;
    uint16_t min_date = UINT16_MAX;
    uint16_t max_date = 0;
    absl::flat_hash_set<uint16_t> dates;
    uint64_t date_mismatches = 0;
    uint64_t q41_rows = 0;
    uint64_t q42_rows = 0;
    absl::flat_hash_set<uint32_t> q43_minutes;
    uint64_t watch_non_positive = 0;
};

HitsStatistics::HitsStatistics() : state_(std::make_unique<Accumulators>()) {}
HitsStatistics::~HitsStatistics() = default;

uint64_t HitsStatistics::rows() const
{
    return state_->rows;
}

void HitsStatistics::add(const Block& block)
{
    Accumulators& s = *state_;
    const auto view = [&](size_t column) { return block.columns[column].column.view(); };
    namespace C = HitsColumn;
    const ColumnView user = view(C::UserID), phrase = view(C::SearchPhrase),
                     adv = view(C::AdvEngineID), width = view(C::ResolutionWidth),
                     region = view(C::RegionID), counter = view(C::CounterID),
                     date = view(C::EventDate), time = view(C::EventTime), url = view(C::URL),
                     title = view(C::Title), referer = view(C::Referer),
                     model = view(C::MobilePhoneModel), refresh = view(C::IsRefresh),
                     dont_count = view(C::DontCountHits), link = view(C::IsLink),
                     download = view(C::IsDownload), traffic = view(C::TraficSourceID),
                     referer_hash = view(C::RefererHash), url_hash = view(C::URLHash),
                     watch = view(C::WatchID);
    const size_t rows = block.rows();
    s.rows += rows;
    for (size_t row = 0; row < rows; ++row)
    {
        const auto user_id = user.valueAt<int64_t>(row);
        s.users.insert(user_id);
        ++s.user_rows[user_id];
        s.user_sum += static_cast<long double>(user_id);
        s.planted_user_rows += user_id == targets::kPlantedUserId;

        const std::string_view phrase_text = phrase.stringAt(row);
        s.phrases.insert(textHash(phrase_text));
        if (!phrase_text.empty())
        {
            ++s.non_empty_phrases;
            ++s.phrase_rows[textHash(phrase_text)];
        }
        const auto adv_engine = adv.valueAt<int16_t>(row);
        s.adv_non_zero += adv_engine != 0;
        s.adv_sum += static_cast<uint64_t>(adv_engine);
        s.adv_values.insert(adv_engine);
        s.width_sum += width.valueAt<int16_t>(row);
        s.region_229 += region.valueAt<int32_t>(row) == 229;

        const auto counter_id = counter.valueAt<int32_t>(row);
        ++s.counter_rows[counter_id];
        const auto day = date.valueAt<uint16_t>(row);
        const auto seconds = time.valueAt<uint32_t>(row);
        const bool hot = counter_id == targets::kHotCounter;
        const bool counted = refresh.valueAt<int16_t>(row) == 0;
        s.hot_rows += hot;
        s.hot_rows_on_hot_date += hot && day == targets::kHotCounterDate;
        s.min_date = std::min(s.min_date, day);
        s.max_date = std::max(s.max_date, day);
        s.dates.insert(day);
        s.date_mismatches +=
            (static_cast<int64_t>(seconds) + targets::kMoscowOffsetSeconds) / 86400 != day;

        const std::string_view url_text = url.stringAt(row);
        s.url_google += url_text.find("google") != std::string_view::npos;
        s.url_empty += url_text.empty();
        s.url_bytes += url_text.size();
        ++s.url_rows[textHash(url_text)];
        const std::string_view title_text = title.stringAt(row);
        s.title_empty += title_text.empty();
        s.title_google += title_text.find("Google") != std::string_view::npos;
        const std::string_view referer_text = referer.stringAt(row);
        if (referer_text.empty())
        {
            ++s.referer_empty;
        }
        else
        {
            s.referers.insert(textHash(referer_text));
            ++s.referer_domain_rows[std::string(refererDomain(referer_text))];
        }
        s.mobile_models += !model.stringAt(row).empty();
        s.is_refresh += refresh.valueAt<int16_t>(row) != 0;
        s.dont_count_hits += dont_count.valueAt<int16_t>(row) != 0;
        s.is_link += link.valueAt<int16_t>(row) != 0;
        s.is_download += download.valueAt<int16_t>(row) != 0;

        const auto source = traffic.valueAt<int16_t>(row);
        s.q41_rows += hot && counted && (source == -1 || source == 6) &&
                      referer_hash.valueAt<int64_t>(row) == targets::kPlantedRefererHash;
        s.q42_rows += hot && counted && dont_count.valueAt<int16_t>(row) == 0 &&
                      url_hash.valueAt<int64_t>(row) == targets::kPlantedUrlHash;
        if (hot && counted && dont_count.valueAt<int16_t>(row) == 0 &&
            day >= targets::kHotCounterDate - 1 && day <= targets::kHotCounterDate)
        {
            s.q43_minutes.insert(seconds / 60);
        }
        s.watch_non_positive += watch.valueAt<int64_t>(row) <= 0;
    }
}

bool HitsCheck::passes() const
{
    switch (kind)
    {
        case Kind::kRelative:
            return std::abs(measured - target) <= tolerance * std::abs(target);
        case Kind::kAbsolute:
            return std::abs(measured - target) <= tolerance;
        case Kind::kAtLeast:
            return measured >= target;
        case Kind::kAtMost:
            return measured <= target;
        case Kind::kInfo:
            return true;
    }
    return false;
}

std::vector<HitsCheck> HitsStatistics::checks() const
{
    using Kind = HitsCheck::Kind;
    const Accumulators& s = *state_;
    const double n = static_cast<double>(s.rows);
    const double scale = n / targets::kRealRows;
    const auto share = [&](double count) { return n == 0 ? 0.0 : count / n; };
    size_t big_counters = 0;
    for (const auto& [counter, count] : s.counter_rows)
    {
        big_counters += static_cast<double>(count) > 0.001 * n;
    }
    double top_user = 0;
    for (const auto& [user, count] : s.user_rows)
    {
        top_user = std::max(top_user, static_cast<double>(count));
    }
    const double hot = static_cast<double>(s.hot_rows);
    std::vector<HitsCheck> checks = {
        {"UserID distinct / rows", share(static_cast<double>(s.users.size())),
         targets::kUserDistinctShare, Kind::kRelative, 0.1, "[F] Q5"},
        {"AVG(UserID)", n == 0 ? 0 : static_cast<double>(s.user_sum / n), targets::kUserIdMean,
         Kind::kRelative, 0.1, "[F] Q4"},
        {"rows of UserID 435090932899640449", static_cast<double>(s.planted_user_rows),
         targets::kPlantedUserRows, Kind::kAbsolute, 0, "[F] Q20"},
        {"heaviest user / rows", share(top_user), targets::kHeavyUserRows[0] / targets::kRealRows,
         Kind::kRelative, 0.35, "[F] Q16"},
        {"SearchPhrase <> '' / rows", share(static_cast<double>(s.non_empty_phrases)),
         targets::kPhraseNonEmptyShare, Kind::kAbsolute, 0.01, "[E]"},
        {"SearchPhrase distinct / rows", share(static_cast<double>(s.phrases.size())),
         targets::kPhraseDistinctShare, Kind::kRelative, 0.1, "[F] Q6"},
        {"top SearchPhrase / rows", topShare(s.phrase_rows, 1, n), targets::kTopPhraseShare,
         Kind::kRelative, 0.5, "[F] Q13"},
        {"AdvEngineID <> 0 / rows", share(static_cast<double>(s.adv_non_zero)),
         targets::kAdvEngineNonZeroShare, Kind::kRelative, 0.1, "[F] Q2"},
        {"SUM(AdvEngineID) / rows", share(static_cast<double>(s.adv_sum)), targets::kAdvEngineSum,
         Kind::kRelative, 0.15, "[F] Q3"},
        {"AdvEngineID distinct values", static_cast<double>(s.adv_values.size()), 19, Kind::kAtMost,
         0, "[D] Q8"},
        {"AVG(ResolutionWidth)", share(static_cast<double>(s.width_sum)),
         targets::kResolutionWidthMean, Kind::kRelative, 0.03, "[F] Q3"},
        {"RegionID = 229 / rows", share(static_cast<double>(s.region_229)),
         18295832 / targets::kRealRows, Kind::kAbsolute, 0.01, "[F] Q10"},
        {"CounterID = 62 / rows", share(hot), targets::kHotCounterShare, Kind::kRelative, 0.1,
         "[F] Q28"},
        {"counter 62 rows on 2013-07-15 / its rows",
         hot == 0 ? 0 : static_cast<double>(s.hot_rows_on_hot_date) / hot, 1, Kind::kAbsolute, 0,
         "[E] Q41, Q43"},
        {"counters with > 0.1% of rows", static_cast<double>(big_counters), 25, Kind::kAtLeast, 0,
         "[F] Q28"},
        {"CounterID distinct", static_cast<double>(s.counter_rows.size()), 8000, Kind::kInfo, 0,
         "[E] 6,500-10,000"},
        {"URL LIKE '%google%' / rows", share(static_cast<double>(s.url_google)),
         targets::kUrlGoogleShare, Kind::kRelative, 0.5, "[F] Q21"},
        {"URL = '' / rows", share(static_cast<double>(s.url_empty)), 289355 / targets::kRealRows,
         Kind::kAtMost, 0, "[D] Q34"},
        {"top URL / rows", topShare(s.url_rows, 1, n), targets::kTopUrlShares[0], Kind::kRelative,
         0.1, "[F] Q34"},
        {"top 10 URLs / rows", topShare(s.url_rows, 10, n), 0.0863, Kind::kRelative, 0.1,
         "[D] Q34"},
        {"AVG(length(URL))", share(static_cast<double>(s.url_bytes)), 90, Kind::kAbsolute, 10,
         "[E] 80-100"},
        {"URL distinct / rows", share(static_cast<double>(s.url_rows.size())),
         targets::kUrlDistinctShare, Kind::kRelative, 0.15, "[E]"},
        {"Title = '' / rows", share(static_cast<double>(s.title_empty)), targets::kTitleEmptyShare,
         Kind::kAbsolute, 0.02, "[E]"},
        {"Title LIKE '%Google%' / rows", share(static_cast<double>(s.title_google)),
         targets::kTitleGoogleShare, Kind::kInfo, 0, "[E] Q23"},
        {"Referer = '' / rows", share(static_cast<double>(s.referer_empty)),
         targets::kRefererEmptyShare, Kind::kAbsolute, 0.02, "[E]"},
        {"Referer distinct / rows", share(static_cast<double>(s.referers.size())),
         targets::kRefererDistinctShare, Kind::kRelative, 0.2, "[E]"},
        {"top Referer domain (Q29 key) / rows", topShare(s.referer_domain_rows, 1, n), 0.105,
         Kind::kAbsolute, 0.01, "[F] Q29 8.2%, raised"},
        {"MobilePhoneModel <> '' / rows", share(static_cast<double>(s.mobile_models)),
         targets::kMobileModelShare, Kind::kAbsolute, 0.01, "[E] 3-5%"},
        {"IsRefresh <> 0 / rows", share(static_cast<double>(s.is_refresh)),
         targets::kIsRefreshShare, Kind::kAbsolute, 0.01, "[E]"},
        {"DontCountHits <> 0 / rows", share(static_cast<double>(s.dont_count_hits)),
         targets::kDontCountHitsShare, Kind::kAbsolute, 0.01, "[E]"},
        {"IsLink <> 0 / rows", share(static_cast<double>(s.is_link)), targets::kIsLinkShare,
         Kind::kAbsolute, 0.005, "[E]"},
        {"IsDownload <> 0 / rows", share(static_cast<double>(s.is_download)),
         targets::kIsDownloadShare, Kind::kAbsolute, 0.001, "[E]"},
        {"MIN(EventDate) (days)", static_cast<double>(s.min_date), targets::kFirstDate,
         Kind::kAbsolute, 0, "[F] Q7"},
        {"MAX(EventDate) (days)", static_cast<double>(s.max_date), targets::kLastDate,
         Kind::kAbsolute, 0, "[F] Q7"},
        {"EventDate distinct", static_cast<double>(s.dates.size()), 17, Kind::kAbsolute, 3,
         "[T] 1/9 sample"},
        {"EventDate <> Moscow date of EventTime", static_cast<double>(s.date_mismatches), 0,
         Kind::kAbsolute, 0, "[F] Q24"},
        {"Q41 rows (RefererHash literal)", static_cast<double>(s.q41_rows), 2750 * scale,
         Kind::kAtLeast, 0, "[D] Q41"},
        {"Q42 rows (URLHash literal)", static_cast<double>(s.q42_rows), 10010 * scale,
         Kind::kAtLeast, 0, "[D] Q42"},
        {"Q43 distinct minutes", static_cast<double>(s.q43_minutes.size()), 1011, Kind::kInfo, 0,
         "[F] Q43 OFFSET 1000"},
        {"WatchID <= 0 rows", static_cast<double>(s.watch_non_positive), 0, Kind::kAbsolute, 0,
         "[F] Q24"},
    };
    return checks;
}

size_t HitsStatistics::printReport(std::ostream& out) const
{
    const std::vector<HitsCheck> all = checks();
    size_t failures = 0;
    out << fmt::format("{:<44} {:>14} {:>14}  {:<12} {}\n",
                       "statistic (" + std::to_string(rows()) + " rows)", "measured", "target",
                       "tolerance", "source");
    for (const HitsCheck& check : all)
    {
        std::string tolerance;
        switch (check.kind)
        {
            case HitsCheck::Kind::kRelative:
                tolerance = fmt::format("±{:g}%", check.tolerance * 100);
                break;
            case HitsCheck::Kind::kAbsolute:
                tolerance = fmt::format("±{:g}", check.tolerance);
                break;
            case HitsCheck::Kind::kAtLeast:
                tolerance = ">= target";
                break;
            case HitsCheck::Kind::kAtMost:
                tolerance = "<= target";
                break;
            case HitsCheck::Kind::kInfo:
                tolerance = "(info)";
                break;
        }
        const bool ok = check.passes();
        failures += !ok;
        out << fmt::format("{:<44} {:>14.6g} {:>14.6g}  {:<12} {}{}\n", check.name, check.measured,
                           check.target, tolerance, check.source, ok ? "" : "  DEVIATES");
    }
    out << fmt::format("{} of {} checks deviate\n", failures, all.size());
    return failures;
}

}  // namespace granary::datagen
