#include "engine/datagen/otel_spans.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include "engine/common/var_uint.h"
#include "engine/datagen/random.h"
#include "engine/session/create_table.h"
#include "engine/sql/parser.h"

namespace granary::datagen
{

const char* const kOtelTracesCreate =
    "CREATE TABLE IF NOT EXISTS otel_traces ("
    "Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)), TraceId String CODEC(ZSTD(1)), "
    "SpanId String CODEC(ZSTD(1)), ParentSpanId String CODEC(ZSTD(1)), "
    "TraceState String CODEC(ZSTD(1)), SpanName LowCardinality(String) CODEC(ZSTD(1)), "
    "SpanKind LowCardinality(String) CODEC(ZSTD(1)), "
    "ServiceName LowCardinality(String) CODEC(ZSTD(1)), "
    "ResourceAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)), "
    "ScopeName String CODEC(ZSTD(1)), ScopeVersion String CODEC(ZSTD(1)), "
    "SpanAttributes Map(LowCardinality(String), String) CODEC(ZSTD(1)), "
    "Duration UInt64 CODEC(ZSTD(1)), StatusCode LowCardinality(String) CODEC(ZSTD(1)), "
    "StatusMessage String CODEC(ZSTD(1)), "
    "Events Nested (Timestamp DateTime64(9), Name LowCardinality(String), "
    "Attributes Map(LowCardinality(String), String)) CODEC(ZSTD(1)), "
    "Links Nested (TraceId String, SpanId String, TraceState String, "
    "Attributes Map(LowCardinality(String), String)) CODEC(ZSTD(1)), "
    "INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1, "
    "INDEX idx_res_attr_key mapKeys(ResourceAttributes) TYPE bloom_filter(0.01) GRANULARITY 1, "
    "INDEX idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1, "
    "INDEX idx_duration Duration TYPE minmax GRANULARITY 1"
    ") ENGINE = MergeTree PARTITION BY toDate(Timestamp) "
    "ORDER BY (ServiceName, SpanName, toDateTime(Timestamp)) "
    "TTL toDateTime(Timestamp) + toIntervalDay(180) "
    "SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1";

std::string otelTracesCreate(AttributeEncoding encoding)
{
    std::string create = kOtelTracesCreate;
    if (encoding == AttributeEncoding::kJson)
    {
        const std::string_view map = "Map(LowCardinality(String), String)";
        for (size_t at = create.find(map); at != std::string::npos; at = create.find(map, at))
        {
            create.replace(at, map.size(), "JSON");
        }
    }
    return create;
}

const TableSchema& otelTracesSchema(AttributeEncoding encoding)
{
    static const auto parse = [](AttributeEncoding of)
    {
        return tableSchemaOf(
            std::get<sql::CreateTableStatement>(sql::parseStatement(otelTracesCreate(of))));
    };
    static const TableSchema map_schema = parse(AttributeEncoding::kMap);
    static const TableSchema json_schema = parse(AttributeEncoding::kJson);
    return encoding == AttributeEncoding::kMap ? map_schema : json_schema;
}

namespace
{

/// 2026-01-01 00:00:00 UTC in nanoseconds: where the generated traffic starts.
constexpr int64_t kStartNanoseconds = int64_t{1767225600} * 1000000000;
/// A trace starts every millisecond; its spans are 10 ms apart.
constexpr int64_t kTraceSpacingNanoseconds = 1000000;
constexpr int64_t kSpanSpacingNanoseconds = 10000000;
constexpr size_t kPods = 50;
constexpr size_t kServices = 8;
constexpr size_t kHosts = 4;
/// Every 1000 spans share a message batch (msg.start), as otel-loadgen's workers do.
constexpr uint64_t kMessageBatch = 1000;

constexpr std::array<std::string_view, 10> kOperations = {
    "http_request",   "database_query",  "cache_get",     "service_call",    "file_read",
    "authentication", "message_publish", "queue_consume", "template_render", "json_parse"};
constexpr std::array<std::string_view, 3> kKinds = {"Server", "Client", "Internal"};

/// Column positions in kOtelTracesCreate's order.
enum Field : size_t
{
    kTimestamp,
    kTraceId,
    kSpanId,
    kParentSpanId,
    kTraceState,
    kSpanName,
    kSpanKind,
    kServiceName,
    kResourceAttributes,
    kScopeName,
    kScopeVersion,
    kSpanAttributes,
    kDuration,
    kStatusCode,
    kStatusMessage,
    kEventsTimestamp,
    kEventsName,
    kEventsAttributes,
    kLinksTraceId,
    kLinksSpanId,
    kLinksTraceState,
    kLinksAttributes,
};

std::string traceIdOf(uint64_t trace, uint64_t seed)
{
    Random random(seed ^ (trace * 0x9E3779B97F4A7C15ULL));
    return fmt::format("{:016x}{:016x}", random.next(), random.next());
}

std::string spanIdOf(uint64_t span, uint64_t seed)
{
    Random random(~seed ^ (span * 0xD1B54A32D192ED03ULL));
    return fmt::format("{:016x}", random.next());
}

/// One attribute into a Map (the value's text) or a JSON column (the value tagged, as Rotel
/// sends OpenTelemetry's typed values: String 0x15, Int64 0x0A).
void appendAttribute(Column& attributes, std::string_view key, std::string_view value)
{
    attributes.child(0).appendString(key);
    if (attributes.type() == TypeId::Map)
    {
        attributes.child(1).appendString(value);
        return;
    }
    std::string tagged(1, '\x15');
    appendVarUInt(value.size(), tagged);
    tagged += value;
    attributes.child(1).appendString(tagged);
}

void appendAttribute(Column& attributes, std::string_view key, int64_t value)
{
    if (attributes.type() == TypeId::Map)
    {
        appendAttribute(attributes, key, std::to_string(value));
        return;
    }
    attributes.child(0).appendString(key);
    std::string tagged(1, '\x0a');
    tagged.append(reinterpret_cast<const char*>(&value), sizeof(value));
    attributes.child(1).appendString(tagged);
}

/// Durations: log-normal around 1 ms (most spans 50 µs to 20 ms), 1% slow ones of 1-3 s.
uint64_t durationOf(Random& random)
{
    if (random.chance(0.01))
    {
        return random.between(1000000000, 3000000000);
    }
    const double normal =
        std::sqrt(-2.0 * std::log(1.0 - random.unit())) * std::cos(2.0 * M_PI * random.unit());
    const double nanoseconds = std::exp(std::log(1.0e6) + 1.2 * normal);
    return static_cast<uint64_t>(std::clamp(nanoseconds, 5.0e4, 2.0e7));
}

/// One span's rows, column by column; `column(field)` is the block's column.
class SpanWriter
{
public:
    SpanWriter(Block& block, uint64_t seed) : block_(block), seed_(seed) {}

