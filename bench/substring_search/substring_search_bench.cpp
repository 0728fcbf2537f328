// LIKE '%needle%' over a String column of URL-like rows: Granary's whole-column search against
// per-row memmem and std::string_view::find, Hyperscan over the whole chars buffer, and a plain
// sequential read of that buffer (the memory-bandwidth limit every method is bounded by).
//
// GRANARY_BENCH_BYTES sets the column size (default 1 GiB); the data is generated once per
// process. GRANARY_SIMD=scalar|sse|avx2|avx512 lowers the kernels Granary uses. Every benchmark
// runs on 1 and 2 threads; each thread searches its own half of the rows.

#include <benchmark/benchmark.h>
#include <hs.h>
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/datagen/url_generator.h"
#include "simd/column_search.h"
#include "simd/substring_searcher.h"

namespace
{

using granary::datagen::StringColumn;
using granary::simd::StringColumnView;

/// Column size without GRANARY_BENCH_BYTES: far beyond the caches, so memory speed is measured.
constexpr size_t kDefaultColumnBytes = size_t{1} << 30;
/// Any fixed seed: every run searches the same rows.
constexpr uint64_t kDataSeed = 20240601;
/// Each benchmark runs on 1..kMaxThreads threads.
constexpr int kMaxThreads = 2;
/// Fractions of rows holding a rare and a frequent needle.
constexpr double kRareFraction = 0.01;
constexpr double kFrequentFraction = 0.30;

struct NeedleCase
{
    std::string name;
    std::string needle;
    double row_fraction;
};

/// Needles of 2, 6 and 16 bytes, each rare and frequent. None occurs by chance in the generated
/// URLs ("qz" as in qzone.qq.com, "vk" as in vk.com), so the generator plants each in exactly
/// its fraction of the rows.
const std::vector<NeedleCase> kNeedleCases = {
    {"2B_rare", "qz", kRareFraction},
    {"2B_frequent", "vk", kFrequentFraction},
    {"6B_rare", "google", kRareFraction},
    {"6B_frequent", "yandex", kFrequentFraction},
    {"16B_rare", "mail.ru/cgi-bin/", kRareFraction},
    {"16B_frequent", "clid=2233627&lr=", kFrequentFraction},
};

size_t columnBytesFromEnvironment()
{
    const char* bytes = std::getenv("GRANARY_BENCH_BYTES");
    return bytes == nullptr ? kDefaultColumnBytes : std::strtoull(bytes, nullptr, 10);
}

const StringColumn& urlColumn()
{
    static const StringColumn column = []
    {
        std::vector<granary::datagen::PlantedNeedle> planted;
        for (const NeedleCase& needle_case : kNeedleCases)
        {
            planted.push_back({needle_case.needle, needle_case.row_fraction});
        }
        granary::datagen::UrlGenerator generator(kDataSeed, planted);
        const size_t bytes = columnBytesFromEnvironment();
        std::fprintf(stderr, "generating %zu MiB of URLs...\n", bytes >> 20);
        return granary::datagen::generateUrlColumn(generator, bytes);
    }();
    return column;
}

/// One row mask for the whole column; the threads write disjoint halves.
std::vector<uint8_t>& sharedRowMask()
{
    static std::vector<uint8_t> mask(urlColumn().rows());
    return mask;
}

/// The rows of this benchmark thread: an equal share of the column.
struct RowRange
{
    size_t first;
    size_t count;
};

RowRange threadRows(const benchmark::State& state, size_t rows)
{
    const size_t threads = static_cast<size_t>(state.threads());
    const size_t index = static_cast<size_t>(state.thread_index());
    const size_t first = rows * index / threads;
    return {first, rows * (index + 1) / threads - first};
}

void reportThroughput(benchmark::State& state, StringColumnView part, size_t rows_matched)
{
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * part.bytes()));
    state.counters["rows_matched"] = static_cast<double>(rows_matched);
}

void granaryWholeColumn(benchmark::State& state, const NeedleCase& needle_case,
                        granary::simd::FilterPairChoice pair_choice)
{
    const granary::simd::SubstringSearcher searcher(
        needle_case.needle, {granary::simd::CaseSensitivity::Sensitive, std::nullopt, pair_choice});
    const RowRange range = threadRows(state, urlColumn().rows());
    const StringColumnView part = urlColumn().view().slice(range.first, range.count);
    uint8_t* mask = sharedRowMask().data() + range.first;
    size_t rows_matched = 0;
    for (auto _ : state)
    {
        rows_matched = granary::simd::selectRowsContaining(
            searcher, part, granary::simd::RowSelection::Matching, mask);
        benchmark::DoNotOptimize(mask);
    }
    state.SetLabel(std::string(granary::simd::simdLevelName(searcher.simdLevel())));
    reportThroughput(state, part, rows_matched);
}

