#include <array>
#include <atomic>
#include <iterator>
#include <thread>

#include "engine/aggregation/group_by_operator.h"
#include "engine/aggregation/host_input.h"
#include "engine/aggregation/state_bucket.h"
#include "engine/aggregation/state_bytes.h"
#include "engine/aggregation/state_merge.h"
#include "engine/arrow/arrow_column_export.h"
#include "engine/arrow/arrow_format.h"
#include "engine/arrow/arrow_import.h"
#include "engine/arrow/arrow_metadata.h"
#include "engine/embedding/result_stream_impl.h"
#include "engine/observe/profile_events.h"
#include "granary/groupby.h"

namespace granary
{
namespace
{

std::vector<HostColumn> hostColumns(const std::vector<arrow::ArrowField>& fields)
{
    std::vector<HostColumn> columns;
    for (const arrow::ArrowField& field : fields)
    {
        columns.push_back({field.name, field.type, field.nullable});
    }
    return columns;
}

/// Arrow fields of columns given without a schema: each type's own Arrow format.
std::vector<arrow::ArrowField> arrowFields(const std::vector<Field>& input)
{
    std::vector<arrow::ArrowField> fields;
    for (const Field& field : input)
    {
        fields.push_back({field.name, field.type, field.nullable,
                          std::string(arrow::defaultArrowFormat(field.type)), false, ""});
    }
    return fields;
}

std::vector<HostAggregate> hostAggregates(const std::vector<Aggregate>& aggregates)
{
    std::vector<HostAggregate> host;
    for (const Aggregate& aggregate : aggregates)
    {
        host.push_back({aggregate.function, aggregate.arguments, aggregate.result_name,
                        aggregate.filter, aggregate.parameters});
    }
    return host;
}

AggregationSettings aggregationSettings(const GroupBySettings& settings)
{
    AggregationSettings aggregation;
    aggregation.max_memory_usage = settings.max_memory_usage;
    // Locals that combine with imported states must all be partial tables of one kind.
    aggregation.distinct.count_by_value_buckets = !settings.partial_states;
    return aggregation;
}

/// The schema metadata key of partial-state batches' format version.
constexpr const char* kStateVersionKey = "granary.state.version";

/// Exception(kIncorrectData) unless `schema` says its states are of this build's format.
void checkStateVersion(const ArrowSchema& schema)
{
    for (const auto& [key, value] : arrow::decodeArrowMetadata(schema.metadata))
    {
        if (key == kStateVersionKey)
        {
            if (value != std::to_string(kPartialStateVersion))
            {
                throw Exception(ErrorCode::kIncorrectData,
                                "partial states of format version " + value +
                                    "; this build reads " + std::to_string(kPartialStateVersion));
            }
            return;
        }
    }
    throw Exception(ErrorCode::kIncorrectData,
                    std::string("an Arrow schema of partial states without '") + kStateVersionKey +
                        "' in its metadata");
}

Exception needsPartialStates(std::string_view call)
{
    return Exception(ErrorCode::kBadArguments,
                     std::string(call) + " needs GroupBySettings::partial_states");
}

std::unique_ptr<QueryContext> makeContext(const GroupBySettings& settings)
{
    std::unique_ptr<QueryContext> context;
    if (settings.task_runner != nullptr)
    {
        context = std::make_unique<QueryContext>(*settings.task_runner, settings.max_memory_usage);
    }
    else
    {
        const size_t threads =
            settings.threads != 0 ? settings.threads : std::thread::hardware_concurrency();
        context = std::make_unique<QueryContext>(threads, settings.max_memory_usage);
    }
    context->memory().setBudget(settings.memory_budget);
    return context;
}

/// The state columns of a plan's partial-state batches: one per aggregate, by its name.
std::vector<std::string> stateNames(const GroupByPlan& plan)
{
    std::vector<std::string> names;
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        names.push_back(entry.result_name);
    }
    return names;
}

}  // namespace

/// The operators of a host's plan, one per key lane (HostInput): the rows whose keys are all
/// non-NULL, and, for a plan with a nullable key, the rows with a NULL key. Their groups are
/// disjoint, so their results are concatenated. They share the query's context and its
/// partial phase.
using LaneOperators = std::array<std::unique_ptr<GroupByOperator>, kKeyLanes>;

