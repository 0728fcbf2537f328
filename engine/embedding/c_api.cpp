// The C API (granary/granary.h) over the C++ one (granary/groupby.h): each handle owns the C++
// object it stands for, and every entry point turns what the C++ side throws into a status and
// a message, so that no exception reaches a C caller.

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "granary/granary.h"
#include "granary/groupby.h"

// The trampoline a host's run callback calls for each task: C language linkage, as the
// callback's parameter type says. TaskRunner's contract is that the task never throws.
extern "C"
{
    static void granaryRunRegionTask(void* task_data, size_t index) noexcept
    {
        (*static_cast<const std::function<void(size_t)>*>(task_data))(index);
    }
}

namespace granary
{
namespace
{

/// A C enumerator and the C++ one it copies, as numbers.
template <typename CEnum, typename CppEnum>
constexpr std::pair<int, int> mirrored(CEnum c_value, CppEnum cpp_value)
{
    return {static_cast<int>(c_value), static_cast<int>(cpp_value)};
}

// granary.h's enums copy ErrorCode's numbers and TypeId's order: checked where both are seen.
constexpr std::pair<int, int> kMirroredEnums[] = {
    mirrored(GRANARY_OK, ErrorCode::kOk),
    mirrored(GRANARY_ERROR_BAD_ARGUMENTS, ErrorCode::kBadArguments),
    mirrored(GRANARY_ERROR_UNKNOWN_FUNCTION, ErrorCode::kUnknownFunction),
    mirrored(GRANARY_ERROR_UNKNOWN_COLUMN, ErrorCode::kUnknownColumn),
    mirrored(GRANARY_ERROR_LOGICAL_ERROR, ErrorCode::kLogicalError),
    mirrored(GRANARY_ERROR_UNKNOWN_TYPE, ErrorCode::kUnknownType),
    mirrored(GRANARY_ERROR_TYPE_MISMATCH, ErrorCode::kTypeMismatch),
    mirrored(GRANARY_ERROR_INCORRECT_DATA, ErrorCode::kIncorrectData),
    mirrored(GRANARY_ERROR_TOO_LARGE_SIZE, ErrorCode::kTooLargeSize),
    mirrored(GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED, ErrorCode::kMemoryLimitExceeded),
    mirrored(GRANARY_ERROR_VALUE_OUT_OF_RANGE, ErrorCode::kValueOutOfRangeOfDataType),
    mirrored(GRANARY_ERROR_QUERY_CANCELLED, ErrorCode::kQueryCancelled),
    mirrored(GRANARY_TYPE_UINT8, TypeId::UInt8),
    mirrored(GRANARY_TYPE_UINT16, TypeId::UInt16),
    mirrored(GRANARY_TYPE_UINT32, TypeId::UInt32),
    mirrored(GRANARY_TYPE_UINT64, TypeId::UInt64),
    mirrored(GRANARY_TYPE_INT8, TypeId::Int8),
    mirrored(GRANARY_TYPE_INT16, TypeId::Int16),
    mirrored(GRANARY_TYPE_INT32, TypeId::Int32),
    mirrored(GRANARY_TYPE_INT64, TypeId::Int64),
    mirrored(GRANARY_TYPE_FLOAT32, TypeId::Float32),
    mirrored(GRANARY_TYPE_FLOAT64, TypeId::Float64),
    mirrored(GRANARY_TYPE_DATE, TypeId::Date),
    mirrored(GRANARY_TYPE_DATETIME, TypeId::DateTime),
    mirrored(GRANARY_TYPE_STRING, TypeId::String)};
static_assert(std::ranges::all_of(kMirroredEnums,
                                  [](const auto& pair) { return pair.first == pair.second; }),
              "granary.h's enums must keep ErrorCode's numbers and TypeId's order");
constexpr granary_type kLastType = GRANARY_TYPE_STRING;

// ---- Errors ----

/// Cuts a truncated message before a UTF-8 sequence the cut left incomplete, so that hosts
/// decoding messages as UTF-8 (Rust, Java, Python) can.
void trimIncompleteUtf8(char* message, size_t length)
{
    // UTF-8: continuation bytes are 10xxxxxx; a lead byte 110xxxxx, 1110xxxx or 11110xxx starts
    // a sequence of 2, 3 or 4 bytes.
    constexpr unsigned char kTopBits = 0xC0;
    constexpr unsigned char kContinuation = 0x80;
    constexpr unsigned char kLeadOfThree = 0xE0;
    constexpr unsigned char kLeadOfFour = 0xF0;
    auto byte = [&](size_t i) { return static_cast<unsigned char>(message[i]); };
    size_t lead = length;
    while (lead > 0 && (byte(lead - 1) & kTopBits) == kContinuation)
    {
        --lead;
    }
    if (lead == 0 || byte(lead - 1) < kTopBits)
    {
        return;  // Ends in ASCII, or in stray continuation bytes that no cut made.
    }
    const unsigned char first = byte(lead - 1);
    const size_t sequence = first >= kLeadOfFour ? 4 : first >= kLeadOfThree ? 3 : 2;
    if (length - (lead - 1) < sequence)
    {
        message[lead - 1] = '\0';
    }
}

granary_status succeeded(granary_error* error) noexcept
{
    if (error != nullptr)
    {
        error->code = GRANARY_OK;
        error->message[0] = '\0';
    }
    return GRANARY_OK;
}

/// Fills `error` with "function: what", cut to fit.
granary_status failed(granary_error* error, const char* function, int code,
                      const char* what) noexcept
{
    if (error != nullptr)
    {
        error->code = code;
        const int length =
            std::snprintf(error->message, sizeof(error->message), "%s: %s", function, what);
        if (length >= static_cast<int>(sizeof(error->message)))
        {
            trimIncompleteUtf8(error->message, sizeof(error->message) - 1);
        }
    }
    return code;
}

/// Runs an entry point's body: GRANARY_OK, or the code and message of what it threw.
template <typename Body>
granary_status guarded(const char* function, granary_error* error, Body&& body) noexcept
{
    try
    {
        body();
        return succeeded(error);
    }
    catch (const Exception& exception)
    {
        return failed(error, function, static_cast<int>(exception.code()), exception.what());
    }
    catch (const std::bad_alloc&)
    {
        return failed(error, function, GRANARY_ERROR_MEMORY_LIMIT_EXCEEDED, "out of memory");
    }
    catch (const std::exception& exception)
    {
        return failed(error, function, GRANARY_ERROR_LOGICAL_ERROR, exception.what());
    }
    catch (...)
    {
        return failed(error, function, GRANARY_ERROR_LOGICAL_ERROR, "an unknown exception");
    }
}

/// guarded() for an entry point that creates a handle: *out is NULL unless it succeeds (and
/// NULL too where `make` has nothing to give).
template <typename Handle, typename Make>
granary_status producing(const char* function, Handle** out, granary_error* error, Make&& make)
{
    return guarded(function, error,
                   [&]
                   {
                       if (out == nullptr)
                       {
                           throw Exception(ErrorCode::kBadArguments, "'out' is NULL");
                       }
                       *out = nullptr;
                       *out = make().release();
                   });
}

// ---- Arguments ----

void require(const void* pointer, std::string_view what)
{
    if (pointer == nullptr)
    {
        throw Exception(ErrorCode::kBadArguments, "'" + std::string(what) + "' is NULL");
    }
}

/// An array may be NULL only when it is empty.
template <typename T>
std::span<const T> arrayOf(const T* items, size_t count, std::string_view what)
{
    if (count != 0)
    {
        require(items, what);
    }
    return {items, count};
}

std::string element(std::string_view array, size_t index, const char* member = "")
{
    return std::string(array) + "[" + std::to_string(index) + "]" + member;
}

std::string copied(const char* text, std::string_view what)
{
    require(text, what);
    return text;
}

TypeId typeIdOf(granary_type type, const char* array, size_t index)
{
    // Cast to unsigned: a C enum may hold any int, negative ones too.
    if (static_cast<unsigned>(type) > static_cast<unsigned>(kLastType))
    {
        throw Exception(ErrorCode::kBadArguments, "'" + element(array, index, ".type") + "' is " +
                                                      std::to_string(static_cast<int>(type)) +
                                                      ", not a granary_type");
    }
    return static_cast<TypeId>(type);
}

std::vector<Field> fieldsOf(const granary_field* fields, size_t count)
{
    std::vector<Field> out;
    for (size_t i = 0; const granary_field& field : arrayOf(fields, count, "fields"))
    {
        out.push_back({copied(field.name, element("fields", i, ".name")),
                       typeIdOf(field.type, "fields", i), field.nullable != 0});
        ++i;
    }
    return out;
}

std::vector<std::string> namesOf(const char* const* names, size_t count, std::string_view what)
{
    std::vector<std::string> out;
    for (size_t i = 0; const char* name : arrayOf(names, count, what))
    {
        out.push_back(copied(name, element(what, i++)));
    }
    return out;
}

std::vector<double> parametersOf(const double* parameters, size_t count,
                                 const std::string& subject)
{
    const std::span<const double> given = arrayOf(parameters, count, subject);
    return {given.begin(), given.end()};
}

std::vector<Aggregate> aggregatesOf(const granary_aggregate* aggregates, size_t count)
{
    std::vector<Aggregate> out;
    for (size_t i = 0;
         const granary_aggregate& aggregate : arrayOf(aggregates, count, "aggregates"))
    {
        out.push_back({copied(aggregate.function, element("aggregates", i, ".function")),
                       namesOf(aggregate.arguments, aggregate.argument_count,
                               element("aggregates", i, ".arguments")),
                       copied(aggregate.result_name, element("aggregates", i, ".result_name")),
                       aggregate.filter != nullptr ? aggregate.filter : "",
                       parametersOf(aggregate.parameters, aggregate.parameter_count,
                                    element("aggregates", i, ".parameters"))});
        ++i;
    }
    return out;
}

TopN topOf(const granary_order_column* order, size_t count, size_t rows)
{
    TopN top;
    top.rows = rows;
    for (size_t i = 0; const granary_order_column& column : arrayOf(order, count, "order"))
    {
        top.order.push_back(
            {copied(column.name, element("order", i++, ".name")), column.descending != 0});
    }
    return top;
}

// ---- Host hooks ----

class HostTaskRunner final : public TaskRunner
{
public:
    explicit HostTaskRunner(const granary_task_runner& hooks) : hooks_(hooks) {}
    size_t concurrency() const override { return hooks_.concurrency; }
    void run(size_t count, const std::function<void(size_t)>& task) override
    {
        // The task travels as task_data; the trampoline calls it back.
        hooks_.run(hooks_.user_data, count, &granaryRunRegionTask,
                   const_cast<void*>(static_cast<const void*>(&task)));
    }

private:
    granary_task_runner hooks_;
};

class HostMemoryBudget final : public MemoryBudget
{
public:
    explicit HostMemoryBudget(const granary_memory_budget& hooks) : hooks_(hooks) {}
    bool reserve(size_t bytes) override { return hooks_.reserve(hooks_.user_data, bytes) != 0; }
    void release(size_t bytes) noexcept override { hooks_.release(hooks_.user_data, bytes); }

private:
    granary_memory_budget hooks_;
};

/// A GroupBy with the host's hooks it calls: shared by its group_by handle and its sinks, so
/// that the handles may be destroyed in any order.
struct Query
{
    std::unique_ptr<HostTaskRunner> task_runner;
    std::unique_ptr<HostMemoryBudget> memory_budget;
    /// Declared last, so destroyed first: it calls the hooks until then.
    std::unique_ptr<GroupBy> group_by;
};

granary_settings defaultSettings()
{
    const GroupBySettings defaults;
    granary_settings settings{};
    settings.threads = defaults.threads;
    settings.max_memory_usage = defaults.max_memory_usage;
    settings.result_batch_rows = defaults.result_batch_rows;
    return settings;
}

/// The host's callbacks in `host` as `query`'s TaskRunner and MemoryBudget in `settings`.
void attachHostHooks(const granary_settings& host, Query& query, GroupBySettings& settings)
{
    if (host.task_runner.run != nullptr)
    {
        if (host.task_runner.concurrency == 0)
        {
            throw Exception(
                ErrorCode::kBadArguments,
                "'settings.task_runner.concurrency' is 0: a runner runs 1 task or more");
        }
        query.task_runner = std::make_unique<HostTaskRunner>(host.task_runner);
        settings.task_runner = query.task_runner.get();
    }
    const granary_memory_budget& budget = host.memory_budget;
    if ((budget.reserve == nullptr) != (budget.release == nullptr))
    {
        throw Exception(ErrorCode::kBadArguments,
                        std::string("'settings.memory_budget.") +
                            (budget.reserve == nullptr ? "reserve" : "release") +
                            "' is NULL: a budget needs both callbacks");
    }
    if (budget.reserve != nullptr)
    {
        query.memory_budget = std::make_unique<HostMemoryBudget>(budget);
        settings.memory_budget = query.memory_budget.get();
    }
}

// ---- Batches ----

ColumnView viewOf(const granary_column& column, size_t rows, size_t index)
{
    return ColumnView{.type = typeIdOf(column.type, "columns", index),
                      .rows = rows,
                      .data = column.data,
                      .chars = column.chars,
                      .offsets = column.offsets,
                      .validity = column.validity,
                      .validity_offset = column.validity_offset};
}

granary_column columnOf(const ColumnView& view)
{
    return granary_column{.type = static_cast<granary_type>(view.type),
                          .data = view.data,
                          .chars = view.chars,
                          .offsets = view.offsets,
                          .validity = view.validity,
                          .validity_offset = view.validity_offset};
}

}  // namespace
}  // namespace granary

