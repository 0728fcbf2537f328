-- SPDX-License-Identifier: Apache-2.0
-- Six dashboard queries over `otel_traces` (the OpenTelemetry Collector's ClickHouse exporter
-- DDL; `granary gen-spans --data-dir DIR --rows N`), as observability dashboards ask them:
-- spans per service per minute, p50/p99 duration per operation, error rate per service, spans
-- carrying one attribute value, one trace by its TraceId, the slowest operations.
-- dashboard.duckdb.sql holds DuckDB's spelling, in the same order, for
--   granary clickbench --data DIR --table otel_traces --queries bench/otel/dashboard.sql --verify
-- The TraceId is trace 4242's under gen-spans' default seed; the time window covers the data.
SELECT ServiceName, toStartOfInterval(Timestamp, INTERVAL 1 MINUTE) AS minute, count() AS spans FROM otel_traces WHERE Timestamp >= '2026-01-01 00:00:00' AND Timestamp < '2026-01-01 01:00:00' GROUP BY ServiceName, minute ORDER BY ServiceName, minute;
SELECT SpanName, quantileExact(0.5)(Duration) AS p50, quantileExact(0.99)(Duration) AS p99, count() AS spans FROM otel_traces GROUP BY SpanName ORDER BY SpanName;
SELECT ServiceName, countIf(StatusCode = 'Error') AS errors, count() AS spans, countIf(StatusCode = 'Error') / count() AS error_rate FROM otel_traces GROUP BY ServiceName ORDER BY error_rate DESC, ServiceName;
SELECT Timestamp, TraceId, SpanId, SpanName, Duration FROM otel_traces WHERE SpanAttributes['msg.start'] = '5000' ORDER BY Timestamp, SpanId LIMIT 100;
SELECT Timestamp, SpanId, ParentSpanId, SpanName, ServiceName, Duration, StatusCode FROM otel_traces WHERE TraceId = '425e0f42f255ed9b451eebf2f5980c75' ORDER BY Timestamp, SpanId;
SELECT ServiceName, SpanName, count() AS spans, avg(Duration) AS avg_duration, max(Duration) AS max_duration FROM otel_traces GROUP BY ServiceName, SpanName ORDER BY avg_duration DESC, ServiceName, SpanName LIMIT 10;