LaneOperators makeLaneOperators(const HostInput& host, const GroupBySettings& settings,
                                QueryContext& context)
{
    const AggregationSettings aggregation = aggregationSettings(settings);
    const auto partial_recorder =
        std::make_shared<PhaseRecorder>(context.stats().phase(QueryPhase::kPartial));
    LaneOperators lanes;
    for (size_t lane = 0; lane < (host.hasNullKeyLane() ? kKeyLanes : 1); ++lane)
    {
        const CorePlan& core = host.corePlan(KeyLane(lane));
        lanes[lane] = std::make_unique<GroupByOperator>(
            makeGroupByPlan(core.columns, core.keys, core.aggregates, aggregation,
                            !settings.partial_states),
            aggregation, context, partial_recorder);
    }
    return lanes;
}

/// What a GroupBy with partial_states keeps to merge imported states: the batches' fields,
/// their NULL keys' handling, and per key lane the merge of their states into that lane's
/// operator.
struct StateImport
{
    StateImport(std::vector<arrow::ArrowField> fields_in, std::vector<std::string> keys,
                const LaneOperators& operators, const GroupBySettings& host_settings)
        : fields(std::move(fields_in)),
          input(hostColumns(fields), std::move(keys), {}, stateNames(operators[0]->plan()))
    {
        for (size_t lane = 0; lane < kKeyLanes && operators[lane]; ++lane)
        {
            merges[lane] = std::make_unique<StateMerge>(operators[lane]->plan(),
                                                        input.corePlan(KeyLane(lane)).columns,
                                                        aggregationSettings(host_settings));
        }
    }

    std::vector<arrow::ArrowField> fields;
    HostInput input;
    std::array<std::unique_ptr<StateMerge>, kKeyLanes> merges;
};

struct GroupBy::Impl
{
    Impl(std::vector<arrow::ArrowField> fields, std::vector<std::string> keys,
         const std::vector<Aggregate>& aggregates, const GroupBySettings& settings_in)
        : settings(settings_in),
          input_fields(std::move(fields)),
          host(hostColumns(input_fields), keys, hostAggregates(aggregates)),
          context(makeContext(settings)),
          lanes(makeLaneOperators(host, settings, *context))
    {
        if (settings.partial_states)
        {
            state_import =
                std::make_unique<StateImport>(stateFields(), std::move(keys), lanes, settings);
        }
    }

    /// The plan of rows without NULL keys, whose keys and aggregates every lane shares.
    const GroupByPlan& plan() const { return lanes[0]->plan(); }

    /// The result's fields: keys with their input's Arrow types, aggregates with their own
    /// (min, max and any keep their argument's).
    std::vector<arrow::ArrowField> resultFields() const;
    /// The fields of partial-state batches: keys, states (large binary), bucket.
    std::vector<arrow::ArrowField> stateFields() const;
    /// The result (or, `emit_states`, the partial states) as a stream. Once.
    ResultStream finish(const TopGroups* top, bool emit_states);

    GroupBySettings settings;
    std::vector<arrow::ArrowField> input_fields;
    HostInput host;
    std::unique_ptr<QueryContext> context;
    /// Declared before `lanes` (set in the constructor's body): the locals of imported states
    /// that the operators hold until finish use its plans, so they must be destroyed first.
    std::unique_ptr<StateImport> state_import;
    LaneOperators lanes;
    /// Set by the first finish: later sinks, combines and finishes are refused.
    std::atomic<bool> finished{false};

    void checkNotFinished(std::string_view call) const
    {
        if (finished.load(std::memory_order_acquire))
        {
            throw Exception(ErrorCode::kBadArguments,
                            std::string(call) + " after the GroupBy was finished");
        }
    }
};