struct granary_group_by
{
    std::shared_ptr<granary::Query> query;
};

struct granary_local_sink
{
    /// Declared first, so destroyed last: the sink frees its tables into the query.
    std::shared_ptr<granary::Query> query;
    granary::LocalSink sink;
    /// The batch's views, kept to spare an allocation per batch.
    std::vector<granary::ColumnView> views;
};

struct granary_result_stream
{
    granary::ResultStream stream;
};

struct granary_result_batch
{
    granary::ResultBatch batch;
};

namespace granary
{
namespace
{

/// A group_by handle over `input` (Fields or an ArrowSchema, as GroupBy takes).
template <typename Input>
std::unique_ptr<granary_group_by> makeGroupBy(const Input& input, const char* const* keys,
                                              size_t key_count, const granary_aggregate* aggregates,
                                              size_t aggregate_count,
                                              const granary_settings* host_settings)
{
    const granary_settings host = host_settings != nullptr ? *host_settings : defaultSettings();
    GroupBySettings settings;
    settings.threads = host.threads;
    settings.max_memory_usage = host.max_memory_usage;
    settings.result_batch_rows = host.result_batch_rows;
    auto query = std::make_shared<Query>();
    attachHostHooks(host, *query, settings);
    query->group_by =
        std::make_unique<GroupBy>(input, namesOf(keys, key_count, "keys"),
                                  aggregatesOf(aggregates, aggregate_count), settings);
    return std::make_unique<granary_group_by>(granary_group_by{std::move(query)});
}

/// `index` if a column of `batch`.
size_t checkedColumn(const ResultBatch& batch, size_t index)
{
    const size_t count = batch.columnCount();
    if (index >= count)
    {
        throw Exception(ErrorCode::kBadArguments, "column " + std::to_string(index) +
                                                      " of a batch of " + std::to_string(count) +
                                                      " columns");
    }
    return index;
}

/// guarded() for a batch's accessor: *out = read(the batch) once both pointers are checked.
template <typename Value, typename Read>
granary_status reading(const char* function, const granary_result_batch* batch, Value* out,
                       const char* out_name, granary_error* error, Read&& read)
{
    return guarded(function, error,
                   [&]
                   {
                       require(batch, "batch");
                       require(out, out_name);
                       *out = read(batch->batch);
                   });
}

/// GroupBy::finish of a handle into *out, with the TopN `make_top` gives (or none).
template <typename MakeTop>
granary_status finishing(const char* function, granary_group_by* group_by,
                         granary_result_stream** out, granary_error* error, MakeTop&& make_top)
{
    return producing(function, out, error,
                     [&]
                     {
                         require(group_by, "group_by");
                         const std::optional<TopN> top = make_top();
                         return std::make_unique<granary_result_stream>(granary_result_stream{
                             group_by->query->group_by->finish(top ? &*top : nullptr)});
                     });
}

}  // namespace
}  // namespace granary

