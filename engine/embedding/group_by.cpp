#include <mutex>
#include <thread>

#include "engine/aggregation/group_by_operator.h"
#include "engine/aggregation/host_input.h"
#include "engine/arrow/arrow_format.h"
#include "engine/arrow/arrow_import.h"
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
        host.push_back(
            {aggregate.function, aggregate.arguments, aggregate.result_name, aggregate.filter});
    }
    return host;
}

AggregationSettings aggregationSettings(const GroupBySettings& settings)
{
    AggregationSettings aggregation;
    aggregation.max_memory_usage = settings.max_memory_usage;
    return aggregation;
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

}  // namespace

struct GroupBy::Impl
{
    Impl(std::vector<arrow::ArrowField> fields, std::vector<std::string> keys,
         const std::vector<Aggregate>& aggregates, const GroupBySettings& settings_in)
        : settings(settings_in),
          input_fields(std::move(fields)),
          host(hostColumns(input_fields), keys, hostAggregates(aggregates)),
          context(makeContext(settings)),
          op(makeGroupByPlan(host.coreColumns(), host.coreKeys(), host.coreAggregates(),
                             aggregationSettings(settings)),
             aggregationSettings(settings), *context)
    {
    }

    /// The result's fields: keys with their input's Arrow types, aggregates with their own
    /// (min, max and any keep their argument's).
    std::vector<arrow::ArrowField> resultFields() const;

    GroupBySettings settings;
    std::vector<arrow::ArrowField> input_fields;
    HostInput host;
    std::unique_ptr<QueryContext> context;
    GroupByOperator op;
    std::once_flag finished;
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
    const GroupByPlan& plan = op.plan();
    std::vector<arrow::ArrowField> fields;
    for (size_t k = 0; k < host.hostKeyCount(); ++k)
    {
        arrow::ArrowField field = input(plan.key_names[k]);
        field.dictionary = false;
        fields.push_back(field);
    }
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        const TypeId type = entry.function->resultType();
        arrow::ArrowField field{entry.result_name, type, entry.function->resultMayBeNull(),
                                std::string(arrow::defaultArrowFormat(type)), false, ""};
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

struct LocalSink::Impl
{
    GroupBy::Impl& group_by;
    std::unique_ptr<LocalSinkState> local;
    HostInput::Scratch scratch;
    std::vector<ColumnView> core;

    void sink(std::span<const ColumnView> columns, size_t rows)
    {
        QueryContext& context = *group_by.context;
        MemoryTrackerScope memory(&context.memory());
        ProfileEventsThreadScope events(context.profileEvents());
        TaskTimer timer(group_by.op.partialRecorder());
        group_by.host.adapt(columns, rows, scratch, core);
        group_by.op.sink(*local, core, rows);
    }
};

LocalSink::LocalSink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LocalSink::~LocalSink()
{
    if (impl_ && impl_->local)
    {
        // An uncombined sink frees its tables here: charged to its query like their allocation.
        MemoryTrackerScope memory(&impl_->group_by.context->memory());
        impl_->local.reset();
    }
}
LocalSink::LocalSink(LocalSink&&) noexcept = default;
LocalSink& LocalSink::operator=(LocalSink&&) noexcept = default;

void LocalSink::sink(std::span<const ColumnView> columns, size_t rows)
{
    impl_->sink(columns, rows);
}

void LocalSink::sinkArrow(const ArrowArray& batch)
{
    const arrow::ImportedBatch imported = arrow::importBatch(batch, impl_->group_by.input_fields);
    impl_->sink(imported.columns, imported.rows);
}

void LocalSink::sinkArrowStream(ArrowArrayStream& stream)
{
    arrow::readArrowStream(
        stream,
        [&](const std::vector<arrow::ArrowField>& fields, const arrow::ImportedBatch& batch)
        {
            const std::vector<arrow::ArrowField>& expected = impl_->group_by.input_fields;
            for (size_t c = 0; c < expected.size() && c < fields.size(); ++c)
            {
                if (fields[c].type != expected[c].type || fields[c].name != expected[c].name)
                {
                    throw Exception(ErrorCode::kTypeMismatch,
                                    "column " + std::to_string(c) + " of the stream is '" +
                                        fields[c].name + "' " +
                                        std::string(typeName(fields[c].type)) +
                                        ", the plan's is '" + expected[c].name + "' " +
                                        std::string(typeName(expected[c].type)));
                }
            }
            impl_->sink(batch.columns, batch.rows);
        });
}

GroupBy::GroupBy(std::vector<Field> input, std::vector<std::string> keys,
                 std::vector<Aggregate> aggregates, GroupBySettings settings)
    : impl_(std::make_unique<Impl>(arrowFields(input), std::move(keys), aggregates, settings))
{
}

GroupBy::GroupBy(const ArrowSchema& input, std::vector<std::string> keys,
                 std::vector<Aggregate> aggregates, GroupBySettings settings)
    : impl_(std::make_unique<Impl>(arrow::importSchema(input), std::move(keys), aggregates,
                                   settings))
{
}

GroupBy::~GroupBy() = default;

LocalSink GroupBy::makeLocalSink()
{
    auto impl = std::make_unique<LocalSink::Impl>(LocalSink::Impl{*impl_, nullptr, {}, {}});
    MemoryTrackerScope memory(&impl_->context->memory());
    impl->local = impl_->op.makeLocal();
    return LocalSink(std::move(impl));
}

void GroupBy::combine(LocalSink&& sink)
{
    if (!sink.impl_ || &sink.impl_->group_by != impl_.get())
    {
        throw Exception(ErrorCode::kBadArguments, "a sink is combined into a GroupBy not its own");
    }
    impl_->op.combine(std::move(sink.impl_->local));
}

ResultStream GroupBy::finish(const TopN* top)
{
    bool first = false;
    std::call_once(impl_->finished, [&] { first = true; });
    if (!first)
    {
        throw Exception(ErrorCode::kBadArguments, "GroupBy::finish called twice");
    }
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
    std::vector<Block> fragments = impl_->op.finish(top_groups ? &*top_groups : nullptr);
    for (Block& fragment : fragments)
    {
        impl_->host.restoreNullKeys(fragment);
    }
    ResultStream stream;
    stream.impl_ = std::make_shared<ResultStream::Impl>(
        std::move(fragments), impl_->resultFields(), impl_->settings.result_batch_rows);
    return stream;
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