std::vector<arrow::ArrowField> GroupBy::Impl::resultFields() const
{
    auto input = [&](const std::string& name) -> const arrow::ArrowField&
    {
        for (const arrow::ArrowField& field : input_fields)
        {
            if (field.name == name)
            {
                return field;
            }
        }
        throw Exception(ErrorCode::kLogicalError, "no input field '" + name + "'");
    };
    const GroupByPlan& plan = this->plan();
    std::vector<arrow::ArrowField> fields;
    for (size_t k = 0; k < host.hostKeyCount(); ++k)
    {
        arrow::ArrowField field = input(plan.key_names[k]);
        field.dictionary = false;
        fields.push_back(field);
    }
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        const DataType result_type = entry.function->resultType();
        const TypeId type = result_type.id;
        arrow::ArrowField field{entry.result_name,
                                type,
                                entry.function->resultMayBeNull(),
                                std::string(arrow::defaultArrowFormat(type)),
                                false,
                                ""};
        if (type == TypeId::Array)  // topK, quantiles: a list of the element type.
        {
            const TypeId element = result_type.element().id;
            field.children.push_back({arrow::kListElementName, element, false,
                                      std::string(arrow::defaultArrowFormat(element)), false, ""});
        }
        if (!entry.argument_columns.empty())
        {
            const arrow::ArrowField& argument = input_fields[entry.argument_columns[0]];
            if (argument.type == type && !argument.dictionary)
            {
                field.format = argument.format;
            }
        }
        fields.push_back(field);
    }
    return fields;
}

std::vector<arrow::ArrowField> GroupBy::Impl::stateFields() const
{
    std::vector<arrow::ArrowField> fields = resultFields();
    fields.resize(host.hostKeyCount());
    for (const AggregateLayout::Entry& entry : plan().layout->entries())
    {
        fields.push_back({entry.result_name, TypeId::String, false, "Z", false, ""});
    }
    fields.push_back({kPartialStateBucketColumn, TypeId::UInt8, false, "C", false, ""});
    return fields;
}

namespace
{

/// Appends the bucket column to a partial-state fragment whose first `keys` columns are its
/// keys.
void addStateBuckets(Block& fragment, size_t keys)
{
    std::vector<ColumnView> key_views;
    for (size_t k = 0; k < keys; ++k)
    {
        key_views.push_back(fragment.columns[k].column.view());
    }
    Column buckets(TypeId::UInt8);
    buckets.resizeFixedUninitialized(fragment.rows());
    for (size_t row = 0; row < fragment.rows(); ++row)
    {
        buckets.mutableData<uint8_t>()[row] = partialStateBucket(key_views, row);
    }
    fragment.columns.push_back({kPartialStateBucketColumn, std::move(buckets)});
}

}  // namespace

ResultStream GroupBy::Impl::finish(const TopGroups* top, bool emit_states)
{
    context->checkCancelled();
    if (finished.exchange(true, std::memory_order_acq_rel))
    {
        throw Exception(ErrorCode::kBadArguments, "a GroupBy is finished twice");
    }
    const AggregateOutput output =
        emit_states ? AggregateOutput::kStates : AggregateOutput::kResults;
    // The NULL-key lane first: the rows lane's finish then leaves the query's statistics (the
    // merge path) to the lane that holds nearly all groups.
    std::vector<Block> null_key_fragments;
    if (lanes[size_t(KeyLane::kNullKeys)])
    {
        null_key_fragments = lanes[size_t(KeyLane::kNullKeys)]->finish(top, output);
        for (Block& fragment : null_key_fragments)
        {
            host.restoreNullKeys(fragment);
        }
    }
    std::vector<Block> fragments = lanes[size_t(KeyLane::kNonNullKeys)]->finish(top, output);
    std::move(null_key_fragments.begin(), null_key_fragments.end(), std::back_inserter(fragments));
    size_t result_rows = 0;
    for (Block& fragment : fragments)
    {
        result_rows += fragment.rows();
        if (emit_states)
        {
            addStateBuckets(fragment, host.hostKeyCount());
        }
    }
    context->stats().result_rows = result_rows;
    ResultStream stream;
    arrow::ArrowMetadata metadata;
    if (emit_states)
    {
        metadata.emplace_back(kStateVersionKey, std::to_string(kPartialStateVersion));
    }
    stream.impl_ = std::make_shared<ResultStream::Impl>(
        std::move(fragments),
        std::make_shared<const ResultShape>(emit_states ? state_import->fields : resultFields(),
                                            std::move(metadata)),
        settings.result_batch_rows);
    return stream;
}