// The entry points are global, as C has no namespaces; their bodies speak the engine's names.
using namespace granary;

const char* granary_error_code_name(int code)
{
    // The names are string literals: their views end in a NUL.
    return errorCodeName(static_cast<ErrorCode>(code)).data();
}

const char* granary_version_string(void)
{
    return GRANARY_VERSION_STRING;
}

void granary_settings_init(granary_settings* settings)
{
    if (settings != nullptr)
    {
        *settings = defaultSettings();
    }
}

granary_status granary_group_by_create(const granary_field* fields, size_t field_count,
                                       const char* const* keys, size_t key_count,
                                       const granary_aggregate* aggregates, size_t aggregate_count,
                                       const granary_settings* settings, granary_group_by** out,
                                       granary_error* error)
{
    return producing(__func__, out, error,
                     [&]
                     {
                         return makeGroupBy(fieldsOf(fields, field_count), keys, key_count,
                                            aggregates, aggregate_count, settings);
                     });
}

granary_status granary_group_by_create_arrow(const struct ArrowSchema* schema,
                                             const char* const* keys, size_t key_count,
                                             const granary_aggregate* aggregates,
                                             size_t aggregate_count,
                                             const granary_settings* settings,
                                             granary_group_by** out, granary_error* error)
{
    return producing(__func__, out, error,
                     [&]
                     {
                         require(schema, "schema");
                         return makeGroupBy(*schema, keys, key_count, aggregates, aggregate_count,
                                            settings);
                     });
}