    void write(uint64_t span)
    {
        const uint64_t trace = span / kSpansPerTrace;
        const uint64_t position = span % kSpansPerTrace;
        const uint64_t pod = trace % kPods;
        const std::string service = fmt::format("loadtest-{}", pod % kServices);
        Random random(seed_ * 0x2545F4914F6CDD1DULL + span);
        const int64_t start = kStartNanoseconds +
                              static_cast<int64_t>(trace) * kTraceSpacingNanoseconds +
                              static_cast<int64_t>(position) * kSpanSpacingNanoseconds;
        column(kTimestamp).append<int64_t>(start);
        column(kTraceId).appendString(traceIdOf(trace, seed_));
        column(kSpanId).appendString(spanIdOf(span, seed_));
        column(kParentSpanId).appendString(position == 0 ? "" : spanIdOf(span - 1, seed_));
        column(kTraceState).appendString("active");
        column(kSpanName).appendString(kOperations[position % kOperations.size()]);
        column(kSpanKind).appendString(position == 0 ? kKinds[0] : kKinds[random.below(3)]);
        column(kServiceName).appendString(service);
        writeResource(service, pod);
        column(kScopeName).appendString("otlp_worker");
        column(kScopeVersion).appendString("1.2.3");
        writeSpanAttributes(span, position);
        column(kDuration).append<uint64_t>(durationOf(random));
        const bool error = random.chance(0.02);
        column(kStatusCode).appendString(error ? "Error" : "Unset");
        column(kStatusMessage).appendString(error ? "upstream timed out" : "");
        writeEvent(start);
        writeLinks(span, trace > 0 && random.chance(0.05));
    }

private:
    Column& column(Field field) { return block_.columns[field].column; }

    void writeResource(const std::string& service, uint64_t pod)
    {
        Column& resource = column(kResourceAttributes);
        appendAttribute(resource, "service.name", service);
        appendAttribute(resource, "service.instance.id", std::to_string(pod));
        appendAttribute(resource, "k8s.pod.name", fmt::format("pod-{}", pod));
        appendAttribute(resource, "host.name", fmt::format("host-{}", pod % kHosts));
        appendAttribute(resource, "generator.id", "gen-1");
        resource.closeNestedRow();
    }

    void writeSpanAttributes(uint64_t span, uint64_t position)
    {
        const uint64_t message = span + 1;
        Column& attributes = column(kSpanAttributes);
        appendAttribute(attributes, "index", static_cast<int64_t>(position));
        appendAttribute(attributes, "msg.start",
                        static_cast<int64_t>(message - message % kMessageBatch));
        appendAttribute(attributes, "msg.len", static_cast<int64_t>(kMessageBatch));
        appendAttribute(attributes, "msg.id", static_cast<int64_t>(message));
        attributes.closeNestedRow();
    }

    /// One `db-connect` event 5 ms into the span, without attributes.
    void writeEvent(int64_t start)
    {
        column(kEventsTimestamp).child(0).append<int64_t>(start + 5000000);
        column(kEventsTimestamp).closeNestedRow();
        column(kEventsName).child(0).appendString("db-connect");
        column(kEventsName).closeNestedRow();
        column(kEventsAttributes).child(0).closeNestedRow();
        column(kEventsAttributes).closeNestedRow();
    }

    /// A link to the same position in the previous trace, or none.
    void writeLinks(uint64_t span, bool linked)
    {
        if (linked)
        {
            const uint64_t trace = span / kSpansPerTrace;
            column(kLinksTraceId).child(0).appendString(traceIdOf(trace - 1, seed_));
            column(kLinksSpanId).child(0).appendString(spanIdOf(span - kSpansPerTrace, seed_));
            column(kLinksTraceState).child(0).appendString("active");
            Column& link_attributes = column(kLinksAttributes).child(0);
            appendAttribute(link_attributes, "link.kind", "follows_from");
            link_attributes.closeNestedRow();
        }
        for (const Field links : {kLinksTraceId, kLinksSpanId, kLinksTraceState, kLinksAttributes})
        {
            column(links).closeNestedRow();
        }
    }

    Block& block_;
    uint64_t seed_;
};

}  // namespace

Block generateSpans(uint64_t first_span, size_t count, uint64_t seed, AttributeEncoding encoding)
{
    Block block = otelTracesSchema(encoding).emptyBlock();
    SpanWriter writer(block, seed);
    for (uint64_t span = first_span; span < first_span + count; ++span)
    {
        writer.write(span);
    }
    return block;
}

}  // namespace granary::datagen