/// Baselines that search row by row, like a row-at-a-time engine.
template <class RowContains>
void perRow(benchmark::State& state, const NeedleCase& needle_case, RowContains row_contains)
{
    const RowRange range = threadRows(state, urlColumn().rows());
    const StringColumnView part = urlColumn().view().slice(range.first, range.count);
    uint8_t* mask = sharedRowMask().data() + range.first;
    size_t rows_matched = 0;
    for (auto _ : state)
    {
        rows_matched = 0;
        for (size_t row = 0; row < part.rows; ++row)
        {
            mask[row] = row_contains(part.row(row), needle_case.needle) ? 1 : 0;
            rows_matched += mask[row];
        }
        benchmark::DoNotOptimize(mask);
    }
    reportThroughput(state, part, rows_matched);
}

bool memmemContains(std::string_view row, const std::string& needle)
{
    return memmem(row.data(), row.size(), needle.data(), needle.size()) != nullptr;
}

bool stringViewContains(std::string_view row, const std::string& needle)
{
    return row.find(needle) != std::string_view::npos;
}

/// A Hyperscan database for one literal and a scratch prototype that benchmark threads clone.
class HyperscanLiteral
{
public:
    explicit HyperscanLiteral(const std::string& literal)
    {
        hs_compile_error_t* error = nullptr;
        if (hs_compile_lit(literal.data(), 0, literal.size(), HS_MODE_BLOCK, nullptr, &database_,
                           &error) != HS_SUCCESS)
        {
            const std::string message = error->message;
            hs_free_compile_error(error);
            throw std::runtime_error("hs_compile_lit: " + message);
        }
        if (hs_alloc_scratch(database_, &scratch_prototype_) != HS_SUCCESS)
        {
            throw std::runtime_error("hs_alloc_scratch failed");
        }
    }
    ~HyperscanLiteral()
    {
        hs_free_scratch(scratch_prototype_);
        hs_free_database(database_);
    }
    HyperscanLiteral(const HyperscanLiteral&) = delete;
    HyperscanLiteral& operator=(const HyperscanLiteral&) = delete;

    const hs_database_t* database() const { return database_; }

    /// A scratch of the calling thread's own; free with hs_free_scratch.
    hs_scratch_t* cloneScratch() const
    {
        hs_scratch_t* scratch = nullptr;
        if (hs_clone_scratch(scratch_prototype_, &scratch) != HS_SUCCESS)
        {
            throw std::runtime_error("hs_clone_scratch failed");
        }
        return scratch;
    }

private:
    hs_database_t* database_ = nullptr;
    hs_scratch_t* scratch_prototype_ = nullptr;
};

/// Maps each Hyperscan match (reported by its end) to its row, as Granary does: a cursor moving
/// forward through the offsets, dropping matches that span two rows.
struct HyperscanRowMapper
{
    StringColumnView part;
    size_t needle_size;
    uint8_t* mask;
    size_t row = 0;
    size_t rows_matched = 0;

    static int onMatch(unsigned /*id*/, unsigned long long /*from*/, unsigned long long to,
                       unsigned /*flags*/, void* context)
    {
        auto& mapper = *static_cast<HyperscanRowMapper*>(context);
        const uint64_t end = mapper.part.offsets[0] + to;
        const uint64_t start = end - mapper.needle_size;
        while (mapper.part.offsets[mapper.row + 1] <= start)
        {
            ++mapper.row;
        }
        if (end <= mapper.part.offsets[mapper.row + 1] && mapper.mask[mapper.row] == 0)
        {
            mapper.mask[mapper.row] = 1;
            ++mapper.rows_matched;
        }
        return 0;
    }
};

void hyperscanWholeBuffer(benchmark::State& state, const HyperscanLiteral& literal,
                          const NeedleCase& needle_case)
{
    hs_scratch_t* scratch = literal.cloneScratch();
    const RowRange range = threadRows(state, urlColumn().rows());
    const StringColumnView part = urlColumn().view().slice(range.first, range.count);
    uint8_t* mask = sharedRowMask().data() + range.first;
    size_t rows_matched = 0;
    for (auto _ : state)
    {
        std::memset(mask, 0, part.rows);
        HyperscanRowMapper mapper{part, needle_case.needle.size(), mask};
        hs_scan(literal.database(), part.chars + part.offsets[0],
                static_cast<unsigned>(part.bytes()), 0, scratch, HyperscanRowMapper::onMatch,
                &mapper);
        rows_matched = mapper.rows_matched;
        benchmark::DoNotOptimize(mask);
    }
    hs_free_scratch(scratch);
    reportThroughput(state, part, rows_matched);
}

