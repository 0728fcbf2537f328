#include "engine/aggregation/distinct_value_buckets.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "engine/aggregation/bucket_cardinality.h"
#include "engine/aggregation/bucket_scatter.h"
#include "engine/aggregation/distinct_set.h"
#include "engine/aggregation/key_numbering.h"
#include "engine/aggregation/partitioned_rows.h"
#include "engine/common/exception.h"
#include "engine/exec/phase_recorder.h"
#include "engine/exec/query_context.h"
#include "hashtables/batch.h"
#include "hashtables/hash_map.h"
#include "hashtables/merge.h"
#include "hashtables/packed_key.h"

namespace granary
{
namespace
{

using Pair = PackedKey<2>;
using PairSet = HashSet<Pair>;
/// Distinct pairs per key: two-level, so that the buckets' counts are summed by key-hash
/// bucket, one task each.
using KeyCounts = TwoLevelHashMap<uint64_t, uint64_t>;
/// Numbered keys' counts are summed over the stripes by ranges of numbers of at least this
/// many keys each (a task per range).
constexpr size_t kMinKeysPerSumTask = 4096;
/// Bound on the stripes' count vectors of numbered keys together: past it there are fewer
/// stripes (hundreds of workers times a million keys would otherwise take gigabytes).
constexpr size_t kMaxStripeCountBytes = size_t{64} << 20;

/// The 64-bit patterns of a fixed-width column's rows [0, count).
void widen(const ColumnView& column, size_t count, uint64_t* out)
{
    dispatchType(column.type,
                 [&]<typename T>(TypeTag<T>)
                 {
                     if constexpr (std::is_same_v<T, std::string_view>)
                     {
                         throw Exception(ErrorCode::kLogicalError,
                                         "value buckets take fixed-width columns only");
                     }
                     else
                     {
                         for (size_t row = 0; row < count; ++row)
                         {
                             out[row] = NumberDistinctTraits<T>::keyAt(column, row);
                         }
                     }
                 });
}

/// Writes 64-bit patterns back as values of `column`'s type (the inverse of widen).
void narrow(const uint64_t* bits, size_t count, Column& column, size_t first_row)
{
    dispatchType(column.type(),
                 [&]<typename T>(TypeTag<T>)
                 {
                     if constexpr (!std::is_same_v<T, std::string_view>)
                     {
                         T* out = column.mutableData<T>() + first_row;
                         for (size_t i = 0; i < count; ++i)
                         {
                             if constexpr (std::is_floating_point_v<T>)
                             {
                                 using Bits =
                                     std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
                                 out[i] = std::bit_cast<T>(static_cast<Bits>(bits[i]));
                             }
                             else
                             {
                                 out[i] = static_cast<T>(bits[i]);
                             }
                         }
                     }
                 });
}

/// One worker's routed rows: key and value bit patterns, by the value's hash bucket. String
/// keys are routed as the numbers the worker gives them (its KeyNumbering). Rows a mask drops
/// route nothing; their keys are kept aside (numbered, or in a set of bit patterns) to be
/// groups of their own.
class ValueRouter final : public LocalSinkState
{
public:
    ValueRouter(size_t key_column, size_t value_column, std::optional<size_t> mask_column,
                bool string_keys)
        : key_column_(key_column),
          value_column_(value_column),
          mask_column_(mask_column),
          numbering_(string_keys ? std::make_unique<KeyNumbering>() : nullptr)
    {
    }

    void sink(const std::vector<ColumnView>& columns, size_t count) override
    {
        keys_.resize(count);
        values_.resize(count);
        buckets_.resize(count);
        // Every row's key is numbered, a dropped row's too: numbered strings are groups.
        if (numbering_)
        {
            numbering_->number(columns[key_column_], count, keys_.data());
        }
        else
        {
            widen(columns[key_column_], count, keys_.data());
        }
        widen(columns[value_column_], count, values_.data());
        sunk_rows_ += count;
        if (mask_column_)
        {
            count = dropMaskedRows(static_cast<const uint8_t*>(columns[*mask_column_].data), count);
        }
        for (size_t row = 0; row < count; ++row)
        {
            const uint64_t value_hash = IntHash{}(values_[row]);
            buckets_[row] = static_cast<uint8_t>(value_hash >> BucketCardinality::kBucketShift);
            // The sketch's bucket is the value's; its registers follow the pair (with numbered
            // keys, a key's number in this worker: an estimate for sizing, no more).
            const uint64_t pair_hash = PackedKeyHash{}(Pair{{keys_[row], values_[row]}});
            pairs_.add((value_hash & kBucketBits) | (pair_hash >> kBucketBitCount));
        }
        const std::vector<ColumnView> routed = {
            ColumnView::of(TypeId::UInt64, keys_.data(), count),
            ColumnView::of(TypeId::UInt64, values_.data(), count)};
        if (!rows_)
        {
            rows_ = std::make_unique<PartitionedRows>(routed, std::vector<bool>{true, true});
        }
        rows_->append(routed, count, buckets_.data());
    }

