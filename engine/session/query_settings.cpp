#include "engine/session/query_settings.h"

#include <charconv>
#include <string_view>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

size_t parseCount(std::string_view name, std::string_view value)
{
    size_t result = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), result);
    if (error != std::errc() || end != value.data() + value.size())
    {
        throw Exception(ErrorCode::kBadArguments, "setting " + std::string(name) +
                                                      " takes an unsigned integer, not '" +
                                                      std::string(value) + "'");
    }
    return result;
}

bool parseFlag(std::string_view name, std::string_view value)
{
    if (value == "1" || value == "true")
    {
        return true;
    }
    if (value == "0" || value == "false")
    {
        return false;
    }
    throw Exception(
        ErrorCode::kBadArguments,
        "setting " + std::string(name) + " takes 0 or 1, not '" + std::string(value) + "'");
}

}  // namespace

void applySettings(const std::map<std::string, std::string, std::less<>>& values,
                   QuerySettings& settings)
{
    AggregationSettings& aggregation = settings.select.aggregation;
    for (const auto& [name, value] : values)
    {
        if (name == "max_threads")
        {
            settings.max_threads = parseCount(name, value);
        }
        else if (name == "max_memory_usage")
        {
            settings.max_memory_usage = parseCount(name, value);
        }
        else if (name == "async_insert")
        {
            settings.async_insert = parseFlag(name, value);
        }
        else if (name == "wait_for_async_insert")
        {
            settings.wait_for_async_insert = parseFlag(name, value);
        }
        else if (name == "async_insert_busy_timeout_ms")
        {
            settings.async_insert_limits.busy_timeout =
                std::chrono::milliseconds(parseCount(name, value));
        }
        else if (name == "input_format_binary_read_json_as_string")
        {
            settings.binary_json_as_string = parseFlag(name, value);
        }
        else if (name == "async_insert_max_data_size")
        {
            settings.async_insert_limits.max_bytes = parseCount(name, value);
        }
        else if (name == "optimize_arithmetic_operations_in_aggregate_functions")
        {
            settings.select.analysis.rewrite_sum_of_column_and_constant = parseFlag(name, value);
        }
        else if (name == "optimize_group_by_constant_keys")
        {
            settings.select.analysis.eliminate_constant_group_keys = parseFlag(name, value);
        }
        else if (name == "optimize_group_by_function_keys")
        {
            settings.select.analysis.eliminate_group_keys_of_keys = parseFlag(name, value);
        }
        else if (name == "optimize_aggregate_filters_to_where")
        {
            settings.select.analysis.aggregate_filters_to_where = parseFlag(name, value);
        }
        else if (name == "query_plan_optimize_lazy_materialization")
        {
            settings.select.analysis.late_materialization = parseFlag(name, value);
        }
        else if (name == "query_plan_max_limit_for_lazy_materialization")
        {
            settings.select.analysis.late_materialization_max_rows = parseCount(name, value);
        }
        else if (name == "optimize_min_max_from_sort_key_bounds")
        {
            settings.select.analysis.metadata_aggregation.min_max_from_sort_key_bounds =
                parseFlag(name, value);
        }
        else if (name == "optimize_trivial_count_query")
        {
            settings.select.analysis.metadata_aggregation.count_from_part_rows =
                parseFlag(name, value);
        }
        else if (name == "use_query_condition_cache")
        {
            settings.use_query_condition_cache = parseFlag(name, value);
        }
        else if (name == "use_uncompressed_cache")
        {
            settings.use_uncompressed_cache = parseFlag(name, value);
        }
        else if (name == "group_by_two_level_threshold")
        {
            aggregation.group_by_two_level_threshold = parseCount(name, value);
        }
        else if (name == "group_by_two_level_threshold_bytes")
        {
            aggregation.group_by_two_level_threshold_bytes = parseCount(name, value);
        }
        else if (name == "sole_worker_single_level_rows")
        {
            aggregation.sole_worker_single_level_rows = parseCount(name, value);
        }
        else if (name == "sole_worker_single_level_max_groups")
        {
            aggregation.sole_worker_single_level_max_groups = parseCount(name, value);
        }
        else if (name == "string_key_value_buckets_rows")
        {
            aggregation.string_key_value_buckets_rows = parseCount(name, value);
        }
        else if (name == "partition_new_keys_rows")
        {
            aggregation.partition_new_keys_rows = parseCount(name, value);
        }
        else if (name == "partition_high_cardinality")
        {
            aggregation.partition_high_cardinality = parseFlag(name, value);
        }
        else if (name == "group_by_limit_to_any_groups")
        {
            aggregation.limit_to_any_groups = parseFlag(name, value);
        }
        else if (name == "deterministic_morsels")
        {
            aggregation.deterministic_morsels = parseFlag(name, value);
        }
        else
        {
            throw Exception(ErrorCode::kUnknownSetting, "unknown setting " + name);
        }
    }
}

}  // namespace granary
