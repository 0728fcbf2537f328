#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/columns/block.h"
#include "engine/storage/table_schema.h"

namespace granary::datagen
{

/// The OpenTelemetry Collector's ClickHouse exporter DDL for `otel_traces` (Map attributes),
/// with its codecs, skipping indexes, partitioning and TTL, as the exporter creates it.
extern const char* const kOtelTracesCreate;

/// How the four attribute columns are typed: the collector's Map(LowCardinality(String),
/// String), or Rotel's JSON mode (JSON; Array(JSON) in the Nested events and links), whose
/// values keep their OpenTelemetry types (integers Int64, strings String).
enum class AttributeEncoding
{
    kMap,
    kJson,
};

/// kOtelTracesCreate with the attribute columns in `encoding`.
std::string otelTracesCreate(AttributeEncoding encoding);

/// The schema otelTracesCreate(encoding) declares; its columns in the exporters' insert order.
const TableSchema& otelTracesSchema(AttributeEncoding encoding = AttributeEncoding::kMap);

/// Synthetic spans shaped like otel-loadgen's traces: traces of kSpansPerTrace spans of one
/// service (8 services over 50 pods, each with 5 resource attributes), operations cycling
/// through ten names, 4 span attributes, one `db-connect` event, long-tailed durations with
/// 1% slow spans (1-3 s), 2% errors, and a link to the previous trace on 5% of spans.
/// Rows [first_span, first_span + count) of the sequence `seed` defines: any split of the
/// sequence into calls gives the same rows.
Block generateSpans(uint64_t first_span, size_t count, uint64_t seed,
                    AttributeEncoding encoding = AttributeEncoding::kMap);

inline constexpr size_t kSpansPerTrace = 100;

}  // namespace granary::datagen