    PartitionedRows& partitioned() { return *rows_; }
    /// Every row sunk, dropped ones included: a router of dropped rows still has groups.
    size_t rows() const override { return sunk_rows_; }
    /// The keys it numbered or saw without a value; the pairs wait, routed, for the buckets.
    size_t groups() const override
    {
        return (numbering_ ? numbering_->size() : 0) + unvalued_keys_.size();
    }
    size_t growths() const override { return 0; }
    /// Fixed-width keys of dropped rows, as bit patterns.
    const HashSet<uint64_t>& unvaluedKeys() const { return unvalued_keys_; }
    const BucketCardinality& pairs() const { return pairs_; }
    /// The numbering of string keys; null for fixed-width keys.
    KeyNumbering* numbering() { return numbering_.get(); }

private:
    static constexpr unsigned kBucketBitCount = 64 - BucketCardinality::kBucketShift;
    static constexpr uint64_t kBucketBits = ~uint64_t{0} << BucketCardinality::kBucketShift;

    /// Moves the rows `mask` keeps to the front of keys_ and values_ and returns how many;
    /// the others' fixed-width keys go to unvalued_keys_.
    size_t dropMaskedRows(const uint8_t* mask, size_t count)
    {
        if (count == 0 || std::memchr(mask, 0, count) == nullptr)
        {
            return count;
        }
        size_t kept = 0;
        for (size_t row = 0; row < count; ++row)
        {
            if (mask[row] != 0)
            {
                keys_[kept] = keys_[row];
                values_[kept] = values_[row];
                ++kept;
            }
            else if (!numbering_)
            {
                bool inserted;
                unvalued_keys_.emplace(keys_[row], inserted);
            }
        }
        return kept;
    }

    size_t key_column_;
    size_t value_column_;
    std::optional<size_t> mask_column_;
    size_t sunk_rows_ = 0;
    HashSet<uint64_t> unvalued_keys_;
    std::vector<uint64_t> keys_;
    std::vector<uint64_t> values_;
    std::vector<uint8_t> buckets_;
    std::unique_ptr<KeyNumbering> numbering_;
    std::unique_ptr<PartitionedRows> rows_;
    BucketCardinality pairs_;
};

/// Where each router's string key numbers are in one numbering of them all, the first
/// router's, which the others' strings are added to bucket by bucket: at base[bucket] + the
/// index in that bucket, the other routers' indexes translated.
struct SharedKeyNumbers
{
    std::array<uint64_t, KeyNumbering::kBucketCount + 1> base{};
    /// [router][bucket]: a router's index → the first router's (none for the first router).
    std::vector<std::vector<std::vector<uint64_t>>> translations;