granary_status granary_group_by_cancel(granary_group_by* group_by, granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(group_by, "group_by");
                       group_by->query->group_by->cancel();
                   });
}

void granary_group_by_destroy(granary_group_by* group_by)
{
    delete group_by;
}

granary_status granary_local_sink_create(granary_group_by* group_by, granary_local_sink** out,
                                         granary_error* error)
{
    return producing(__func__, out, error,
                     [&]
                     {
                         require(group_by, "group_by");
                         const std::shared_ptr<Query>& query = group_by->query;
                         return std::make_unique<granary_local_sink>(
                             granary_local_sink{query, query->group_by->makeLocalSink(), {}});
                     });
}

granary_status granary_local_sink_sink(granary_local_sink* sink, const granary_column* columns,
                                       size_t column_count, size_t rows, granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(sink, "sink");
                       sink->views.clear();
                       for (size_t c = 0; const granary_column& column :
                                          arrayOf(columns, column_count, "columns"))
                       {
                           sink->views.push_back(viewOf(column, rows, c++));
                       }
                       sink->sink.sink(sink->views, rows);
                   });
}

granary_status granary_local_sink_sink_arrow(granary_local_sink* sink,
                                             const struct ArrowArray* batch, granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(sink, "sink");
                       require(batch, "batch");
                       sink->sink.sinkArrow(*batch);
                   });
}