/// Sums the buffer as 64-bit words, four independent accumulators so that only memory limits it.
__attribute__((target("avx2"))) uint64_t sumWordsAvx2(const char* bytes, size_t size)
{
    constexpr int kAccumulators = 4;
    constexpr size_t kStep = kAccumulators * sizeof(__m256i);
    __m256i sums[kAccumulators] = {};
    size_t at = 0;
    for (; at + kStep <= size; at += kStep)
    {
        for (int lane = 0; lane < kAccumulators; ++lane)
        {
            const auto* vector = reinterpret_cast<const __m256i*>(bytes + at) + lane;
            sums[lane] = _mm256_add_epi64(sums[lane], _mm256_loadu_si256(vector));
        }
    }
    const __m256i total =
        _mm256_add_epi64(_mm256_add_epi64(sums[0], sums[1]), _mm256_add_epi64(sums[2], sums[3]));
    uint64_t sum = static_cast<uint64_t>(_mm256_extract_epi64(total, 0)) +
                   static_cast<uint64_t>(_mm256_extract_epi64(total, 1)) +
                   static_cast<uint64_t>(_mm256_extract_epi64(total, 2)) +
                   static_cast<uint64_t>(_mm256_extract_epi64(total, 3));
    for (; at < size; ++at)
    {
        sum += static_cast<uint8_t>(bytes[at]);
    }
    return sum;
}

/// How far ahead the prefetching read hints each line, as Granary's kernels do.
constexpr size_t kReadPrefetchBytes = 8192;

/// The same with 64-byte loads, which read slightly faster on some machines; kPrefetch adds the
/// software prefetches Granary's kernels issue, so that the ceiling has every advantage they have.
template <bool kPrefetch>
__attribute__((target("avx512f"))) uint64_t sumWordsAvx512(const char* bytes, size_t size)
{
    constexpr size_t kStep = 2 * sizeof(__m512i);
    __m512i low = _mm512_setzero_si512();
    __m512i high = _mm512_setzero_si512();
    size_t at = 0;
    for (; at + kStep <= size; at += kStep)
    {
        if constexpr (kPrefetch)
        {
            // Integer arithmetic: the hinted address may lie past the buffer.
            const uintptr_t ahead = reinterpret_cast<uintptr_t>(bytes) + at + kReadPrefetchBytes;
            __builtin_prefetch(reinterpret_cast<const void*>(ahead));
            __builtin_prefetch(reinterpret_cast<const void*>(ahead + sizeof(__m512i)));
        }
        low = _mm512_add_epi64(low, _mm512_loadu_si512(bytes + at));
        high = _mm512_add_epi64(high, _mm512_loadu_si512(bytes + at + sizeof(__m512i)));
    }
    uint64_t lanes[sizeof(__m512i) / sizeof(uint64_t)];
    _mm512_storeu_si512(lanes, _mm512_add_epi64(low, high));
    uint64_t sum = 0;
    for (uint64_t lane : lanes)
    {
        sum += lane;
    }
    for (; at < size; ++at)
    {
        sum += static_cast<uint8_t>(bytes[at]);
    }
    return sum;
}

void plainRead(benchmark::State& state, uint64_t (*sum_words)(const char*, size_t))
{
    const RowRange range = threadRows(state, urlColumn().rows());
    const StringColumnView part = urlColumn().view().slice(range.first, range.count);
    for (auto _ : state)
    {
        benchmark::DoNotOptimize(sum_words(part.chars + part.offsets[0], part.bytes()));
    }
    reportThroughput(state, part, 0);
}

template <class Function>
void registerForEachThreadCount(const std::string& name, Function function)
{
    benchmark::RegisterBenchmark(name.c_str(), function)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->ThreadRange(1, kMaxThreads);
}

}  // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
    {
        return 1;
    }
    registerForEachThreadCount("plain_read_avx2",
                               [](benchmark::State& state) { plainRead(state, sumWordsAvx2); });
    if (__builtin_cpu_supports("avx512f"))
    {
        registerForEachThreadCount("plain_read_avx512", [](benchmark::State& state)
                                   { plainRead(state, sumWordsAvx512<false>); });
        registerForEachThreadCount("plain_read_avx512_prefetch", [](benchmark::State& state)
                                   { plainRead(state, sumWordsAvx512<true>); });
    }
    std::vector<std::unique_ptr<HyperscanLiteral>> hyperscan_literals;
    for (const NeedleCase& needle_case : kNeedleCases)
    {
        const NeedleCase* needle = &needle_case;
        registerForEachThreadCount(
            "granary/" + needle->name, [needle](benchmark::State& state)
            { granaryWholeColumn(state, *needle, granary::simd::FilterPairChoice::RarestInUrls); });
        registerForEachThreadCount(
            "granary_first_two/" + needle->name, [needle](benchmark::State& state)
            { granaryWholeColumn(state, *needle, granary::simd::FilterPairChoice::FirstTwo); });
        const HyperscanLiteral* literal =
            hyperscan_literals.emplace_back(std::make_unique<HyperscanLiteral>(needle->needle))
                .get();
        registerForEachThreadCount("hyperscan/" + needle->name,
                                   [needle, literal](benchmark::State& state)
                                   { hyperscanWholeBuffer(state, *literal, *needle); });
        registerForEachThreadCount("memmem_per_row/" + needle->name,
                                   [needle](benchmark::State& state)
                                   { perRow(state, *needle, memmemContains); });
        registerForEachThreadCount("string_view_find_per_row/" + needle->name,
                                   [needle](benchmark::State& state)
                                   { perRow(state, *needle, stringViewContains); });
    }
    urlColumn();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
