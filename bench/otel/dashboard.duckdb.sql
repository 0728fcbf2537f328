-- SPDX-License-Identifier: Apache-2.0
-- DuckDB's spelling of dashboard.sql, query by query, over the same rows (`granary clickbench
-- --table otel_traces` copies the table: Map → MAP, Array → LIST, DateTime64(9) →
-- TIMESTAMP_NS). quantileExact(level)(x) is the element at 0-based position floor(level * n)
-- of the sorted values, which DuckDB's quantile_disc (position ceil(level * n) - 1) is not:
-- it is written as that element of list_sort(list(x)), as in bench/clickbench/functions.duckdb.sql.
SELECT ServiceName, date_trunc('minute', Timestamp) AS minute, count(*) AS spans FROM otel_traces WHERE Timestamp >= TIMESTAMP '2026-01-01 00:00:00' AND Timestamp < TIMESTAMP '2026-01-01 01:00:00' GROUP BY ServiceName, minute ORDER BY ServiceName, minute;
SELECT SpanName, list_sort(list(Duration))[least(CAST(floor(0.5 * count(Duration)) AS BIGINT), count(Duration) - 1) + 1] AS p50, list_sort(list(Duration))[least(CAST(floor(0.99 * count(Duration)) AS BIGINT), count(Duration) - 1) + 1] AS p99, count(*) AS spans FROM otel_traces GROUP BY SpanName ORDER BY SpanName;
SELECT ServiceName, count(*) FILTER (WHERE StatusCode = 'Error') AS errors, count(*) AS spans, count(*) FILTER (WHERE StatusCode = 'Error') / count(*) AS error_rate FROM otel_traces GROUP BY ServiceName ORDER BY error_rate DESC, ServiceName;
SELECT Timestamp, TraceId, SpanId, SpanName, Duration FROM otel_traces WHERE SpanAttributes['msg.start'] = '5000' ORDER BY Timestamp, SpanId LIMIT 100;
SELECT Timestamp, SpanId, ParentSpanId, SpanName, ServiceName, Duration, StatusCode FROM otel_traces WHERE TraceId = '425e0f42f255ed9b451eebf2f5980c75' ORDER BY Timestamp, SpanId;
SELECT ServiceName, SpanName, count(*) AS spans, avg(Duration) AS avg_duration, max(Duration) AS max_duration FROM otel_traces GROUP BY ServiceName, SpanName ORDER BY avg_duration DESC, ServiceName, SpanName LIMIT 10;