granary_status granary_local_sink_sink_arrow_stream(granary_local_sink* sink,
                                                    struct ArrowArrayStream* stream,
                                                    granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(sink, "sink");
                       require(stream, "stream");
                       sink->sink.sinkArrowStream(*stream);
                   });
}

granary_status granary_group_by_combine(granary_group_by* group_by, granary_local_sink* sink,
                                        granary_error* error)
{
    // Taken before anything can fail: the sink is consumed whatever happens.
    const std::unique_ptr<granary_local_sink> consumed(sink);
    return guarded(__func__, error,
                   [&]
                   {
                       require(group_by, "group_by");
                       require(sink, "sink");
                       group_by->query->group_by->combine(std::move(consumed->sink));
                   });
}

void granary_local_sink_destroy(granary_local_sink* sink)
{
    delete sink;
}

granary_status granary_group_by_finish(granary_group_by* group_by, granary_result_stream** out,
                                       granary_error* error)
{
    return finishing(__func__, group_by, out, error, [] { return std::optional<TopN>(); });
}

granary_status granary_group_by_finish_top(granary_group_by* group_by,
                                           const granary_order_column* order, size_t order_count,
                                           size_t rows, granary_result_stream** out,
                                           granary_error* error)
{
    return finishing(__func__, group_by, out, error,
                     [&] { return std::optional<TopN>(topOf(order, order_count, rows)); });
}

