#include "engine/datagen/hits_generator.h"

#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "engine/common/exception.h"
#include "engine/datagen/hits_column_models.h"
#include "engine/datagen/hits_schema.h"
#include "engine/datagen/hits_targets.h"
#include "engine/datagen/hits_text.h"
#include "engine/datagen/string_column.h"
#include "engine/exec/executor.h"
#include "hashtables/hash.h"

namespace granary::datagen
{
namespace targets = hits_targets;

namespace
{

/// Tags that separate the random streams of one chunk (and of one entity kind).
enum Stream : uint64_t
{
    kUserStream = 1,
    kUserAttributes,
    kCounterStream,
    kTimeStream,
    kRegionStream,
    kPhraseStream,
    kUrlStream,
    kTitleStream,
    kRefererStream,
    kFlagStream,
    kEngineStream,
    kClientStream,
    kWatchStream,
    kStreamCount,
};

uint64_t chunkStreamSeed(uint64_t seed, size_t chunk, Stream stream)
{
    return mixSeed(seed, chunk * 1024 + stream);
}

constexpr size_t kUserHeavyHitters = targets::kHeavyUserRows.size();
constexpr size_t kTailCounters = 8000;
constexpr size_t kInventedRegions = 6000;
constexpr size_t kMobileModels = 2000;
constexpr double kMobileUserShare = 0.08;
constexpr double kMobileRowShareOfMobileUser = targets::kMobileModelShare / kMobileUserShare;
constexpr double kHotCounterIsLinkShare = 0.35;
constexpr int64_t kHeavyClientIps[] = {-39921974, -1698104457, -1175819552, 1696638182, 1138507705};
constexpr double kHeavyClientIpRows[] = {47008, 29121, 25333, 20220, 15778};
/// The real table has rows on about 17 of July's 30 dates [T]; which ones is not published.
constexpr std::array<int, 17> kActiveJulyDays = {2,  3,  4,  5,  8,  9,  10, 11, 12,
                                                 15, 16, 17, 18, 22, 23, 24, 31};
/// Moscow-time hourly traffic profile (night low, evening peak) [E].
constexpr std::array<double, 24> kHourWeights = {3, 2, 1.5, 1, 1, 1.2, 2,   3, 4.5, 5.5, 6,   6,
                                                 6, 6, 6,   6, 6, 6,   6.5, 7, 7,   6.5, 5.5, 4};
constexpr std::string_view kPlantedReferer =
    "http://irr.ru/index.php?showalbum/login-kupit-prodat,938303130";

std::vector<int64_t> distinctRandomIds(Random& random, size_t count, int64_t low, int64_t high,
                                       const std::vector<int64_t>& exclude)
{
    std::vector<int64_t> ids;
    std::vector<int64_t> taken = exclude;
    std::sort(taken.begin(), taken.end());
    while (ids.size() < count)
    {
        const auto id = static_cast<int64_t>(
            random.between(static_cast<uint64_t>(low), static_cast<uint64_t>(high)));
        if (!std::binary_search(taken.begin(), taken.end(), id))
        {
            ids.push_back(id);
            taken.insert(std::upper_bound(taken.begin(), taken.end(), id), id);
        }
    }
    return ids;
}

/// Head values with their published row counts, then `tail` invented ids sharing the rest of
/// the rows with Zipf-Mandelbrot weights 1 / (rank + 30).
template <size_t HeadSize>
WeightedChoice headAndTail(const std::array<targets::ValueRows, HeadSize>& head, size_t tail,
                           int64_t tail_high, Random& random)
{
    std::vector<int64_t> values;
    std::vector<double> weights;
    double head_rows = 0;
    for (const auto& [value, rows] : head)
    {
        values.push_back(value);
        weights.push_back(rows);
        head_rows += rows;
    }
    const std::vector<int64_t> invented = distinctRandomIds(random, tail, 1, tail_high, values);
    double harmonic = 0;
    for (size_t rank = 0; rank < tail; ++rank)
    {
        harmonic += 1.0 / static_cast<double>(rank + 30);
    }
    const double tail_rows = targets::kRealRows - head_rows;
    for (size_t rank = 0; rank < tail; ++rank)
    {
        values.push_back(invented[rank]);
        weights.push_back(tail_rows / static_cast<double>(rank + 30) / harmonic);
    }
    return WeightedChoice(std::move(values), weights);
}

SkewedIndex::Shape userShape(uint64_t rows)
{
    SkewedIndex::Shape shape;
    for (const double heavy : targets::kHeavyUserRows)
    {
        shape.heavy_shares.push_back(heavy / targets::kRealRows);
    }
    shape.draws = static_cast<double>(rows);
    shape.expected_distinct = targets::kUserDistinctShare * static_cast<double>(rows);
    return shape;
}

SkewedIndex::Shape phraseShape(uint64_t rows)
{
    SkewedIndex::Shape shape;
    shape.zipf_size = 1000;
    // The top of a 1000-value Zipf head with this share lands near the top phrase's 0.07%.
    shape.zipf_share = targets::kTopPhraseShare / targets::kPhraseNonEmptyShare * 7.485;
    shape.draws = targets::kPhraseNonEmptyShare * static_cast<double>(rows);
    shape.expected_distinct = targets::kPhraseDistinctShare * static_cast<double>(rows) - 1;
    return shape;
}

SkewedIndex::Shape urlShape(uint64_t rows)
{
    SkewedIndex::Shape shape;
    shape.heavy_shares.assign(targets::kTopUrlShares.begin(), targets::kTopUrlShares.end());
    shape.zipf_size = 20000;
    shape.zipf_share = 0.10;
    shape.draws = static_cast<double>(rows);
    shape.expected_distinct = targets::kUrlDistinctShare * static_cast<double>(rows);
    return shape;
}

SkewedIndex::Shape hotCounterUrlShape(uint64_t rows)
{
    SkewedIndex::Shape shape;
    shape.heavy_shares = {targets::kHotCounterTopUrlShare};
    shape.zipf_size = 300;
    shape.zipf_share = 0.35;
    shape.draws = targets::kHotCounterShare * static_cast<double>(rows);
    shape.expected_distinct = 0.5 * shape.draws;
    return shape;
}

SkewedIndex::Shape refererShape(uint64_t rows)
{
    SkewedIndex::Shape shape;
    shape.zipf_size = 10000;
    shape.zipf_share = 0.05;
    shape.draws = (1 - targets::kRefererEmptyShare) * static_cast<double>(rows);
    shape.expected_distinct = targets::kRefererDistinctShare * static_cast<double>(rows);
    return shape;
}

int64_t userIdOf(uint64_t seed, uint64_t user)
{
    if (user == 0)
    {
        return targets::kHeaviestUserId;
    }
    // Uniform magnitudes with 22.57% negative values give the published mean 2.529e18.
    Random random(mixSeed(seed ^ 0x05E4, user));
    const auto magnitude = static_cast<int64_t>(random.next() >> 1);
    const int64_t id = random.chance(0.2257) ? -magnitude - 1 : magnitude;
    return id == targets::kPlantedUserId ? id + 1 : id;
}

}  // namespace

struct HitsGenerator::Models
{
    explicit Models(uint64_t rows, uint64_t seed)
        : text(seed),
          users(userShape(rows)),
          phrases(phraseShape(rows)),
          urls(urlShape(rows)),
          hot_counter_urls(hotCounterUrlShape(rows)),
          referers(refererShape(rows))
    {
        Random random(mixSeed(seed, 0xB01D));
        counters = headAndTail(targets::kCounterRows, kTailCounters, 300000, random);
        regions = headAndTail(targets::kRegionRows, kInventedRegions, 20000, random);

        std::vector<int64_t> adv_values = {0};
        std::vector<double> adv_rows = {targets::kRealRows * (1 - targets::kAdvEngineNonZeroShare)};
        for (const auto& [value, count] : targets::kAdvEngineRows)
        {
            adv_values.push_back(value);
            adv_rows.push_back(count);
        }
        adv_engines = WeightedChoice(adv_values, adv_rows);

        std::vector<int64_t> days;
        std::vector<double> day_weights;
        for (const int day : kActiveJulyDays)
        {
            days.push_back(targets::kFirstDate + day - 2);
            day_weights.push_back(1.0 + 0.5 * static_cast<double>(random.below(3)));
        }
        dates = WeightedChoice(days, day_weights);
        std::vector<int64_t> hours(24);
        for (size_t hour = 0; hour < 24; ++hour)
        {
            hours[hour] = static_cast<int64_t>(hour);
        }
        hour_of_day = WeightedChoice(hours, kHourWeights);

        // Screen widths (weights in %); the obfuscated tail is added per user.
        const std::vector<int64_t> widths = {1920, 1366, 1280, 1600, 1440, 1680,
                                             1024, 1536, 2560, 1360, 1093, 800};
        const std::array<double, 12> width_weights = {22, 17, 11, 9, 7, 7, 11, 3, 3, 4, 4, 2};
        resolution_widths = WeightedChoice(widths, width_weights);
        traffic_sources =
            WeightedChoice({-1, 0, 1, 2, 3, 4, 5, 6, 7, 8},
                           std::array<double, 10>{30, 25, 10, 20, 5, 2, 2, 5, 0.5, 0.5});
        search_engines = WeightedChoice(
            {2, 3, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
            std::array<double, 15>{55, 30, 5, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5});

        for (int k = 1; k <= targets::kPlantedUserRows; ++k)
        {
            planted_user_rows.push_back(rows * (2 * k - 1) / (2 * targets::kPlantedUserRows));
        }
        planted_url_hash = targets::kPlantedUrlHash;
        std::vector<int64_t> sorted_counters(counters.values().begin(), counters.values().end());
        std::sort(sorted_counters.begin(), sorted_counters.end());
        counter_ranks.resize(sorted_counters.back() + 1);
        for (size_t rank = 0; rank < sorted_counters.size(); ++rank)
        {
            counter_ranks[sorted_counters[rank]] = static_cast<uint16_t>(rank);
        }
    }

    HitsText text;
    SkewedIndex users;
    SkewedIndex phrases;
    SkewedIndex urls;
    SkewedIndex hot_counter_urls;
    SkewedIndex referers;
    WeightedChoice counters;
    WeightedChoice regions;
    WeightedChoice adv_engines;
    WeightedChoice dates;
    WeightedChoice hour_of_day;
    WeightedChoice resolution_widths;
    WeightedChoice traffic_sources;
    WeightedChoice search_engines;
    std::vector<uint64_t> planted_user_rows;
    int64_t planted_url_hash;
    /// Each CounterID's rank among the counters' values: ranks order the sort's buckets.
    std::vector<uint16_t> counter_ranks;
};

namespace
{

/// What a row inherits from its user: users keep region, IP, screen and phone across rows.
struct UserAttributes
{
    int32_t region;
    int32_t client_ip;
    int16_t resolution_width;
    int16_t mobile_phone;
    int64_t mobile_model;  ///< -1 when the user has no phone model.
};

UserAttributes userAttributes(const HitsGenerator::Models& models, uint64_t seed, uint64_t user)
{
    Random random(mixSeed(seed ^ kUserAttributes, user));
    UserAttributes attributes{};
    attributes.region = static_cast<int32_t>(models.regions.sample(random));
    attributes.client_ip = static_cast<int32_t>(random.next());
    int64_t width = models.resolution_widths.sample(random);
    if (random.chance(0.3))
    {
        width += static_cast<int64_t>(random.below(301)) - 150;  // Obfuscated, non-standard widths.
    }
    attributes.resolution_width = static_cast<int16_t>(width);
    attributes.mobile_model = -1;
    if (user >= kUserHeavyHitters && random.chance(kMobileUserShare))
    {
        const double kind = random.unit();
        attributes.mobile_model = kind < 0.7 ? 0
                                  : kind < 0.76
                                      ? 1
                                      : 2 + static_cast<int64_t>(random.below(kMobileModels));
        attributes.mobile_phone =
            attributes.mobile_model == 0
                ? std::array<int16_t, 4>{1, 5, 6, 7}[random.chance(0.85) ? 0 : 1 + random.below(3)]
            : attributes.mobile_model == 1
                ? int16_t{6}
                : static_cast<int16_t>(1 + attributes.mobile_model % 200);
    }
    return attributes;
}

/// One row's sort key as unsigned codes in the table's order (CounterID, EventDate, UserID,
/// EventTime, WatchID; signed values with the sign bit flipped), then its user's index, which
/// the row's other columns need. Records that compare equal are equal, so the sorted order is
/// the same whatever the sort algorithm and threads.
struct KeyRecord
{
    uint64_t counter_date;  ///< CounterID code << 32 | EventDate << 16.
    uint64_t user_id;
    uint64_t time_watch;  ///< EventTime << 32 | the high half of the WatchID code.
    uint32_t watch_low;
    uint32_t user;