/// Exception(kTypeMismatch) unless `fields` (a batch's) name and type the plan's columns.
void checkSameFields(const std::vector<arrow::ArrowField>& fields,
                     const std::vector<arrow::ArrowField>& expected)
{
    if (fields.size() != expected.size())
    {
        throw Exception(ErrorCode::kTypeMismatch,
                        "an Arrow schema of " + std::to_string(fields.size()) +
                            " columns; the plan's has " + std::to_string(expected.size()));
    }
    for (size_t c = 0; c < expected.size(); ++c)
    {
        if (fields[c].type != expected[c].type || fields[c].name != expected[c].name)
        {
            throw Exception(ErrorCode::kTypeMismatch,
                            "Arrow column " + std::to_string(c) + " is '" + fields[c].name + "' " +
                                std::string(typeName(fields[c].type)) + ", the plan's is '" +
                                expected[c].name + "' " + std::string(typeName(expected[c].type)));
        }
    }
}

struct LocalSink::Impl
{
    GroupBy::Impl& group_by;
    /// The batches' columns: the input's, or a partial-state batch's.
    const HostInput& input;
    const std::vector<arrow::ArrowField>& arrow_fields;
    /// The merges of imported states, whose batches are checked before they are merged; null
    /// for a sink of rows.
    const StateImport* state_import;
    /// By key lane; the NULL-key lane's is made by the first batch with a NULL key.
    std::array<std::unique_ptr<LocalSinkState>, kKeyLanes> locals = {};
    HostInput::Scratch scratch = {};
    HostInput::LaneBatches lane_batches = {};

    std::unique_ptr<LocalSinkState> makeLocal(size_t lane) const
    {
        return state_import != nullptr ? state_import->merges[lane]->makeLocal()
                                       : group_by.lanes[lane]->makeLocal();
    }

    void sink(std::span<const ColumnView> columns, size_t rows)
    {
        group_by.checkNotFinished("a sink");
        QueryContext& context = *group_by.context;
        MemoryTrackerScope memory(&context.memory());
        ProfileEventsThreadScope events(context.profileEvents());
        TaskTimer timer(group_by.lanes[0]->partialRecorder());
        input.adapt(columns, rows, scratch, lane_batches);
        if (state_import != nullptr)  // the whole batch is checked before any of it merges
        {
            for (size_t lane = 0; lane < kKeyLanes; ++lane)
            {
                const HostInput::LaneBatch& batch = lane_batches[lane];
                if (batch.rows > 0)
                {
                    state_import->merges[lane]->checkStates(batch.columns, batch.rows);
                }
            }
        }
        for (size_t lane = 0; lane < kKeyLanes; ++lane)
        {
            const HostInput::LaneBatch& batch = lane_batches[lane];
            if (lane != 0 && batch.rows == 0)
            {
                continue;
            }
            if (!locals[lane])
            {
                locals[lane] = makeLocal(lane);
            }
            group_by.lanes[lane]->sink(*locals[lane], batch.columns, batch.rows);
        }
    }
};

LocalSink::LocalSink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LocalSink::~LocalSink()
{
    if (impl_)
    {
        // An uncombined sink frees its tables here: charged to its query like their allocation.
        MemoryTrackerScope memory(&impl_->group_by.context->memory());
        for (std::unique_ptr<LocalSinkState>& local : impl_->locals)
        {
            local.reset();
        }
    }
}
LocalSink::LocalSink(LocalSink&&) noexcept = default;
LocalSink& LocalSink::operator=(LocalSink&&) noexcept = default;

LocalSink::Impl& LocalSink::impl() const
{
    if (!impl_)
    {
        throw Exception(ErrorCode::kBadArguments, "a sink used after it was combined or moved");
    }
    return *impl_;
}

void LocalSink::sink(std::span<const ColumnView> columns, size_t rows)
{
    impl().sink(columns, rows);
}

void LocalSink::sinkArrow(const ArrowArray& batch)
{
    const arrow::ImportedBatch imported =
        arrow::importBatch(batch, impl().arrow_fields, impl().input.readColumns());
    impl().sink(imported.columns, imported.rows);
}

void LocalSink::sinkArrow(const ArrowArray& batch, const ArrowSchema& schema)
{
    if (impl().state_import != nullptr)
    {
        checkStateVersion(schema);
    }
    checkSameFields(arrow::importSchema(schema), impl().arrow_fields);
    sinkArrow(batch);
}