granary_status granary_result_stream_next(granary_result_stream* stream, granary_result_batch** out,
                                          granary_error* error)
{
    return producing(__func__, out, error,
                     [&]
                     {
                         require(stream, "stream");
                         auto batch = std::make_unique<granary_result_batch>();
                         if (!stream->stream.next(batch->batch))
                         {
                             batch.reset();
                         }
                         return batch;
                     });
}

granary_status granary_result_stream_export_arrow(granary_result_stream* stream,
                                                  struct ArrowArrayStream* out,
                                                  granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(stream, "stream");
                       require(out, "out");
                       stream->stream.exportTo(out);
                   });
}

void granary_result_stream_destroy(granary_result_stream* stream)
{
    delete stream;
}

granary_status granary_result_batch_rows(const granary_result_batch* batch, size_t* rows,
                                         granary_error* error)
{
    return reading(__func__, batch, rows, "rows", error,
                   [](const ResultBatch& result) { return result.rows(); });
}

granary_status granary_result_batch_column_count(const granary_result_batch* batch, size_t* count,
                                                 granary_error* error)
{
    return reading(__func__, batch, count, "count", error,
                   [](const ResultBatch& result) { return result.columnCount(); });
}

granary_status granary_result_batch_column_name(const granary_result_batch* batch, size_t index,
                                                const char** name, granary_error* error)
{
    return reading(__func__, batch, name, "name", error,
                   [&](const ResultBatch& result)
                   { return result.name(checkedColumn(result, index)).c_str(); });
}

granary_status granary_result_batch_column(const granary_result_batch* batch, size_t index,
                                           granary_column* column, granary_error* error)
{
    return reading(__func__, batch, column, "column", error,
                   [&](const ResultBatch& result)
                   { return columnOf(result.column(checkedColumn(result, index))); });
}

granary_status granary_result_batch_export_arrow(granary_result_batch* batch,
                                                 struct ArrowArray* array,
                                                 struct ArrowSchema* schema, granary_error* error)
{
    return guarded(__func__, error,
                   [&]
                   {
                       require(batch, "batch");
                       require(array, "array");
                       require(schema, "schema");
                       batch->batch.exportTo(array, schema);
                   });
}

void granary_result_batch_destroy(granary_result_batch* batch)
{
    delete batch;
}
