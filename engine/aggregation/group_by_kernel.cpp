#include "engine/aggregation/group_by_kernel.h"

#include "engine/aggregation/distinct_value_buckets.h"
#include "engine/aggregation/key_methods.h"
#include "engine/aggregation/keyed_merge.h"
#include "engine/aggregation/no_key_merge.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

/// `settings` for `plan`'s partials: partitioning copies rows' argument columns into buckets,
/// which Array arguments (fArray's) cannot be, so such plans aggregate their rows in place.
AggregationSettings partialSettings(const GroupByPlan& plan, AggregationSettings settings)
{
    for (const AggregateLayout::Entry& entry : plan.layout->entries())
    {
        for (const size_t column : entry.argument_columns)
        {
            if (isNested(plan.input_columns[column].type.id))
            {
                settings.partition_high_cardinality = false;
            }
        }
    }
    return settings;
}

template <typename Method>
class KeyedKernel final : public GroupByKernel
{
public:
    KeyedKernel(const GroupByPlan& plan, const AggregationSettings& settings)
        : plan_(plan), settings_(partialSettings(plan, settings))
    {
    }
    std::unique_ptr<LocalSinkState> makeLocalState() const override
    {
        return std::make_unique<KeyedLocalState<Method>>(plan_, settings_);
    }
    std::vector<Block> mergeAndFinalize(std::span<const std::unique_ptr<LocalSinkState>> locals,
                                        QueryContext& context) const override
    {
        return KeyedMerge<Method>(plan_, settings_, context, locals).run();
    }

private:
    const GroupByPlan& plan_;
    const AggregationSettings settings_;
};

class NoKeyKernel final : public GroupByKernel
{
public:
    explicit NoKeyKernel(const GroupByPlan& plan) : plan_(plan) {}
    std::unique_ptr<LocalSinkState> makeLocalState() const override
    {
        return std::make_unique<NoKeyLocalState>(*plan_.layout);
    }
    std::vector<Block> mergeAndFinalize(std::span<const std::unique_ptr<LocalSinkState>> locals,
                                        QueryContext& context) const override
    {
        std::vector<Block> fragments;
        fragments.push_back(mergeWithoutKey(plan_, locals, context));
        return fragments;
    }

private:
    const GroupByPlan& plan_;
};

/// GROUP BY k with count(DISTINCT x) alone, x fixed-width: rows are routed by x and
/// distinct pairs counted per bucket, so no set is merged at all.
class ValueBucketsKernel final : public GroupByKernel
{
public:
    explicit ValueBucketsKernel(const GroupByPlan& plan) : plan_(plan) {}
    std::unique_ptr<LocalSinkState> makeLocalState() const override
    {
        const AggregateLayout::Entry& entry = plan_.layout->entries()[0];
        std::optional<size_t> mask;
        if (maskedDistinctCount(entry) != nullptr)
        {
            mask = entry.argument_columns.back();
        }
        return makeValueRouter(plan_.key_columns[0], entry.argument_columns[0], mask,
                               isString(plan_.key_types[0].id));
    }
    std::vector<Block> mergeAndFinalize(std::span<const std::unique_ptr<LocalSinkState>> locals,
                                        QueryContext& context) const override
    {
        std::vector<Block> fragments;
        fragments.push_back(
            countDistinctByValueBuckets(locals, plan_.key_types[0].id, plan_.key_names[0],
                                        plan_.layout->entries()[0].result_name, context));
        return fragments;
    }

private:
    const GroupByPlan& plan_;
};

template <typename Method>
std::unique_ptr<GroupByKernel> keyed(const GroupByPlan& plan, const AggregationSettings& settings)
{
    return std::make_unique<KeyedKernel<Method>>(plan, settings);
}

}  // namespace

std::unique_ptr<GroupByKernel> makeGroupByKernel(const GroupByPlan& plan,
                                                 const AggregationSettings& settings)
{
    if (settings.distinct.count_by_value_buckets && isKeyWithDistinctCount(plan, settings.distinct))
    {
        return std::make_unique<ValueBucketsKernel>(plan);
    }
    switch (chooseKeyMethod(plan.key_types))
    {
        case KeyMethodKind::kNone:
            return std::make_unique<NoKeyKernel>(plan);
        case KeyMethodKind::kFixed8:
            return keyed<FixedKeyMethod<uint8_t>>(plan, settings);
        case KeyMethodKind::kFixed16:
            return keyed<FixedKeyMethod<uint16_t>>(plan, settings);
        case KeyMethodKind::kNumber32:
            return keyed<NumberKeyMethod<uint32_t>>(plan, settings);
        case KeyMethodKind::kNumber64:
            return keyed<NumberKeyMethod<uint64_t>>(plan, settings);
        case KeyMethodKind::kPacked8:
            return keyed<PackedKeyMethod<uint64_t>>(plan, settings);
        case KeyMethodKind::kPacked16:
            return keyed<PackedKeyMethod<PackedKey16>>(plan, settings);
        case KeyMethodKind::kPacked32:
            return keyed<PackedKeyMethod<PackedKey32>>(plan, settings);
        case KeyMethodKind::kString:
            return keyed<StringKeyMethod>(plan, settings);
        case KeyMethodKind::kSerialized:
            return keyed<SerializedKeyMethod>(plan, settings);
    }
    throw Exception(ErrorCode::kLogicalError, "unknown key method");
}

}  // namespace granary
