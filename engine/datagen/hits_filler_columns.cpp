// The 80 columns no ClickBench query reads: plausible values of the right type and width, so
// that scans and SELECT * cost about what they cost on the real table.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "engine/datagen/hits_column_models.h"
#include "engine/datagen/hits_generator.h"
#include "engine/datagen/hits_schema.h"

namespace granary::datagen
{
namespace
{

using namespace std::string_view_literals;

/// How one filler column's values are drawn: an integer that is `low` with probability
/// `low_share` and else uniform in [low, high]; or a string that is strings[0] with probability
/// `low_share` and else uniform over strings.
struct FillerSpec
{
    size_t column;
    double low_share;
    int64_t low;
    int64_t high;
    std::span<const std::string_view> strings = {};
};

constexpr std::array kEmptyMostly = {""sv, "0"sv, "1"sv, "2"sv, "3"sv};
constexpr std::array kUserAgentMinor = {""sv, "0"sv, "1"sv, "2"sv, "5"sv, "D1"sv, "a4"sv};
constexpr std::array kCharsets = {"utf-8"sv, "windows-1251"sv, "koi8-r"sv, ""sv};
constexpr std::array kHitColors = {"5"sv, "D"sv, "E"sv, "F"sv};
constexpr std::array kLanguages = {"ru"sv, "en"sv, "uk"sv, "be"sv, "kk"sv, "de"sv, "tr"sv};
constexpr std::array kCountries = {"ru"sv, "ua"sv, "by"sv, "kz"sv, "us"sv, "de"sv, "tr"sv};
constexpr std::array kSocialNetworks = {""sv, "vkontakte"sv, "odnoklassniki"sv, "facebook"sv,
                                        "twitter"sv};
constexpr std::array kSocialActions = {""sv, "like"sv, "share"sv, "comment"sv};
constexpr std::array kSocialPages = {""sv, "http://vk.com/feed"sv, "http://ok.ru/group/5372"sv,
                                     "http://www.facebook.com/"sv};
constexpr std::array kParams = {""sv, "[\"Поиск\",\"Результаты\"]"sv, "{\"goal\":\"order\"}"sv,
                                "{\"ab\":2}"sv};
constexpr std::array kOrderIds = {""sv, "A-10293"sv, "731550"sv, "order_88412"sv};
constexpr std::array kCurrencies = {""sv, "RUB"sv, "USD"sv, "EUR"sv};
constexpr std::array kOpenstatServices = {""sv, "direct.yandex.ru"sv, "begun.ru"sv, "adwords"sv};
constexpr std::array kCampaigns = {""sv, "4471"sv, "spring_sale"sv, "brand"sv, "retarget_7"sv};
constexpr std::array kUtmSources = {""sv, "yandex"sv, "vk"sv, "email"sv, "direct"sv};
constexpr std::array kUtmMediums = {""sv, "cpc"sv, "banner"sv, "email"sv, "social"sv};
constexpr std::array kTerms = {""sv, "купить"sv, "цена"sv, "доставка"sv, "отзывы"sv};
constexpr std::array kOriginalUrls = {""sv, "http://m.example.ru/"sv,
                                      "http://translate.ru/?url=1"sv};

namespace C = HitsColumn;
constexpr std::array kSpecs = {
    FillerSpec{C::JavaEnable, 0.3, 0, 1},
    FillerSpec{C::GoodEvent, 0.0, 1, 1},
    FillerSpec{C::CounterClass, 0.7, 0, 2},
    FillerSpec{C::OS, 0.0, 1, 120},
    FillerSpec{C::UserAgent, 0.0, 1, 120},
    FillerSpec{C::RefererCategoryID, 0.4, 0, 20},
    FillerSpec{C::RefererRegionID, 0.3, 0, 20000},
    FillerSpec{C::URLCategoryID, 0.4, 0, 20},
    FillerSpec{C::URLRegionID, 0.3, 0, 20000},
    FillerSpec{C::ResolutionDepth, 0.0, 16, 32},
    FillerSpec{C::FlashMajor, 0.3, 0, 11},
    FillerSpec{C::FlashMinor, 0.5, 0, 9},
    FillerSpec{C::FlashMinor2, 0.8, 0, 0, kEmptyMostly},
    FillerSpec{C::NetMajor, 0.7, 0, 4},
    FillerSpec{C::NetMinor, 0.7, 0, 9},
    FillerSpec{C::UserAgentMajor, 0.0, 1, 40},
    FillerSpec{C::UserAgentMinor, 0.5, 0, 0, kUserAgentMinor},
    FillerSpec{C::CookieEnable, 0.02, 0, 1},
    FillerSpec{C::JavascriptEnable, 0.03, 0, 1},
    FillerSpec{C::Params, 0.95, 0, 0, kParams},
    FillerSpec{C::IPNetworkID, 0.0, 1, 4'000'000},
    FillerSpec{C::IsArtifical, 0.999, 0, 1},
    FillerSpec{C::ClientTimeZone, 0.0, -12, 14},
    FillerSpec{C::SilverlightVersion1, 0.8, 0, 5},
    FillerSpec{C::SilverlightVersion2, 0.8, 0, 9},
    FillerSpec{C::SilverlightVersion3, 0.8, 0, 60000},
    FillerSpec{C::SilverlightVersion4, 0.8, 0, 9},
    FillerSpec{C::PageCharset, 0.7, 0, 0, kCharsets},
    FillerSpec{C::CodeVersion, 0.0, 1, 1000},
    FillerSpec{C::IsNotBounce, 0.7, 0, 1},
    FillerSpec{C::OriginalURL, 0.95, 0, 0, kOriginalUrls},
    FillerSpec{C::HID, 0.0, INT32_MIN, INT32_MAX},
    FillerSpec{C::IsOldCounter, 0.99, 0, 1},
    FillerSpec{C::IsEvent, 0.98, 0, 1},
    FillerSpec{C::IsParameter, 0.99, 0, 1},
    FillerSpec{C::WithHash, 0.95, 0, 1},
    FillerSpec{C::HitColor, 0.6, 0, 0, kHitColors},
    FillerSpec{C::Age, 0.4, 0, 6},
    FillerSpec{C::Sex, 0.4, 0, 2},
    FillerSpec{C::Income, 0.5, 0, 4},
    FillerSpec{C::Interests, 0.3, 0, 30000},
    FillerSpec{C::Robotness, 0.9, 0, 3},
    FillerSpec{C::WindowName, 0.2, -1, INT32_MAX},
    FillerSpec{C::OpenerName, 0.5, -1, INT32_MAX},
    FillerSpec{C::HistoryLength, 0.0, 0, 50},
    FillerSpec{C::BrowserLanguage, 0.8, 0, 0, kLanguages},
    FillerSpec{C::BrowserCountry, 0.8, 0, 0, kCountries},
    FillerSpec{C::SocialNetwork, 0.98, 0, 0, kSocialNetworks},
    FillerSpec{C::SocialAction, 0.99, 0, 0, kSocialActions},
    FillerSpec{C::HTTPError, 0.99, 0, 504},
    FillerSpec{C::SendTiming, 0.5, 0, 5000},
    FillerSpec{C::DNSTiming, 0.5, 0, 500},
    FillerSpec{C::ConnectTiming, 0.5, 0, 1000},
    FillerSpec{C::ResponseStartTiming, 0.5, 0, 3000},
    FillerSpec{C::ResponseEndTiming, 0.5, 0, 6000},
    FillerSpec{C::FetchTiming, 0.5, 0, 6000},
    FillerSpec{C::SocialSourceNetworkID, 0.97, 0, 10},
    FillerSpec{C::SocialSourcePage, 0.97, 0, 0, kSocialPages},
    FillerSpec{C::ParamPrice, 0.98, 0, 100'000'000},
    FillerSpec{C::ParamOrderID, 0.99, 0, 0, kOrderIds},
    FillerSpec{C::ParamCurrency, 0.98, 0, 0, kCurrencies},
    FillerSpec{C::ParamCurrencyID, 0.98, 0, 3},
    FillerSpec{C::OpenstatServiceName, 0.98, 0, 0, kOpenstatServices},
    FillerSpec{C::OpenstatCampaignID, 0.98, 0, 0, kCampaigns},
    FillerSpec{C::OpenstatAdID, 0.98, 0, 0, kCampaigns},
    FillerSpec{C::OpenstatSourceID, 0.98, 0, 0, kUtmSources},
    FillerSpec{C::UTMSource, 0.9, 0, 0, kUtmSources},
    FillerSpec{C::UTMMedium, 0.9, 0, 0, kUtmMediums},
    FillerSpec{C::UTMCampaign, 0.9, 0, 0, kCampaigns},
    FillerSpec{C::UTMContent, 0.95, 0, 0, kCampaigns},
    FillerSpec{C::UTMTerm, 0.95, 0, 0, kTerms},
    FillerSpec{C::FromTag, 0.97, 0, 0, kUtmSources},
    FillerSpec{C::HasGCLID, 0.99, 0, 1},
    FillerSpec{C::CLID, 0.9, 0, 3'000'000},
};

/// Bound on the length of a filler string value.
constexpr size_t kMaxFillerString = 64;
/// Bound on a filler column's list of strings: a choice is one byte.
constexpr size_t kMaxFillerChoices = 256;

constexpr bool fillerStringsFit()
{
    for (const FillerSpec& spec : kSpecs)
    {
        if (spec.strings.size() > kMaxFillerChoices)
        {
            return false;
        }
        for (const std::string_view value : spec.strings)
        {
            if (value.size() > kMaxFillerString)
            {
                return false;
            }
        }
    }
    return true;
}
static_assert(fillerStringsFit());

/// Value ranges up to this wide take 32 random bits per value.
constexpr uint64_t kNarrowRange = 1 << 16;

/// MurmurHash3's 32-bit finalizer: a bijection that mixes every input bit into every output bit.
inline uint32_t mix32(uint32_t value)
{
    value ^= value >> 16;
    value *= 0x85EBCA6BU;
    value ^= value >> 13;
    value *= 0xC2B2AE35U;
    return value ^ (value >> 16);
}

/// Calls emit(row, low, index) for each row: `low` with probability low_share, else `index`
/// uniform below `range`. A narrow range takes a 32-bit word per value, 16 bits to decide
/// low_share and 16 for the index, each word a hash of the row number from a seed drawn from
/// `random`: no state goes from row to row, so the loop vectorizes (the draws were most of
/// the filler columns' time). A wider range takes a 64-bit draw per value, 53 bits to decide
/// (integer compares, no conversion to double) and 32 for the index.
template <typename Emit>
void drawValues(double low_share, uint64_t range, size_t rows, Random& random, Emit emit)
{
    if (range <= kNarrowRange)
    {
        const auto start = static_cast<uint32_t>(random.next());
        const auto low_bound = static_cast<uint32_t>(std::ceil(low_share * 0x1.0p16));
        const auto narrow_range = static_cast<uint32_t>(range);
        for (size_t row = 0; row < rows; ++row)
        {
            const uint32_t word = mix32(start + static_cast<uint32_t>(row) * 0x9E3779B9U);
            emit(row, (word >> 16) < low_bound, ((word & 0xFFFFU) * narrow_range) >> 16);
        }
        return;
    }
    // A local copy: writes through a byte-wide pointer in emit could alias the member state.
    Random stream = random;
    const auto low_bound = static_cast<uint64_t>(std::ceil(low_share * 0x1.0p53));
    for (size_t row = 0; row < rows; ++row)
    {
        const uint64_t bits = stream.next();
        emit(row, (bits >> 11) < low_bound, ((bits & 0xFFFFFFFFULL) * range) >> 32);
    }
    random = stream;
}

/// Writes the chosen strings, each copied as a whole zero-padded slot of SlotSize bytes (a
/// fixed-size copy the compiler inlines); the next value overwrites the padding, the last
/// one's is cut off.
template <size_t SlotSize>
void writeChoices(std::span<const std::string_view> strings, const std::vector<uint8_t>& choices,
                  size_t bytes, Column& column)
{
    std::vector<std::array<char, SlotSize>> slots(strings.size());
    for (size_t i = 0; i < strings.size(); ++i)
    {
        slots[i].fill(0);
        std::memcpy(slots[i].data(), strings[i].data(), strings[i].size());
    }
    const size_t rows = choices.size();
    column.resizeStringsUninitialized(rows, bytes + SlotSize);
    char* chars = column.mutableChars();
    uint64_t* offsets = column.mutableOffsets();
    offsets[0] = 0;
    // The running offset stays in a register: reading it back from `offsets` after each store
    // through `chars` (which may alias it) made a store-to-load chain.
    uint64_t offset = 0;
    for (size_t row = 0; row < rows; ++row)
    {
        const uint8_t choice = choices[row];
        std::memcpy(chars + offset, slots[choice].data(), SlotSize);
        offset += strings[choice].size();
        offsets[row + 1] = offset;
    }
    column.resizeStringsUninitialized(rows, bytes);
}

void fillColumn(const FillerSpec& spec, Column& column, size_t rows, Random& random)
{
    if (!spec.strings.empty())
    {
        // Choices first (a loop that vectorizes), their lengths summed from a count per
        // string, then one bulk write of chars and offsets.
        std::vector<uint8_t> choices(rows);
        drawValues(spec.low_share, spec.strings.size(), rows, random,
                   [&](size_t row, bool low, uint64_t index)
                   { choices[row] = static_cast<uint8_t>(low ? 0 : index); });
        std::array<size_t, kMaxFillerChoices> choice_counts{};
        for (const uint8_t choice : choices)
        {
            ++choice_counts[choice];
        }
        size_t bytes = 0;
        size_t longest = 0;
        for (size_t i = 0; i < spec.strings.size(); ++i)
        {
            bytes += choice_counts[i] * spec.strings[i].size();
            longest = std::max(longest, spec.strings[i].size());
        }
        if (longest <= 16)
        {
            writeChoices<16>(spec.strings, choices, bytes, column);
        }
        else
        {
            writeChoices<kMaxFillerString>(spec.strings, choices, bytes, column);
        }
        return;
    }
    // Locals, not spec fields: a write through a byte-wide T* could alias them otherwise.
    const int64_t low = spec.low;
    const auto range = static_cast<uint64_t>(spec.high - spec.low) + 1;
    dispatchFixedType(column.type(),
                      [&]<typename T>(TypeTag<T>)
                      {
                          T* values = column.mutableData<T>();
                          drawValues(spec.low_share, range, rows, random,
                                     [&](size_t row, bool is_low, uint64_t index) {
                                         values[row] = static_cast<T>(
                                             is_low ? low : low + static_cast<int64_t>(index));
                                     });
                      });
}

/// Columns that follow from modeled ones.
void fillDerivedColumns(Block& block, size_t rows, Random& random)
{
    const auto column = [&](size_t index) -> Column& { return block.columns[index].column; };
    const auto* event_times = column(C::EventTime).mutableData<uint32_t>();
    const auto* client_ips = column(C::ClientIP).mutableData<int32_t>();
    const auto* user_ids = column(C::UserID).mutableData<int64_t>();
    const auto* widths = column(C::ResolutionWidth).mutableData<int16_t>();
    const ColumnView models = column(C::MobilePhoneModel).view();
    auto* client_times = column(C::ClientEventTime).mutableData<uint32_t>();
    auto* local_times = column(C::LocalEventTime).mutableData<uint32_t>();
    auto* remote_ips = column(C::RemoteIP).mutableData<int32_t>();
    auto* unique_ids = column(C::FUniqID).mutableData<int64_t>();
    auto* heights = column(C::ResolutionHeight).mutableData<int16_t>();
    auto* is_mobile = column(C::IsMobile).mutableData<int16_t>();
    for (size_t row = 0; row < rows; ++row)
    {
        client_times[row] = event_times[row] - 120 + static_cast<uint32_t>(random.below(240));
        local_times[row] = event_times[row] + 3600 * static_cast<uint32_t>(random.below(5));
        remote_ips[row] =
            random.chance(0.9) ? client_ips[row] : static_cast<int32_t>(random.next());
        unique_ids[row] =
            random.chance(0.3)
                ? 0
                : static_cast<int64_t>(mixSeed(static_cast<uint64_t>(user_ids[row]), 0xF0));
        heights[row] =
            static_cast<int16_t>(widths[row] * 9 / 16 + static_cast<int16_t>(random.below(64)));
        is_mobile[row] = models.stringAt(row).empty() ? 0 : 1;
    }
}

}  // namespace

void generateFillerColumns(Block& block, uint64_t seed, size_t chunk_index)
{
    const size_t rows = block.rows();
    for (const FillerSpec& spec : kSpecs)
    {
        Random random(mixSeed(seed, chunk_index * 1024 + 512 + spec.column));
        fillColumn(spec, block.columns[spec.column].column, rows, random);
    }
    Random derived(mixSeed(seed, chunk_index * 1024 + 1023));
    fillDerivedColumns(block, rows, derived);
}

}  // namespace granary::datagen