void LocalSink::sinkArrowStream(ArrowArrayStream& stream)
{
    arrow::readArrowStream(
        stream,
        [&](const std::vector<arrow::ArrowField>& fields, const arrow::ImportedBatch& batch)
        {
            checkSameFields(fields, impl().arrow_fields);
            impl().sink(batch.columns, batch.rows);
        },
        [&](const ArrowSchema& schema)
        {
            if (impl().state_import != nullptr)
            {
                checkStateVersion(schema);
            }
        },
        impl().input.readColumns());
}

GroupBy::GroupBy(std::vector<Field> input, std::vector<std::string> keys,
                 std::vector<Aggregate> aggregates, GroupBySettings settings)
    : impl_(std::make_unique<Impl>(arrowFields(input), std::move(keys), aggregates, settings))
{
}

GroupBy::GroupBy(const ArrowSchema& input, std::vector<std::string> keys,
                 std::vector<Aggregate> aggregates, GroupBySettings settings)
    : impl_(
          std::make_unique<Impl>(arrow::importSchema(input), std::move(keys), aggregates, settings))
{
}

GroupBy::~GroupBy() = default;

LocalSink GroupBy::makeLocalSink()
{
    impl_->checkNotFinished("makeLocalSink");
    MemoryTrackerScope memory(&impl_->context->memory());
    auto sink = std::make_unique<LocalSink::Impl>(
        LocalSink::Impl{*impl_, impl_->host, impl_->input_fields, nullptr});
    sink->locals[0] = sink->makeLocal(0);
    return LocalSink(std::move(sink));
}

LocalSink GroupBy::makePartialStateSink()
{
    if (!impl_->state_import)
    {
        throw needsPartialStates("makePartialStateSink");
    }
    const StateImport& import = *impl_->state_import;
    MemoryTrackerScope memory(&impl_->context->memory());
    auto sink = std::make_unique<LocalSink::Impl>(
        LocalSink::Impl{*impl_, import.input, import.fields, &import});
    sink->locals[0] = sink->makeLocal(0);
    return LocalSink(std::move(sink));
}

std::vector<Field> GroupBy::partialStateSchema() const
{
    if (!impl_->state_import)
    {
        throw needsPartialStates("partialStateSchema");
    }
    std::vector<Field> schema;
    for (const arrow::ArrowField& field : impl_->state_import->fields)
    {
        schema.push_back({field.name, field.type, field.nullable});
    }
    return schema;
}

void GroupBy::combine(LocalSink&& sink)
{
    if (&sink.impl().group_by != impl_.get())
    {
        throw Exception(ErrorCode::kBadArguments, "a sink is combined into a GroupBy not its own");
    }
    impl_->checkNotFinished("a combine");
    // The sink is spent: a later sink or combine of it is refused (LocalSink::impl).
    const std::unique_ptr<LocalSink::Impl> combined = std::move(sink.impl_);
    for (size_t lane = 0; lane < kKeyLanes; ++lane)
    {
        if (combined->locals[lane])
        {
            impl_->lanes[lane]->combine(std::move(combined->locals[lane]));
        }
    }
}

ResultStream GroupBy::finish(const TopN* top)
{
    std::optional<TopGroups> top_groups;
    if (top != nullptr)
    {
        top_groups.emplace();
        top_groups->rows = top->rows;
        for (const TopN::Column& column : top->order)
        {
            top_groups->order.push_back({column.name, column.descending});
        }
    }
    return impl_->finish(top_groups ? &*top_groups : nullptr, false);
}

ResultStream GroupBy::finishPartial()
{
    if (!impl_->state_import)
    {
        throw needsPartialStates("finishPartial");
    }
    return impl_->finish(nullptr, true);
}

void GroupBy::cancel()
{
    impl_->context->cancel();
}

GroupByStatistics GroupBy::statistics() const
{
    const QueryStats& stats = impl_->context->stats();
    GroupByStatistics out;
    out.input_rows = stats.input_rows;
    out.result_rows = stats.result_rows;
    out.partials = stats.partials;
    out.peak_memory_bytes = stats.peak_memory_bytes;
    out.partial_seconds = stats.phase(QueryPhase::kPartial).wall_seconds;
    out.merge_seconds = stats.phase(QueryPhase::kConvert).wall_seconds +
                        stats.phase(QueryPhase::kMerge).wall_seconds;
    out.finalize_seconds = stats.phase(QueryPhase::kFinalize).wall_seconds;
    out.merge_path = std::string(mergePathName(stats.merge_path));
    return out;
}

}  // namespace granary
