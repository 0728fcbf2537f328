// The C API through granary/granary.h alone: a GROUP BY with NULL keys and a filter against
// results worked out by hand, the error contract (codes, messages naming the culprit, NULL
// pointers), the host's memory budget and task runner as C callbacks, Arrow export and import,
// and handles destroyed in any order.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "granary/granary.h"
#include "tests/capi/c_client.h"

namespace
{

/// Destroys a handle with its C function at the end of a scope.
template <auto Destroy>
struct Destroyer
{
    template <typename Handle>
    void operator()(Handle* handle) const
    {
        Destroy(handle);
    }
};
using GroupByHandle = std::unique_ptr<granary_group_by, Destroyer<&granary_group_by_destroy>>;
using SinkHandle = std::unique_ptr<granary_local_sink, Destroyer<&granary_local_sink_destroy>>;
using StreamHandle =
    std::unique_ptr<granary_result_stream, Destroyer<&granary_result_stream_destroy>>;
using BatchHandle = std::unique_ptr<granary_result_batch, Destroyer<&granary_result_batch_destroy>>;

// ---- The cities: 8 rows whose result is worked out by hand ----

constexpr size_t kCityRows = 8;
// city: 1, NULL, 2, 1, NULL, 2, 1, 3 (rows 1 and 4 NULL).
const uint32_t kCity[kCityRows] = {1, 0, 2, 1, 0, 2, 1, 3};
const uint8_t kCityValid[] = {0b1110'1101};
// user: 10, 11, NULL, 12, 11, 13, 10, NULL.
const uint64_t kUser[kCityRows] = {10, 11, 0, 12, 11, 13, 10, 0};
const uint8_t kUserValid[] = {0b0111'1011};
const int64_t kAmount[kCityRows] = {5, 7, 3, 4, 2, 8, 6, 1};
// keep: 1, 1, 0, NULL (its value 1 is not to be read), 1, 1, 1, 0.
const uint8_t kKeep[kCityRows] = {1, 1, 0, 1, 1, 1, 1, 0};
const uint8_t kKeepValid[] = {0b1111'0111};
// tag: m, a, c, kiwi, e, d, q, x.
const char kTagChars[] = "mackiwiedqx";
const uint64_t kTagOffsets[kCityRows + 1] = {0, 1, 2, 3, 7, 8, 9, 10, 11};

const granary_field kCityFields[] = {{"city", GRANARY_TYPE_UINT32, 1},
                                     {"user", GRANARY_TYPE_UINT64, 1},
                                     {"amount", GRANARY_TYPE_INT64, 0},
                                     {"keep", GRANARY_TYPE_UINT8, 1},
                                     {"tag", GRANARY_TYPE_STRING, 0}};
constexpr size_t kCityFieldCount = std::size(kCityFields);
const char* const kCityKeys[] = {"city"};
const char* const kAmountArgument[] = {"amount"};
const char* const kUserArgument[] = {"user"};
const char* const kTagArgument[] = {"tag"};
// count(*), sum(amount) FILTER (WHERE keep), count(DISTINCT user), min(tag).
const granary_aggregate kCityAggregates[] = {{"count", nullptr, 0, "rows", nullptr},
                                             {"sum", kAmountArgument, 1, "kept", "keep"},
                                             {"uniqExact", kUserArgument, 1, "users", nullptr},
                                             {"min", kTagArgument, 1, "first_tag", nullptr}};

/// The cities from row `begin` on as C columns (the sink call says how many rows).
std::vector<granary_column> cityColumns(size_t begin)
{
    return {{GRANARY_TYPE_UINT32, kCity + begin, nullptr, nullptr, kCityValid, begin},
            {GRANARY_TYPE_UINT64, kUser + begin, nullptr, nullptr, kUserValid, begin},
            {GRANARY_TYPE_INT64, kAmount + begin, nullptr, nullptr, nullptr, 0},
            {GRANARY_TYPE_UINT8, kKeep + begin, nullptr, nullptr, kKeepValid, begin},
            {GRANARY_TYPE_STRING, nullptr, kTagChars, kTagOffsets + begin, nullptr, 0}};
}

struct CityRow
{
    uint64_t rows = 0;
    std::optional<int64_t> kept;
    uint64_t users = 0;
    std::string first_tag;
    bool operator==(const CityRow&) const = default;
};
using CityResult = std::map<std::optional<uint32_t>, CityRow>;

GroupByHandle makeCities(const granary_settings* settings = nullptr)
{
    granary_group_by* group_by = nullptr;
    granary_error error;
    EXPECT_EQ(granary_group_by_create(kCityFields, kCityFieldCount, kCityKeys, 1, kCityAggregates,
                                      std::size(kCityAggregates), settings, &group_by, &error),
              GRANARY_OK)
        << error.message;
    return GroupByHandle(group_by);
}

/// The handle `create(from, &handle, &error)` gives, the call expected to succeed.
template <typename Handle, typename From>
Handle created(granary_status (*create)(From, typename Handle::pointer*, granary_error*),
               std::type_identity_t<From> from)
{
    typename Handle::pointer handle = nullptr;
    granary_error error;
    EXPECT_EQ(create(from, &handle, &error), GRANARY_OK) << error.message;
    return Handle(handle);
}

SinkHandle makeSink(granary_group_by* group_by)
{
    return created<SinkHandle>(&granary_local_sink_create, group_by);
}

/// Sinks rows [begin, begin + rows) of the cities into `sink`.
void sinkCities(granary_local_sink* sink, size_t begin, size_t rows)
{
    const std::vector<granary_column> columns = cityColumns(begin);
    granary_error error;
    EXPECT_EQ(granary_local_sink_sink(sink, columns.data(), columns.size(), rows, &error),
              GRANARY_OK)
        << error.message;
}

/// The cities' rows sunk by two sinks (5 rows and 3) and combined.
GroupByHandle sunkCities(const granary_settings* settings = nullptr)
{
    GroupByHandle group_by = makeCities(settings);
    SinkHandle first = makeSink(group_by.get());
    SinkHandle second = makeSink(group_by.get());
    sinkCities(first.get(), 0, 5);
    sinkCities(second.get(), 5, 3);
    granary_error error;
    EXPECT_EQ(granary_group_by_combine(group_by.get(), first.release(), &error), GRANARY_OK);
    EXPECT_EQ(granary_group_by_combine(group_by.get(), second.release(), &error), GRANARY_OK);
    return group_by;
}

StreamHandle finish(granary_group_by* group_by)
{
    return created<StreamHandle>(&granary_group_by_finish, group_by);
}

/// The cities' result in batches of at most `batch_rows` rows, its group_by already gone.
StreamHandle cityResult(size_t batch_rows)
{
    granary_settings settings;
    granary_settings_init(&settings);
    settings.result_batch_rows = batch_rows;
    return finish(sunkCities(&settings).get());
}

/// The next batch of `stream`, or null at its end.
BatchHandle next(granary_result_stream* stream)
{
    return created<BatchHandle>(&granary_result_stream_next, stream);
}

size_t rowsOf(const granary_result_batch* batch)
{
    size_t rows = 0;
    EXPECT_EQ(granary_result_batch_rows(batch, &rows, nullptr), GRANARY_OK);
    return rows;
}

/// The rows of the batches left in `stream`, pulled to its end.
size_t rowsLeft(granary_result_stream* stream)
{
    size_t rows = 0;
    while (BatchHandle batch = next(stream))
    {
        rows += rowsOf(batch.get());
    }
    return rows;
}

granary_column columnOf(const granary_result_batch* batch, size_t index, granary_type type)
{
    granary_column column{};
    granary_error error;
    EXPECT_EQ(granary_result_batch_column(batch, index, &column, &error), GRANARY_OK)
        << error.message;
    EXPECT_EQ(column.type, type) << "column " << index;
    return column;
}

bool isValid(const granary_column& column, size_t row)
{
    const size_t bit = column.validity_offset + row;
    return column.validity == nullptr || ((column.validity[bit / 8] >> (bit % 8)) & 1) != 0;
}

template <typename T>
std::optional<T> valueAt(const granary_column& column, size_t row)
{
    return isValid(column, row) ? std::optional<T>(static_cast<const T*>(column.data)[row])
                                : std::nullopt;
}

std::string stringAt(const granary_column& column, size_t row)
{
    return std::string(column.chars + column.offsets[row],
                       column.offsets[row + 1] - column.offsets[row]);
}

/// Every row of a cities result, by city.
CityResult collectCities(granary_result_stream* stream)
{
    CityResult result;
    while (BatchHandle batch = next(stream))
    {
        const granary_column city = columnOf(batch.get(), 0, GRANARY_TYPE_UINT32);
        const granary_column rows = columnOf(batch.get(), 1, GRANARY_TYPE_UINT64);
        const granary_column kept = columnOf(batch.get(), 2, GRANARY_TYPE_INT64);
        const granary_column users = columnOf(batch.get(), 3, GRANARY_TYPE_UINT64);
        const granary_column tag = columnOf(batch.get(), 4, GRANARY_TYPE_STRING);
        for (size_t row = 0; row < rowsOf(batch.get()); ++row)
        {
            result[valueAt<uint32_t>(city, row)] = {
                *valueAt<uint64_t>(rows, row), valueAt<int64_t>(kept, row),
                *valueAt<uint64_t>(users, row), stringAt(tag, row)};
        }
    }
    return result;
}

// Worked out from the rows above: a NULL city is its own group, the filter skips keep 0 and
// NULL, uniqExact skips NULL users, and a sum over no kept row is NULL.
const CityResult kExpectedCities = {{1, {3, 5 + 6, 2, "kiwi"}},
                                    {std::nullopt, {2, 7 + 2, 1, "a"}},
                                    {2, {2, 8, 1, "c"}},
                                    {3, {1, std::nullopt, 0, "x"}}};

TEST(CApi, GroupsByNullableKeysWithAFilterAsWorkedOutByHand)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    EXPECT_EQ(collectCities(stream.get()), kExpectedCities);
}

TEST(CApi, ResultBatchesNameTheirColumns)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    BatchHandle batch = next(stream.get());
    size_t count = 0;
    ASSERT_EQ(granary_result_batch_column_count(batch.get(), &count, nullptr), GRANARY_OK);
    const std::vector<std::string> expected = {"city", "rows", "kept", "users", "first_tag"};
    ASSERT_EQ(count, expected.size());
    for (size_t c = 0; c < count; ++c)
    {
        const char* name = nullptr;
        ASSERT_EQ(granary_result_batch_column_name(batch.get(), c, &name, nullptr), GRANARY_OK);
        EXPECT_EQ(name, expected[c]);
    }
}

TEST(CApi, TopGroupsKeepTheFirstRowsOfTheirOrder)
{
    GroupByHandle group_by = sunkCities();
    const granary_order_column order[] = {{"rows", 1}, {"first_tag", 0}};
    granary_result_stream* stream = nullptr;
    granary_error error;
    ASSERT_EQ(granary_group_by_finish_top(group_by.get(), order, 2, 2, &stream, &error), GRANARY_OK)
        << error.message;
    const CityResult result = collectCities(StreamHandle(stream).get());
    // Sorted by rows descending, then first_tag: city 1 (3 rows), then NULL (2, "a").
    std::vector<std::pair<uint64_t, std::string>> order_keys;
    for (const auto& [city, row] : result)
    {
        order_keys.push_back({row.rows, row.first_tag});
    }
    std::sort(order_keys.begin(), order_keys.end(),
              [](const auto& a, const auto& b)
              { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    ASSERT_GE(order_keys.size(), 2u);
    EXPECT_EQ(order_keys[0], std::make_pair(uint64_t{3}, std::string("kiwi")));
    EXPECT_EQ(order_keys[1], std::make_pair(uint64_t{2}, std::string("a")));
}

TEST(CApi, ThreadsMayPullBatchesAtOnce)
{
    StreamHandle stream = cityResult(1);
    std::atomic<size_t> rows{0};
    auto pull = [&] { rows += rowsLeft(stream.get()); };
    std::thread other(pull);
    pull();
    other.join();
    EXPECT_EQ(rows.load(), kExpectedCities.size());
}

TEST(CApi, SettingsStartAsTheDefaults)
{
    granary_settings settings;
    std::memset(&settings, 0xFF, sizeof(settings));
    granary_settings_init(&settings);
    EXPECT_EQ(settings.threads, 0u);
    EXPECT_EQ(settings.max_memory_usage, 0u);
    EXPECT_GT(settings.result_batch_rows, 0u);
    EXPECT_EQ(settings.task_runner.run, nullptr);
    EXPECT_EQ(settings.memory_budget.reserve, nullptr);
    EXPECT_EQ(settings.memory_budget.release, nullptr);
    granary_settings_init(nullptr);
}

TEST(CApi, VersionAndCodeNames)
{
    EXPECT_STREQ(granary_version_string(), GRANARY_VERSION_STRING);
    EXPECT_STREQ(granary_error_code_name(GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED),
                 "MEMORY_LIMIT_EXCEEDED");
    EXPECT_STREQ(granary_error_code_name(GRANARY_OK), "OK");
    EXPECT_STREQ(granary_error_code_name(-7), "UNKNOWN");
}

TEST(CApi, TheHeaderServesAHostWrittenInC)
{
    const uint32_t keys[] = {4, 9, 4, 4, 9};
    const int64_t values[] = {1, 2, 3, 4, -5};
    uint32_t out_keys[2] = {};
    int64_t out_sums[2] = {};
    size_t groups = 0;
    granary_error error;
    ASSERT_EQ(c_client_sum_by_key(keys, values, 5, out_keys, out_sums, 2, &groups, &error),
              GRANARY_OK)
        << error.message;
    ASSERT_EQ(groups, 2u);
    std::map<uint32_t, int64_t> sums = {{out_keys[0], out_sums[0]}, {out_keys[1], out_sums[1]}};
    EXPECT_EQ(sums, (std::map<uint32_t, int64_t>{{4, 8}, {9, -3}}));
}

// ---- Errors ----

/// What a failed call reported.
struct Failure
{
    granary_status status;
    std::string message;
};

Failure failureOf(const std::function<granary_status(granary_error*)>& call)
{
    granary_error error;
    const granary_status status = call(&error);
    EXPECT_EQ(status, error.code);
    return {status, error.message};
}

void expectFailure(const Failure& failure, granary_status status, const std::string& function,
                   const std::string& culprit)
{
    EXPECT_EQ(failure.status, status) << failure.message;
    EXPECT_EQ(failure.message.rfind(function + ": ", 0), 0u) << failure.message;
    EXPECT_NE(failure.message.find(culprit), std::string::npos) << failure.message;
}

/// granary_group_by_create over the cities with these keys and aggregates; *out must be NULL
/// after a failure.
Failure createCities(std::vector<const char*> keys, std::vector<granary_aggregate> aggregates)
{
    return failureOf(
        [&](granary_error* error)
        {
            granary_group_by* out = reinterpret_cast<granary_group_by*>(&keys);
            const granary_status status =
                granary_group_by_create(kCityFields, kCityFieldCount, keys.data(), keys.size(),
                                        aggregates.data(), aggregates.size(), nullptr, &out, error);
            EXPECT_EQ(out == nullptr, status != GRANARY_OK);
            granary_group_by_destroy(status == GRANARY_OK ? out : nullptr);
            return status;
        });
}

TEST(CApi, PlansThatDoNotFitTheInputAreRefusedByName)
{
    const char* const unknown_argument[] = {"amountt"};
    const granary_aggregate count = {"count", nullptr, 0, "c", nullptr};
    expectFailure(createCities({"nope"}, {count}), GRANARY_ERROR_UNKNOWN_COLUMN,
                  "granary_group_by_create", "'nope'");
    expectFailure(createCities({"city"}, {{"sum", unknown_argument, 1, "s", nullptr}}),
                  GRANARY_ERROR_UNKNOWN_COLUMN, "granary_group_by_create", "'amountt'");
    expectFailure(createCities({"city"}, {{"frobnicate", kAmountArgument, 1, "m", nullptr}}),
                  GRANARY_ERROR_UNKNOWN_FUNCTION, "granary_group_by_create", "frobnicate");
    // Parameters reach the function, which counts them.
    const double level[] = {0.5};
    expectFailure(createCities({"city"}, {{"sum", kAmountArgument, 1, "s", nullptr, level, 1}}),
                  GRANARY_ERROR_BAD_ARGUMENTS, "granary_group_by_create",
                  "takes 0 parameters, got 1");
    expectFailure(createCities({"city"}, {{"count", nullptr, 0, "c", "amount"}}),
                  GRANARY_ERROR_TYPE_MISMATCH, "granary_group_by_create", "'amount'");

    granary_field bad_type = kCityFields[0];
    bad_type.type = static_cast<granary_type>(99);
    expectFailure(failureOf(
                      [&](granary_error* error)
                      {
                          granary_group_by* out = nullptr;
                          return granary_group_by_create(&bad_type, 1, kCityKeys, 1,
                                                         kCityAggregates, 1, nullptr, &out, error);
                      }),
                  GRANARY_ERROR_BAD_ARGUMENTS, "granary_group_by_create", "'fields[0].type' is 99");

    GroupByHandle group_by = sunkCities();
    const granary_order_column order[] = {{"nope", 0}};
    expectFailure(failureOf(
                      [&](granary_error* error)
                      {
                          granary_result_stream* out = nullptr;
                          return granary_group_by_finish_top(group_by.get(), order, 1, 1, &out,
                                                             error);
                      }),
                  GRANARY_ERROR_UNKNOWN_COLUMN, "granary_group_by_finish_top", "'nope'");
}

TEST(CApi, BatchesThatDoNotFitThePlanAreRefusedByName)
{
    GroupByHandle group_by = makeCities();
    SinkHandle sink = makeSink(group_by.get());
    auto sink_columns = [&](const std::vector<granary_column>& columns)
    {
        return failureOf(
            [&](granary_error* error) {
                return granary_local_sink_sink(sink.get(), columns.data(), columns.size(), 3,
                                               error);
            });
    };
    const char* function = "granary_local_sink_sink";
    std::vector<granary_column> columns = cityColumns(0);
    expectFailure(sink_columns({columns.begin(), columns.end() - 1}), GRANARY_ERROR_BAD_ARGUMENTS,
                  function, "4 columns");
    std::vector<granary_column> wrong_type = columns;
    wrong_type[0].type = GRANARY_TYPE_UINT64;
    expectFailure(sink_columns(wrong_type), GRANARY_ERROR_BAD_ARGUMENTS, function, "'city'");
    std::vector<granary_column> no_type = columns;
    no_type[2].type = static_cast<granary_type>(-1);
    expectFailure(sink_columns(no_type), GRANARY_ERROR_BAD_ARGUMENTS, function,
                  "'columns[2].type' is -1");
    std::vector<granary_column> not_null_with_bitmap = columns;
    not_null_with_bitmap[2].validity = kCityValid;
    expectFailure(sink_columns(not_null_with_bitmap), GRANARY_ERROR_BAD_ARGUMENTS, function,
                  "'amount'");
    std::vector<granary_column> no_values = columns;
    no_values[4].offsets = nullptr;
    expectFailure(sink_columns(no_values), GRANARY_ERROR_BAD_ARGUMENTS, function, "'tag'");
    // A refused batch leaves the sink usable.
    sinkCities(sink.get(), 0, kCityRows);
}

TEST(CApi, ResultColumnsOutOfRangeAreBadArguments)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    BatchHandle batch = next(stream.get());
    expectFailure(failureOf(
                      [&](granary_error* error)
                      {
                          granary_column column;
                          return granary_result_batch_column(batch.get(), 5, &column, error);
                      }),
                  GRANARY_ERROR_BAD_ARGUMENTS, "granary_result_batch_column", "column 5");
    expectFailure(failureOf(
                      [&](granary_error* error)
                      {
                          const char* name = nullptr;
                          return granary_result_batch_column_name(batch.get(), 9, &name, error);
                      }),
                  GRANARY_ERROR_BAD_ARGUMENTS, "granary_result_batch_column_name", "column 9");
}

TEST(CApi, CancellingStopsSinksAndFinish)
{
    GroupByHandle group_by = makeCities();
    SinkHandle sink = makeSink(group_by.get());
    sinkCities(sink.get(), 0, kCityRows);
    std::thread([&] { EXPECT_EQ(granary_group_by_cancel(group_by.get(), nullptr), GRANARY_OK); })
        .join();
    const std::vector<granary_column> columns = cityColumns(0);
    EXPECT_EQ(granary_local_sink_sink(sink.get(), columns.data(), columns.size(), 1, nullptr),
              GRANARY_ERROR_QUERY_CANCELLED);
    ASSERT_EQ(granary_group_by_combine(group_by.get(), sink.release(), nullptr), GRANARY_OK);
    granary_result_stream* stream = nullptr;
    EXPECT_EQ(granary_group_by_finish(group_by.get(), &stream, nullptr),
              GRANARY_ERROR_QUERY_CANCELLED);
    EXPECT_EQ(stream, nullptr);
}

TEST(CApi, ASinkCombinedIntoAnotherGroupByIsRefusedAndConsumed)
{
    GroupByHandle group_by = makeCities();
    GroupByHandle other = makeCities();
    SinkHandle sink = makeSink(group_by.get());
    sinkCities(sink.get(), 0, kCityRows);
    expectFailure(
        failureOf([&](granary_error* error)
                  { return granary_group_by_combine(other.get(), sink.release(), error); }),
        GRANARY_ERROR_BAD_ARGUMENTS, "granary_group_by_combine", "not its own");
    // Under AddressSanitizer: the refused sink was freed, not leaked.
}

TEST(CApi, FinishingTwiceIsRefused)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    expectFailure(failureOf(
                      [&](granary_error* error)
                      {
                          granary_result_stream* again = nullptr;
                          return granary_group_by_finish(group_by.get(), &again, error);
                      }),
                  GRANARY_ERROR_BAD_ARGUMENTS, "granary_group_by_finish", "twice");
}

TEST(CApi, LongMessagesAreCutWithinTheBufferAtACharacterBoundary)
{
    const std::string prefix = "granary_group_by_create: unknown column '";
    const size_t room = GRANARY_ERROR_MESSAGE_SIZE - 1 - prefix.size();
    // Two-byte characters from an odd offset of the room: the cut falls inside one.
    std::string name = room % 2 == 0 ? "x" : "";
    for (size_t i = 0; i < GRANARY_ERROR_MESSAGE_SIZE; ++i)
    {
        name += "\xC3\xA9";  // é
    }
    const Failure failure = createCities({name.c_str()}, {kCityAggregates[0]});
    EXPECT_EQ(failure.status, GRANARY_ERROR_UNKNOWN_COLUMN);
    EXPECT_EQ(failure.message.size(), GRANARY_ERROR_MESSAGE_SIZE - 2);
    EXPECT_EQ(failure.message.rfind(prefix, 0), 0u);
    EXPECT_EQ(failure.message.back(), '\xA9');
}

TEST(CApi, SuccessClearsTheError)
{
    granary_error error;
    error.code = GRANARY_ERROR_LOGICAL_ERROR;
    std::strcpy(error.message, "stale");
    GroupByHandle group_by = makeCities();
    ASSERT_EQ(granary_group_by_cancel(group_by.get(), &error), GRANARY_OK);
    EXPECT_EQ(error.code, GRANARY_OK);
    EXPECT_STREQ(error.message, "");
}

/// One call with a NULL pointer, and the argument its message must name.
struct NullCase
{
    const char* function;
    const char* argument;
    std::function<granary_status(granary_error*)> call;
};
// A case of `function` called with `...` and the error: the name written once.
// clang-format off
#define NULL_CASE(function, argument, ...) \
    NullCase{#function, argument, [&](granary_error* e) { return function(__VA_ARGS__, e); }}
// clang-format on

TEST(CApi, NullPointersAndHalfHooksAreBadArgumentsNamingTheArgument)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    BatchHandle batch = next(stream.get());
    GroupByHandle open = makeCities();
    SinkHandle sink = makeSink(open.get());
    granary_group_by* new_group_by = nullptr;
    granary_local_sink* new_sink = nullptr;
    granary_result_stream* new_stream = nullptr;
    granary_result_batch* new_batch = nullptr;
    size_t size = 0;
    const char* name = nullptr;
    granary_column column;
    ArrowArray array;
    ArrowSchema schema;
    ArrowArrayStream arrow_stream;
    const granary_field unnamed[] = {{nullptr, GRANARY_TYPE_UINT8, 0}};
    const char* const null_key[] = {nullptr};
    const granary_aggregate no_function[] = {{nullptr, nullptr, 0, "c", nullptr}};
    const granary_aggregate no_result[] = {{"count", nullptr, 0, nullptr, nullptr}};
    const granary_aggregate no_arguments[] = {{"sum", nullptr, 1, "s", nullptr}};
    const granary_aggregate null_argument[] = {{"sum", null_key, 1, "s", nullptr}};
    const granary_aggregate no_parameters[] = {
        {"sum", kAmountArgument, 1, "s", nullptr, nullptr, 1}};
    const granary_order_column unnamed_order[] = {{nullptr, 0}};
    granary_settings half_budget;
    granary_settings_init(&half_budget);
    half_budget.memory_budget.reserve = [](void*, size_t) { return 1; };
    granary_settings idle_runner;
    granary_settings_init(&idle_runner);
    idle_runner.task_runner.run = [](void*, size_t, void (*)(void*, size_t), void*) {};
    // granary_group_by_create's cases: one plan of one column, key and aggregate.
    auto create = [&](const char* argument, const granary_field* fields, const char* const* keys,
                      const granary_aggregate* aggregates, const granary_settings* settings,
                      granary_group_by** out)
    {
        return NullCase{"granary_group_by_create", argument, [=](granary_error* error) {
                            return granary_group_by_create(fields, 1, keys, 1, aggregates, 1,
                                                           settings, out, error);
                        }};
    };
    const NullCase cases[] = {
        create("fields", nullptr, kCityKeys, kCityAggregates, nullptr, &new_group_by),
        create("fields[0].name", unnamed, kCityKeys, kCityAggregates, nullptr, &new_group_by),
        create("keys", kCityFields, nullptr, kCityAggregates, nullptr, &new_group_by),
        create("keys[0]", kCityFields, null_key, kCityAggregates, nullptr, &new_group_by),
        create("aggregates", kCityFields, kCityKeys, nullptr, nullptr, &new_group_by),
        create("aggregates[0].function", kCityFields, kCityKeys, no_function, nullptr,
               &new_group_by),
        create("aggregates[0].result_name", kCityFields, kCityKeys, no_result, nullptr,
               &new_group_by),
        create("aggregates[0].arguments", kCityFields, kCityKeys, no_arguments, nullptr,
               &new_group_by),
        create("aggregates[0].arguments[0]", kCityFields, kCityKeys, null_argument, nullptr,
               &new_group_by),
        create("aggregates[0].parameters", kCityFields, kCityKeys, no_parameters, nullptr,
               &new_group_by),
        create("settings.memory_budget.release", kCityFields, kCityKeys, kCityAggregates,
               &half_budget, &new_group_by),
        create("settings.task_runner.concurrency", kCityFields, kCityKeys, kCityAggregates,
               &idle_runner, &new_group_by),
        create("out", kCityFields, kCityKeys, kCityAggregates, nullptr, nullptr),
        NULL_CASE(granary_group_by_create_arrow, "schema", nullptr, kCityKeys, 1, kCityAggregates,
                  1, nullptr, &new_group_by),
        NULL_CASE(granary_group_by_create_arrow, "out", &schema, kCityKeys, 1, kCityAggregates, 1,
                  nullptr, nullptr),
        NULL_CASE(granary_group_by_cancel, "group_by", nullptr),
        NULL_CASE(granary_local_sink_create, "group_by", nullptr, &new_sink),
        NULL_CASE(granary_local_sink_create, "out", open.get(), nullptr),
        NULL_CASE(granary_local_sink_sink, "sink", nullptr, nullptr, 0, 0),
        NULL_CASE(granary_local_sink_sink, "columns", sink.get(), nullptr, 5, 0),
        NULL_CASE(granary_local_sink_sink_arrow, "sink", nullptr, &array),
        NULL_CASE(granary_local_sink_sink_arrow, "batch", sink.get(), nullptr),
        NULL_CASE(granary_local_sink_sink_arrow_stream, "sink", nullptr, &arrow_stream),
        NULL_CASE(granary_local_sink_sink_arrow_stream, "stream", sink.get(), nullptr),
        NULL_CASE(granary_group_by_combine, "group_by", nullptr, makeSink(open.get()).release()),
        NULL_CASE(granary_group_by_combine, "sink", open.get(), nullptr),
        NULL_CASE(granary_group_by_finish, "group_by", nullptr, &new_stream),
        NULL_CASE(granary_group_by_finish, "out", open.get(), nullptr),
        NULL_CASE(granary_group_by_finish_top, "order", open.get(), nullptr, 1, 1, &new_stream),
        NULL_CASE(granary_group_by_finish_top, "order[0].name", open.get(), unnamed_order, 1, 1,
                  &new_stream),
        NULL_CASE(granary_result_stream_next, "stream", nullptr, &new_batch),
        NULL_CASE(granary_result_stream_next, "out", stream.get(), nullptr),
        NULL_CASE(granary_result_stream_export_arrow, "stream", nullptr, &arrow_stream),
        NULL_CASE(granary_result_stream_export_arrow, "out", stream.get(), nullptr),
        NULL_CASE(granary_result_batch_rows, "batch", nullptr, &size),
        NULL_CASE(granary_result_batch_rows, "rows", batch.get(), nullptr),
        NULL_CASE(granary_result_batch_column_count, "batch", nullptr, &size),
        NULL_CASE(granary_result_batch_column_count, "count", batch.get(), nullptr),
        NULL_CASE(granary_result_batch_column_name, "batch", nullptr, 0, &name),
        NULL_CASE(granary_result_batch_column_name, "name", batch.get(), 0, nullptr),
        NULL_CASE(granary_result_batch_column, "batch", nullptr, 0, &column),
        NULL_CASE(granary_result_batch_column, "column", batch.get(), 0, nullptr),
        NULL_CASE(granary_result_batch_export_arrow, "batch", nullptr, &array, &schema),
        NULL_CASE(granary_result_batch_export_arrow, "array", batch.get(), nullptr, &schema),
        NULL_CASE(granary_result_batch_export_arrow, "schema", batch.get(), &array, nullptr),
    };
#undef NULL_CASE
    for (const NullCase& null_case : cases)
    {
        SCOPED_TRACE(std::string(null_case.function) + " " + null_case.argument);
        expectFailure(failureOf(null_case.call), GRANARY_ERROR_BAD_ARGUMENTS, null_case.function,
                      std::string("'") + null_case.argument + "'");
        // Without an error to fill, the status alone.
        EXPECT_EQ(null_case.call(nullptr), GRANARY_ERROR_BAD_ARGUMENTS);
    }
    // The batch is still whole: no failed call touched it.
    EXPECT_GT(rowsOf(batch.get()), 0u);
    granary_group_by_destroy(nullptr);
    granary_local_sink_destroy(nullptr);
    granary_result_stream_destroy(nullptr);
    granary_result_batch_destroy(nullptr);
}

// ---- Host hooks ----

/// A host's memory account, granting up to `limit` bytes in all.
struct Budget
{
    size_t limit;
    std::atomic<size_t> reserved{0};
    std::atomic<size_t> granted{0};
    std::atomic<size_t> refusals{0};

    static int reserve(void* user_data, size_t bytes)
    {
        Budget& budget = *static_cast<Budget*>(user_data);
        if (budget.reserved.fetch_add(bytes) + bytes > budget.limit)
        {
            budget.reserved -= bytes;
            ++budget.refusals;
            return 0;
        }
        ++budget.granted;
        return 1;
    }
    static void release(void* user_data, size_t bytes)
    {
        static_cast<Budget*>(user_data)->reserved -= bytes;
    }
    granary_settings settings()
    {
        granary_settings settings;
        granary_settings_init(&settings);
        settings.memory_budget = {&Budget::reserve, &Budget::release, this};
        return settings;
    }
};

const granary_field kDistinctField[] = {{"k", GRANARY_TYPE_UINT64, 0}};
const char* const kDistinctKey[] = {"k"};
const granary_aggregate kCount[] = {{"count", nullptr, 0, "c", nullptr}};

/// GROUP BY k over `rows` distinct keys sunk in batches from one sink, then finished: the
/// first failure's code, and the result's rows.
std::pair<granary_status, size_t> countDistinct(size_t rows, const granary_settings& settings)
{
    std::vector<uint64_t> keys(rows);
    for (size_t i = 0; i < rows; ++i)
    {
        keys[i] = i * 0x9E37'79B9'7F4A'7C15ull;
    }
    granary_group_by* created = nullptr;
    granary_error error;
    granary_status status = granary_group_by_create(kDistinctField, 1, kDistinctKey, 1, kCount, 1,
                                                    &settings, &created, &error);
    GroupByHandle group_by(created);
    granary_local_sink* sink = nullptr;
    if (status == GRANARY_OK)
    {
        status = granary_local_sink_create(group_by.get(), &sink, &error);
    }
    constexpr size_t kBatchRows = 8192;
    for (size_t row = 0; status == GRANARY_OK && row < rows; row += kBatchRows)
    {
        granary_column column{};
        column.type = GRANARY_TYPE_UINT64;
        column.data = keys.data() + row;
        status =
            granary_local_sink_sink(sink, &column, 1, std::min(kBatchRows, rows - row), &error);
    }
    granary_result_stream* result = nullptr;
    if (status == GRANARY_OK)
    {
        status = granary_group_by_combine(group_by.get(), sink, &error);
        sink = nullptr;  // consumed
    }
    if (status == GRANARY_OK)
    {
        status = granary_group_by_finish(group_by.get(), &result, &error);
    }
    granary_local_sink_destroy(sink);
    return {status, result != nullptr ? rowsLeft(StreamHandle(result).get()) : 0};
}

TEST(CApi, ARefusingBudgetEndsTheQueryWithMemoryLimitExceededAndGetsEveryByteBack)
{
    Budget budget{4 << 20};
    EXPECT_EQ(countDistinct(400'000, budget.settings()).first, GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED);
    EXPECT_GT(budget.refusals.load(), 0u);
    EXPECT_EQ(budget.reserved.load(), 0u);
}

TEST(CApi, AGenerousBudgetIsBalancedAfterTheQuery)
{
    Budget budget{size_t{1} << 40};
    EXPECT_EQ(countDistinct(200'000, budget.settings()),
              std::make_pair(granary_status{GRANARY_OK}, size_t{200'000}));
    EXPECT_GT(budget.granted.load(), 0u);
    EXPECT_EQ(budget.reserved.load(), 0u);
}

/// A host's scheduler that runs every task on the thread calling run, and notes any other.
struct CallingThreadRunner
{
    std::thread::id host = std::this_thread::get_id();
    std::atomic<size_t> tasks{0};
    std::atomic<size_t> foreign_threads{0};

    static void run(void* user_data, size_t count, void (*task)(void* task_data, size_t index),
                    void* task_data)
    {
        CallingThreadRunner& runner = *static_cast<CallingThreadRunner*>(user_data);
        for (size_t i = 0; i < count; ++i)
        {
            if (std::this_thread::get_id() != runner.host)
            {
                ++runner.foreign_threads;
            }
            task(task_data, i);
            ++runner.tasks;
        }
    }
};

TEST(CApi, AHostTaskRunnerRunsEveryTaskOnTheCallingThread)
{
    CallingThreadRunner runner;
    granary_settings settings;
    granary_settings_init(&settings);
    // More workers than it has: the merge plans parallel regions, all run here.
    settings.task_runner = {4, &CallingThreadRunner::run, &runner};
    EXPECT_EQ(countDistinct(300'000, settings),
              std::make_pair(granary_status{GRANARY_OK}, size_t{300'000}));
    EXPECT_GT(runner.tasks.load(), 0u);
    EXPECT_EQ(runner.foreign_threads.load(), 0u);
}

// ---- Arrow and lifetimes ----

/// Counts the calls of an exported array's release, then releases it as its producer would.
struct ReleaseCounter
{
    static inline int calls = 0;
    static inline void (*producer_release)(ArrowArray*) = nullptr;
    static void release(ArrowArray* array)
    {
        ++calls;
        producer_release(array);
    }
};

TEST(CApi, AnExportedBatchOutlivesItsHandleAndIsReleasedOnce)
{
    GroupByHandle group_by = sunkCities();
    StreamHandle stream = finish(group_by.get());
    BatchHandle batch = next(stream.get());
    const size_t rows = rowsOf(batch.get());
    ArrowArray array;
    ArrowSchema schema;
    granary_error error;
    ASSERT_EQ(granary_result_batch_export_arrow(batch.get(), &array, &schema, &error), GRANARY_OK)
        << error.message;
    ReleaseCounter::calls = 0;
    ReleaseCounter::producer_release = array.release;
    array.release = &ReleaseCounter::release;
    EXPECT_EQ(rowsOf(batch.get()), 0u);
    batch.reset();
    group_by.reset();

    ASSERT_EQ(array.length, static_cast<int64_t>(rows));
    ASSERT_EQ(schema.n_children, 5);
    EXPECT_STREQ(schema.children[1]->name, "rows");
    // Rows per city add up to the input's rows (every city in this first batch).
    const auto* counts = static_cast<const uint64_t*>(array.children[1]->buffers[1]);
    uint64_t total = 0;
    for (size_t row = 0; row < rows; ++row)
    {
        total += counts[array.children[1]->offset + row];
    }
    EXPECT_GT(total, 0u);
    EXPECT_LE(total, kCityRows);
    EXPECT_EQ(ReleaseCounter::calls, 0);
    array.release(&array);
    EXPECT_EQ(ReleaseCounter::calls, 1);
    EXPECT_EQ(array.release, nullptr);
    schema.release(&schema);
}

TEST(CApi, ResultsRoundTripThroughArrowArraysAndStreams)
{
    StreamHandle stream = cityResult(2);
    // Exported as a stream, into a plan read from its schema, its first batch as an array and
    // the rest as the stream: SELECT city, sum(rows) GROUP BY city gives back the counts.
    ArrowArrayStream exported;
    granary_error error;
    ASSERT_EQ(granary_result_stream_export_arrow(stream.get(), &exported, &error), GRANARY_OK);
    ArrowSchema schema;
    ASSERT_EQ(exported.get_schema(&exported, &schema), 0);
    const char* const rows_argument[] = {"rows"};
    const granary_aggregate sum_rows[] = {{"sum", rows_argument, 1, "rows", nullptr}};
    granary_group_by* created = nullptr;
    ASSERT_EQ(granary_group_by_create_arrow(&schema, kCityKeys, 1, sum_rows, 1, nullptr, &created,
                                            &error),
              GRANARY_OK)
        << error.message;
    schema.release(&schema);
    GroupByHandle group_by(created);
    SinkHandle sink = makeSink(group_by.get());
    ArrowArray first;
    ASSERT_EQ(exported.get_next(&exported, &first), 0);
    ASSERT_NE(first.release, nullptr);
    ASSERT_EQ(granary_local_sink_sink_arrow(sink.get(), &first, &error), GRANARY_OK)
        << error.message;
    first.release(&first);
    ASSERT_EQ(granary_local_sink_sink_arrow_stream(sink.get(), &exported, &error), GRANARY_OK)
        << error.message;
    exported.release(&exported);
    ASSERT_EQ(granary_group_by_combine(group_by.get(), sink.release(), &error), GRANARY_OK);

    std::map<std::optional<uint32_t>, uint64_t> counts;
    StreamHandle result = finish(group_by.get());
    while (BatchHandle batch = next(result.get()))
    {
        const granary_column city = columnOf(batch.get(), 0, GRANARY_TYPE_UINT32);
        const granary_column rows = columnOf(batch.get(), 1, GRANARY_TYPE_UINT64);
        for (size_t row = 0; row < rowsOf(batch.get()); ++row)
        {
            counts[valueAt<uint32_t>(city, row)] = *valueAt<uint64_t>(rows, row);
        }
    }
    std::map<std::optional<uint32_t>, uint64_t> expected;
    for (const auto& [city, row] : kExpectedCities)
    {
        expected[city] = row.rows;
    }
    EXPECT_EQ(counts, expected);
}

TEST(CApi, HandlesMayBeDestroyedInAnyOrder)
{
    GroupByHandle group_by = makeCities();
    SinkHandle combined = makeSink(group_by.get());
    SinkHandle left_open = makeSink(group_by.get());
    sinkCities(combined.get(), 0, kCityRows);
    sinkCities(left_open.get(), 0, kCityRows);
    ASSERT_EQ(granary_group_by_combine(group_by.get(), combined.release(), nullptr), GRANARY_OK);
    StreamHandle stream = finish(group_by.get());
    // The group_by goes first: the open sink keeps its state, the result needs none of it.
    group_by.reset();
    left_open.reset();
    EXPECT_EQ(collectCities(stream.get()), kExpectedCities);

    // An unfinished query's sink still sinks once its group_by handle is gone.
    GroupByHandle unfinished = makeCities();
    SinkHandle sink = makeSink(unfinished.get());
    unfinished.reset();
    sinkCities(sink.get(), 0, kCityRows);
}

}  // namespace