    bool operator<(const KeyRecord& other) const
    {
        if (counter_date != other.counter_date)
        {
            return counter_date < other.counter_date;
        }
        if (user_id != other.user_id)
        {
            return user_id < other.user_id;
        }
        if (time_watch != other.time_watch)
        {
            return time_watch < other.time_watch;
        }
        return watch_low != other.watch_low ? watch_low < other.watch_low : user < other.user;
    }
};

constexpr uint64_t kSign64 = 1ULL << 63;
constexpr uint32_t kSign32 = 1U << 31;
/// EventDate - kFirstDate is below this: every date is in July 2013.
constexpr size_t kDateSlots = 32;
static_assert(kActiveJulyDays.back() - 2 < static_cast<int>(kDateSlots));
static_assert(targets::kHotCounterDate - targets::kFirstDate < kDateSlots);

}  // namespace

struct HitsGenerator::SortedKeys
{
    size_t first_chunk;
    std::vector<KeyRecord> rows;
};

namespace
{

template <typename T>
T* fixed(Block& block, size_t column)
{
    return block.columns[column].column.mutableData<T>();
}

int64_t hashText(std::string_view text)
{
    return static_cast<int64_t>(hashing::hashString(text));
}

/// The text of the row being appended to `strings` (not yet finished).
std::string_view pendingRow(StringColumn& strings, size_t row_start)
{
    return std::string_view(strings.chars().data() + row_start, strings.bytes() - row_start);
}

/// Texts are built in place in one growing buffer per column, then copied over in bulk: no
/// per-row temporary string or per-row insert, and no zero-filling of the column first.
void copyStrings(const StringColumn& strings, Column& column)
{
    const simd::StringColumnView view = strings.view();
    column.reserve(view.rows, view.bytes());
    column.appendRange(ColumnView::ofStrings(view.chars, view.offsets, view.rows), 0, view.rows);
}

/// Gives `block` the hits columns, emptied, the fixed-width ones at `rows` rows left unwritten
/// (the generator writes every row of every column). A block that already holds them keeps
/// its buffers: reusing them spares the page faults and the kernel's zeroing of fresh memory.
void prepareChunkColumns(Block& block, size_t rows)
{
    const std::span<const HitsColumnInfo> schema = hitsSchema();
    const bool reusable =
        block.columns.size() == schema.size() &&
        std::equal(schema.begin(), schema.end(), block.columns.begin(),
                   [](const HitsColumnInfo& info, const Block::Entry& entry)
                   { return entry.name == info.name && entry.column.type() == info.type; });
    if (!reusable)
    {
        block.columns.clear();
        for (const HitsColumnInfo& info : schema)
        {
            block.columns.push_back({std::string(info.name), Column(info.type)});
        }
    }
    for (Block::Entry& entry : block.columns)
    {
        entry.column.clear();
        if (!isString(entry.column.type()))
        {
            entry.column.resizeFixedUninitialized(rows);
        }
    }
}

}  // namespace

HitsGenerator::HitsGenerator(uint64_t rows, uint64_t seed)
    : rows_(rows), seed_(seed), models_(std::make_unique<const Models>(rows, seed))
{
    // Sort records keep user indices in 32 bits: enough for about 20 billion rows.
    if (models_->users.tailStart() + models_->users.tailSize() > UINT32_MAX)
    {
        throw Exception(ErrorCode::kBadArguments,
                        "hits tables of " + std::to_string(rows) + " rows are not supported");
    }
}

HitsGenerator::~HitsGenerator() = default;
HitsGenerator::HitsGenerator(HitsGenerator&&) noexcept = default;
HitsGenerator& HitsGenerator::operator=(HitsGenerator&&) noexcept = default;

std::shared_ptr<const HitsGenerator::SortedKeys> HitsGenerator::sortGroup(size_t group) const
{
    if (group >= groupCount())
    {
        throw Exception(ErrorCode::kBadArguments, "hits group " + std::to_string(group) +
                                                      " is past the last group (" +
                                                      std::to_string(groupCount()) + ")");
    }
    const Models& models = *models_;
    auto keys = std::make_shared<SortedKeys>();
    keys->first_chunk = group * groupChunks();
    const size_t last_chunk = std::min(chunkCount(), keys->first_chunk + groupChunks());
    const uint64_t first_row = keys->first_chunk * kChunkRows;
    const size_t rows = std::min<uint64_t>(rows_, last_chunk * kChunkRows) - first_row;
    keys->rows.resize(rows);
    // Each row's (CounterID rank, EventDate) bucket, for the counting sort below.
    std::vector<uint32_t> buckets(rows);
    // Each chunk draws the keys of its rows in draw order from its own streams.
    Executor::forEachNested(
        last_chunk - keys->first_chunk,
        [&](size_t group_chunk)
        {
            const size_t chunk = keys->first_chunk + group_chunk;
            Random user_random(chunkStreamSeed(seed_, chunk, kUserStream));
            Random counter_random(chunkStreamSeed(seed_, chunk, kCounterStream));
            Random time_random(chunkStreamSeed(seed_, chunk, kTimeStream));
            Random watch_random(chunkStreamSeed(seed_, chunk, kWatchStream));
            const size_t begin = chunk * kChunkRows - first_row;
            const size_t end = std::min<size_t>(rows, begin + kChunkRows);
            for (size_t position = begin; position < end; ++position)
            {
                const uint64_t user = models.users.sample(user_random);
                const bool planted_user =
                    std::binary_search(models.planted_user_rows.begin(),
                                       models.planted_user_rows.end(), first_row + position);
                const int64_t user_id =
                    planted_user ? targets::kPlantedUserId : userIdOf(seed_, user);
                const auto counter = static_cast<int32_t>(models.counters.sample(counter_random));
                const bool hot = counter == targets::kHotCounter;
                const int64_t day =
                    hot ? targets::kHotCounterDate : models.dates.sample(time_random);
                const int64_t second_of_day =
                    hot ? static_cast<int64_t>(time_random.below(86400))
                        : models.hour_of_day.sample(time_random) * 3600 +
                              static_cast<int64_t>(time_random.below(3600));
                const auto event_time = static_cast<uint32_t>(day * 86400 + second_of_day -
                                                              targets::kMoscowOffsetSeconds);
                const uint64_t watch_code = ((watch_random.next() >> 2) | (1ULL << 62)) ^ kSign64;
                buckets[position] = static_cast<uint32_t>(
                    models.counter_ranks[counter] * kDateSlots + day - targets::kFirstDate);
                keys->rows[position] = {
                    (static_cast<uint64_t>(static_cast<uint32_t>(counter) ^ kSign32) << 32) |
                        (static_cast<uint64_t>(day) << 16),
                    static_cast<uint64_t>(user_id) ^ kSign64,
                    (static_cast<uint64_t>(event_time) << 32) | (watch_code >> 32),
                    static_cast<uint32_t>(watch_code), static_cast<uint32_t>(user)};
            }
        });
    // A counting sort by bucket, then each bucket sorted on its own, in parallel: a bucket holds
    // one counter's rows of one date, which takes far fewer compares than sorting the group.
    const size_t bucket_count = models.counters.values().size() * kDateSlots;
    std::vector<uint32_t> starts(bucket_count + 1, 0);
    for (const uint32_t bucket : buckets)
    {
        ++starts[bucket + 1];
    }
    for (size_t bucket = 0; bucket < bucket_count; ++bucket)
    {
        starts[bucket + 1] += starts[bucket];
    }
    std::vector<KeyRecord> sorted(rows);
    std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
    for (size_t position = 0; position < rows; ++position)
    {
        sorted[next[buckets[position]]++] = keys->rows[position];
    }
    constexpr size_t kBucketsPerTask = 4096;
    Executor::forEachNested(
        (bucket_count + kBucketsPerTask - 1) / kBucketsPerTask,
        [&](size_t task)
        {
            const size_t end = std::min(bucket_count, (task + 1) * kBucketsPerTask);
            for (size_t bucket = task * kBucketsPerTask; bucket < end; ++bucket)
            {
                std::sort(sorted.begin() + starts[bucket], sorted.begin() + starts[bucket + 1]);
            }
        });
    keys->rows = std::move(sorted);
    return keys;
}

Block HitsGenerator::generateChunk(size_t chunk_index) const
{
    if (chunk_index >= chunkCount())
    {
        throw Exception(ErrorCode::kBadArguments, "hits chunk " + std::to_string(chunk_index) +
                                                      " is past the last chunk (" +
                                                      std::to_string(chunkCount()) + " chunks of " +
                                                      std::to_string(rows_) + " rows)");
    }
    return generateChunk(chunk_index, *sortGroup(chunk_index / groupChunks()));
}

Block HitsGenerator::generateChunk(size_t chunk_index, const SortedKeys& keys) const
{
    Block block;
    generateChunkInto(chunk_index, keys, block);
    return block;
}

void HitsGenerator::generateChunkInto(size_t chunk_index, const SortedKeys& keys,
                                      Block& block) const
{
    if (chunk_index >= chunkCount() ||
        chunk_index / groupChunks() * groupChunks() != keys.first_chunk)
    {
        throw Exception(ErrorCode::kBadArguments, "hits chunk " + std::to_string(chunk_index) +
                                                      " is not in the group of the keys given (" +
                                                      std::to_string(chunkCount()) + " chunks of " +
                                                      std::to_string(rows_) + " rows)");
    }
    const Models& models = *models_;
    const uint64_t first_row = chunk_index * kChunkRows;
    const size_t rows = std::min<uint64_t>(kChunkRows, rows_ - first_row);
    const KeyRecord* sorted_keys = keys.rows.data() + (chunk_index - keys.first_chunk) * kChunkRows;

    prepareChunkColumns(block, rows);
    // The texts are built in per-thread buffers reused from chunk to chunk: fresh ones cost a
    // page fault and the kernel's zeroing per page, chunk after chunk.
    thread_local StringColumn url_column;
    thread_local StringColumn title_column;
    thread_local StringColumn referer_column;
    thread_local StringColumn phrase_column;
    thread_local StringColumn model_column;
    for (StringColumn* text :
         {&url_column, &title_column, &referer_column, &phrase_column, &model_column})
    {
        text->clear();
    }
    url_column.reserve(rows, rows * 96);
    title_column.reserve(rows, rows * 90);
    referer_column.reserve(rows, rows * 80);
    phrase_column.reserve(rows, rows * 8);
    model_column.reserve(rows, rows);

    std::vector<Random> streams;
    for (uint64_t stream = 0; stream < kStreamCount; ++stream)
    {
        streams.emplace_back(chunkStreamSeed(seed_, chunk_index, static_cast<Stream>(stream)));
    }
    auto* watch_ids = fixed<int64_t>(block, HitsColumn::WatchID);
    auto* user_ids = fixed<int64_t>(block, HitsColumn::UserID);
    auto* counter_ids = fixed<int32_t>(block, HitsColumn::CounterID);
    auto* region_ids = fixed<int32_t>(block, HitsColumn::RegionID);
    auto* client_ips = fixed<int32_t>(block, HitsColumn::ClientIP);
    auto* event_times = fixed<uint32_t>(block, HitsColumn::EventTime);
    auto* event_dates = fixed<uint16_t>(block, HitsColumn::EventDate);
    auto* resolution_widths = fixed<int16_t>(block, HitsColumn::ResolutionWidth);
    auto* window_widths = fixed<int16_t>(block, HitsColumn::WindowClientWidth);
    auto* window_heights = fixed<int16_t>(block, HitsColumn::WindowClientHeight);
    auto* mobile_phones = fixed<int16_t>(block, HitsColumn::MobilePhone);
    auto* is_refresh = fixed<int16_t>(block, HitsColumn::IsRefresh);
    auto* dont_count_hits = fixed<int16_t>(block, HitsColumn::DontCountHits);
    auto* is_link = fixed<int16_t>(block, HitsColumn::IsLink);
    auto* is_download = fixed<int16_t>(block, HitsColumn::IsDownload);
    auto* adv_engines = fixed<int16_t>(block, HitsColumn::AdvEngineID);
    auto* search_engines = fixed<int16_t>(block, HitsColumn::SearchEngineID);
    auto* traffic_sources = fixed<int16_t>(block, HitsColumn::TraficSourceID);
    auto* url_hashes = fixed<int64_t>(block, HitsColumn::URLHash);
    auto* referer_hashes = fixed<int64_t>(block, HitsColumn::RefererHash);

    Random& region_random = streams[kRegionStream];
    Random& phrase_random = streams[kPhraseStream];
    Random& url_random = streams[kUrlStream];
    Random& title_random = streams[kTitleStream];
    Random& referer_random = streams[kRefererStream];
    Random& flag_random = streams[kFlagStream];
    Random& engine_random = streams[kEngineStream];
    Random& client_random = streams[kClientStream];
    const double heavy_ip_total = 197460 / targets::kRealRows;

    // Sorted rows of one user come together: its attributes are computed once per run.
    uint64_t previous_user = UINT64_MAX;
    UserAttributes attributes{};
    for (size_t row = 0; row < rows; ++row)
    {
        // The keys, drawn by sortGroup.
        const KeyRecord& key = sorted_keys[row];
        const uint64_t user = key.user;
        if (user != previous_user)
        {
            attributes = userAttributes(models, seed_, user);
            previous_user = user;
        }
        const auto counter =
            static_cast<int32_t>(static_cast<uint32_t>(key.counter_date >> 32) ^ kSign32);
        const bool hot = counter == targets::kHotCounter;
        user_ids[row] = static_cast<int64_t>(key.user_id ^ kSign64);
        counter_ids[row] = counter;
        event_dates[row] = static_cast<uint16_t>(key.counter_date >> 16);
        event_times[row] = static_cast<uint32_t>(key.time_watch >> 32);
        watch_ids[row] = static_cast<int64_t>(((key.time_watch << 32) | key.watch_low) ^ kSign64);

        // Users.
        region_ids[row] = region_random.chance(0.85)
                              ? attributes.region
                              : static_cast<int32_t>(models.regions.sample(region_random));
        const double ip_unit = client_random.unit();
        client_ips[row] = attributes.client_ip;
        if (ip_unit < heavy_ip_total)
        {
            double total = 0;
            for (size_t i = 0; i < std::size(kHeavyClientIps); ++i)
            {
                total += kHeavyClientIpRows[i] / targets::kRealRows;
                if (ip_unit < total)
                {
                    client_ips[row] = static_cast<int32_t>(kHeavyClientIps[i]);
                    break;
                }
            }
        }
        else if (ip_unit < heavy_ip_total + 0.1)
        {
            client_ips[row] = static_cast<int32_t>(client_random.next());
        }
        resolution_widths[row] = attributes.resolution_width;
        window_widths[row] = static_cast<int16_t>(std::max<int64_t>(
            0, attributes.resolution_width - static_cast<int64_t>(client_random.below(400))));
        window_heights[row] = static_cast<int16_t>(300 + client_random.below(900));

        // Flags.
        is_refresh[row] = flag_random.chance(targets::kIsRefreshShare);
        dont_count_hits[row] = flag_random.chance(targets::kDontCountHitsShare);
        is_link[row] = flag_random.chance(hot ? kHotCounterIsLinkShare : targets::kIsLinkShare);
        is_download[row] = flag_random.chance(targets::kIsDownloadShare);
        adv_engines[row] = static_cast<int16_t>(models.adv_engines.sample(engine_random));
        traffic_sources[row] = static_cast<int16_t>(models.traffic_sources.sample(engine_random));

        // URL and Title.
        TextBuffer& url_text = url_column.chars();
        const size_t url_start = url_text.size();
        bool google_url = false;
        int64_t url_hash = 0;
        uint64_t title_index = 0;
        if (hot)
        {
            const uint64_t index = models.hot_counter_urls.sample(url_random);
            models.text.appendHotCounterUrl(index, url_text);
            url_hash =
                index == 0 ? models.planted_url_hash : hashText(pendingRow(url_column, url_start));
            title_index = (1ULL << 62) + index / 2;
        }
        else
        {
            const double kind = url_random.unit();
            if (kind < targets::kUrlEmptyShare)
            {
                url_hash = hashText({});
            }
            else if (kind < targets::kUrlEmptyShare + targets::kUrlGoogleShare)
            {
                google_url = true;
                models.text.appendGoogleUrl(url_random.below(20000), url_text);
                url_hash = hashText(pendingRow(url_column, url_start));
            }
            else
            {
                const uint64_t index = models.urls.sample(url_random);
                models.text.appendUrl(index, url_text);
                url_hash = hashText(pendingRow(url_column, url_start));
                title_index = index / 2 + 1;
            }
        }
        url_column.finishRow();
        url_hashes[row] = url_hash;
        const double title_kind = title_random.unit();
        if (title_kind < targets::kTitleGoogleShare)
        {
            models.text.appendGoogleTitle(title_random.below(5000), title_column.chars());
        }
        else if (title_index != 0 && (hot || title_kind >= targets::kTitleEmptyShare))
        {
            models.text.appendTitle(title_index, title_column.chars());
        }
        title_column.finishRow();

        // Referer.
        if (hot && referer_random.chance(targets::kHotCounterPlantedRefererShare))
        {
            referer_column.append(kPlantedReferer);
            referer_hashes[row] = targets::kPlantedRefererHash;
            traffic_sources[row] = referer_random.chance(0.7) ? -1 : 6;
        }
        else
        {
            const size_t referer_start = referer_column.bytes();
            if (!referer_random.chance(targets::kRefererEmptyShare))
            {
                const uint64_t index = models.referers.sample(referer_random);
                models.text.appendReferer(index,
                                          unitFromHash(mixSeed(seed_ ^ kRefererStream, index)),
                                          referer_column.chars());
            }
            referer_hashes[row] = hashText(pendingRow(referer_column, referer_start));
            referer_column.finishRow();
        }

        // Search: heavy users almost never search; URLs on google mostly come with a phrase.
        const double search_share = google_url                 ? 0.5
                                    : user < kUserHeavyHitters ? 0.005
                                                               : targets::kPhraseNonEmptyShare;
        if (phrase_random.chance(search_share))
        {
            models.text.appendSearchPhrase(models.phrases.sample(phrase_random),
                                           phrase_column.chars());
            search_engines[row] = static_cast<int16_t>(models.search_engines.sample(phrase_random));
        }
        else
        {
            search_engines[row] = 0;
        }
        phrase_column.finishRow();

        // Phones.
        mobile_phones[row] = 0;
        if (attributes.mobile_model >= 0 && flag_random.chance(kMobileRowShareOfMobileUser))
        {
            models.text.appendMobilePhoneModel(static_cast<uint64_t>(attributes.mobile_model),
                                               model_column.chars());
            mobile_phones[row] = attributes.mobile_phone;
        }
        model_column.finishRow();
    }
    copyStrings(url_column, block.columns[HitsColumn::URL].column);
    copyStrings(title_column, block.columns[HitsColumn::Title].column);
    copyStrings(referer_column, block.columns[HitsColumn::Referer].column);
    copyStrings(phrase_column, block.columns[HitsColumn::SearchPhrase].column);
    copyStrings(model_column, block.columns[HitsColumn::MobilePhoneModel].column);
    generateFillerColumns(block, seed_, chunk_index);
}

}  // namespace granary::datagen