    uint64_t positionOf(size_t router, uint64_t number) const
    {
        const size_t bucket = KeyNumbering::bucketOf(number);
        const size_t index = KeyNumbering::indexOf(number);
        return base[bucket] + (router == 0 ? index : translations[router][bucket][index]);
    }
};

/// Makes the routers' numberings one, a task per bucket.
SharedKeyNumbers shareKeyNumbers(std::span<ValueRouter* const> routers, QueryContext& context)
{
    SharedKeyNumbers shared;
    shared.translations.resize(routers.size());
    for (size_t router = 1; router < routers.size(); ++router)
    {
        shared.translations[router].resize(KeyNumbering::kBucketCount);
    }
    KeyNumbering& first = *routers[0]->numbering();
    if (routers.size() > 1)
    {
        PhaseRecorder share(context.stats().phase(QueryPhase::kMerge));
        context.runTasks(share, KeyNumbering::kBucketCount,
                         [&](size_t bucket, TaskTimer&)
                         {
                             for (size_t router = 1; router < routers.size(); ++router)
                             {
                                 shared.translations[router][bucket] =
                                     first.absorbBucket(*routers[router]->numbering(), bucket);
                             }
                         });
    }
    for (size_t bucket = 0; bucket < KeyNumbering::kBucketCount; ++bucket)
    {
        shared.base[bucket + 1] = shared.base[bucket] + first.bucketKeys(bucket).size();
    }
    return shared;
}

/// Counts the distinct (key, value) pairs per key among every router's rows of `bucket`,
/// calling count_pair(key) once per distinct pair, then frees those rows.
template <typename CountPair>
void countBucket(size_t bucket, std::span<ValueRouter* const> routers,
                 const SharedKeyNumbers* shared, CountPair& count_pair, QueryContext& context)
{
    std::vector<const BucketCardinality*> sketches;
    size_t rows = 0;
    for (ValueRouter* router : routers)
    {
        sketches.push_back(&router->pairs());
        rows += router->partitioned().rows(bucket);
    }
    PairSet pairs;
    BucketCardinality::reserve(pairs, bucket, sketches, rows);
    std::vector<Pair> batch;
    std::vector<uint64_t> translated;
    for (size_t router = 0; router < routers.size(); ++router)
    {
        PartitionedRows& rows = routers[router]->partitioned();
        for (size_t chunk = 0; chunk < rows.chunks(bucket); ++chunk)
        {
            context.checkCancelled();
            size_t count = 0;
            const std::vector<ColumnView> columns = rows.chunk(bucket, chunk, count);
            const uint64_t* keys = columns[0].values<uint64_t>().data();
            if (shared)
            {
                translated.resize(count);
                for (size_t row = 0; row < count; ++row)
                {
                    translated[row] = shared->positionOf(router, keys[row]);
                }
                keys = translated.data();
            }
            const uint64_t* values = columns[1].values<uint64_t>().data();
            batch.resize(count);
            for (size_t row = 0; row < count; ++row)
            {
                batch[row] = Pair{{keys[row], values[row]}};
            }
            emplaceBatch(pairs, batch.data(), count,
                         [&](auto*, bool inserted, size_t row)
                         {
                             if (inserted)
                             {
                                 count_pair(keys[row]);
                             }
                         });
        }
        rows.release(bucket);
    }
}

/// Stripes of value buckets for `workers`: enough per worker that uneven buckets even out
/// among them; one alone, whose order does not matter, needs a single stripe.
size_t stripeCount(size_t workers)
{
    constexpr size_t kStripesPerWorker = 4;
    return workers > 1 ? std::min(kPartitionBuckets, workers * kStripesPerWorker) : 1;
}

/// Counts every bucket's distinct pairs, each stripe of value buckets on a task of its own
/// with a counter of its own (make_counter(stripe)).
template <typename MakeCounter>
void countPairsByStripe(std::span<ValueRouter* const> routers, const SharedKeyNumbers* shared,
                        size_t stripes, MakeCounter make_counter, QueryContext& context)
{
    PhaseRecorder count(context.stats().phase(QueryPhase::kMerge));
    context.runTasks(count, stripes,
                     [&](size_t stripe, TaskTimer&)
                     {
                         auto count_pair = make_counter(stripe);
                         for (size_t bucket = stripe; bucket < kPartitionBuckets; bucket += stripes)
                         {
                             countBucket(bucket, routers, shared, count_pair, context);
                         }
                     });
}

/// Fixed-width keys: each stripe counts into a map of key bit patterns; with more than one
/// stripe, their maps are summed by key-hash bucket. A map per stripe rather than per value
/// bucket keeps the sum to a few maps of the keys each, where 256 of them cost more than the
/// counting at 1M rows.
void countByKeyBits(std::span<ValueRouter* const> routers, Column& keys, Column& counts,
                    QueryContext& context)
{
    const size_t stripes = stripeCount(context.workers());
    std::vector<KeyCounts> stripe_counts(stripes);
    countPairsByStripe(
        routers, nullptr, stripes,
        [&](size_t stripe)
        {
            // A new key's count starts at zero (cells are zeroed memory).
            return [&counts = stripe_counts[stripe]](uint64_t key)
            {
                bool new_key;
                ++counts.emplace(key, new_key)->mapped();
            };
        },
        context);
    if (stripes > 1)
    {
        PhaseRecorder sum(context.stats().phase(QueryPhase::kMerge));
        context.runTasks(sum, KeyCounts::kBucketCount,
                         [&](size_t key_bucket, TaskTimer&)
                         {
                             for (size_t stripe = 1; stripe < stripes; ++stripe)
                             {
                                 auto& from = stripe_counts[stripe].bucket(key_bucket);
                                 mergeTables(stripe_counts[0].bucket(key_bucket), from,
                                             [](uint64_t& into, uint64_t from_count)
                                             { into += from_count; });
                                 from.clear();
                             }
                         });
    }

    KeyCounts& totals = stripe_counts[0];
    for (const ValueRouter* router : routers)  // keys without a value count 0
    {
        router->unvaluedKeys().forEachCell(
            [&](const auto& cell)
            {
                bool new_key;
                totals.emplace(cell.key(), new_key);
            });
    }
    std::vector<size_t> first_row(KeyCounts::kBucketCount + 1, 0);
    for (size_t bucket = 0; bucket < KeyCounts::kBucketCount; ++bucket)
    {
        first_row[bucket + 1] = first_row[bucket] + totals.bucket(bucket).size();
    }
    keys.resizeFixed(first_row.back());
    counts.resizeFixed(first_row.back());
    PhaseRecorder finalize(context.stats().phase(QueryPhase::kFinalize));
    context.runTasks(finalize, KeyCounts::kBucketCount,
                     [&](size_t bucket, TaskTimer&)
                     {
                         std::vector<uint64_t> bucket_keys;
                         uint64_t* out = counts.mutableData<uint64_t>() + first_row[bucket];
                         totals.bucket(bucket).forEachCell(
                             [&](const auto& cell)
                             {
                                 bucket_keys.push_back(cell.key());
                                 *out++ = cell.mapped();
                             });
                         narrow(bucket_keys.data(), bucket_keys.size(), keys, first_row[bucket]);
                     });
}

/// String keys, numbered: the routers' numberings become one, each stripe counts into a
/// vector indexed by position in it, and the vectors are summed. Every numbered string is a
/// group (a row a mask drops numbers its key too), so the keys are the shared numbering's
/// strings in position order.
void countByKeyNumbers(std::span<ValueRouter* const> routers, Column& keys, Column& counts,
                       QueryContext& context)
{
    const SharedKeyNumbers shared = shareKeyNumbers(routers, context);
    const size_t key_count = shared.base.back();
    const size_t stripes = std::clamp<size_t>(
        kMaxStripeCountBytes / (std::max<size_t>(key_count, 1) * sizeof(uint64_t)), 1,
        stripeCount(context.workers()));
    std::vector<std::vector<uint64_t>> stripe_counts(stripes);
    countPairsByStripe(
        routers, &shared, stripes,
        [&](size_t stripe)
        {
            std::vector<uint64_t>& counts = stripe_counts[stripe];
            counts.assign(key_count, 0);
            return [&counts](uint64_t key) { ++counts[key]; };
        },
        context);
    counts.resizeFixed(key_count);
    uint64_t* totals = counts.mutableData<uint64_t>();
    PhaseRecorder finalize(context.stats().phase(QueryPhase::kFinalize));
    const size_t ranges = std::min(KeyCounts::kBucketCount, key_count / kMinKeysPerSumTask + 1);
    context.runTasks(finalize, ranges,
                     [&](size_t range, TaskTimer&)
                     {
                         const size_t end = key_count * (range + 1) / ranges;
                         for (size_t key = key_count * range / ranges; key < end; ++key)
                         {
                             uint64_t total = 0;
                             for (const std::vector<uint64_t>& stripe : stripe_counts)
                             {
                                 total += stripe[key];
                             }
                             totals[key] = total;
                         }
                     });
    const KeyNumbering& numbering = *routers[0]->numbering();
    for (size_t bucket = 0; bucket < KeyNumbering::kBucketCount; ++bucket)
    {
        const Column& strings = numbering.bucketKeys(bucket);
        keys.appendRange(strings.view(), 0, strings.size());
    }
}

}  // namespace

std::unique_ptr<LocalSinkState> makeValueRouter(size_t key_column, size_t value_column,
                                                std::optional<size_t> mask_column, bool string_keys)
{
    return std::make_unique<ValueRouter>(key_column, value_column, mask_column, string_keys);
}

Block countDistinctByValueBuckets(std::span<const std::unique_ptr<LocalSinkState>> locals,
                                  TypeId key_type, const std::string& key_name,
                                  const std::string& result_name, QueryContext& context)
{
    QueryStats& stats = context.stats();
    // The GROUP BY's merge is this count's: both paths say so.
    stats.merge_path = MergePath::kValueBuckets;
    stats.distinct_merge_path = MergePath::kValueBuckets;
    std::vector<ValueRouter*> routers;
    for (const auto& local : locals)
    {
        if (local->rows() > 0)
        {
            auto* router = static_cast<ValueRouter*>(local.get());
            routers.push_back(router);
            stats.partitioned_rows += router->partitioned().rows();
            stats.partitioned_bytes += router->partitioned().memoryBytes();
        }
    }
    stats.partials = routers.size();

    Block result;
    result.columns.push_back({key_name, Column(key_type)});
    result.columns.push_back({result_name, Column(TypeId::UInt64)});
    Column& keys = result.columns[0].column;
    Column& counts = result.columns[1].column;
    if (routers.empty())
    {
        return result;
    }
    if (routers[0]->numbering())
    {
        countByKeyNumbers(routers, keys, counts, context);
    }
    else
    {
        countByKeyBits(routers, keys, counts, context);
    }
    return result;
}

}  // namespace granary
