-- SPDX-License-Identifier: Apache-2.0
-- DuckDB's spelling of functions.sql, query by query. Approximate functions are compared
-- with DuckDB's exact answers (count(DISTINCT), quantile_disc) within functions.sql's
-- tolerances. quantileExact(level)(x) is the element at 0-based position floor(level * n) of the
-- sorted values (the last for level 1), which DuckDB's quantile_disc (position
-- ceil(level * n) - 1) is not: it is written here as that element of list_sort(list(x)).
-- topK(N, 1000)(x) keeps N * 1000 counters: its answer is off by at most rows / (N * 1000) per
-- count, below the gaps between the leading counts of `hits`, so it is the exact top N (equal
-- counts by value), written here as a list of the first N groups by count.
-- Granary's SQL results have no NULL yet (the engine's do; SQL's Nullable is to come): a sum
-- over no kept row reads 0 there, as ClickHouse's sumIf does, hence coalesce(..., 0) below.
SELECT count(*) FILTER (WHERE IsMobile = 1), count(*) FILTER (WHERE IsRefresh = 1) FROM hits;
SELECT SearchEngineID, count(*) FILTER (WHERE SearchPhrase <> '') AS c, sum(ResolutionWidth) FILTER (WHERE IsMobile = 1) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT AdvEngineID, avg(ResolutionWidth) FILTER (WHERE IsRefresh = 0), min(EventDate) FILTER (WHERE IsMobile = 0), max(EventTime) FILTER (WHERE IsMobile = 0) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT RegionID, count(*) FILTER (WHERE TraficSourceID = 2) AS c FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10;
SELECT CounterID, count(DISTINCT UserID) FILTER (WHERE IsMobile = 1) AS u FROM hits GROUP BY CounterID ORDER BY u DESC, CounterID LIMIT 10;
SELECT coalesce(sum(ResolutionWidth) FILTER (WHERE SearchPhrase LIKE '%google%'), 0), count(*) FILTER (WHERE URL LIKE '%google%') FROM hits;
SELECT sum(DISTINCT AdvEngineID), avg(DISTINCT ResolutionWidth), count(DISTINCT RegionID) FROM hits;
SELECT SearchEngineID, sum(DISTINCT RegionID) AS s, avg(DISTINCT ResolutionWidth) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT min(DISTINCT URL), max(DISTINCT Title) FROM hits;
SELECT AdvEngineID, coalesce(sum(DISTINCT ResolutionWidth) FILTER (WHERE IsMobile = 1), 0) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT var_pop(ResolutionWidth), var_pop(ResolutionHeight) FROM hits;
SELECT SearchEngineID, var_pop(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT var_samp(ResolutionWidth), var_samp(ResolutionHeight) FROM hits;
SELECT SearchEngineID, var_samp(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT stddev_pop(ResolutionWidth), stddev_pop(ResolutionHeight) FROM hits;
SELECT SearchEngineID, stddev_pop(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT stddev_samp(ResolutionWidth), stddev_samp(ResolutionHeight) FROM hits;
SELECT SearchEngineID, stddev_samp(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT var_pop(UserID), variance(ResolutionWidth), stddev(ResolutionWidth) FROM hits;
SELECT covar_pop(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT AdvEngineID, covar_pop(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT covar_samp(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT AdvEngineID, covar_samp(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT corr(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT AdvEngineID, corr(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT corr(WindowClientWidth, ResolutionWidth), covar_samp(WindowClientHeight, ResolutionHeight) FROM hits WHERE IsMobile = 0;
SELECT var_samp(ResolutionWidth) FILTER (WHERE IsMobile = 1), stddev_pop(ResolutionWidth) FILTER (WHERE IsMobile = 0) FROM hits;
SELECT arg_min(UserID, WatchID), arg_max(UserID, WatchID), arg_max(URL, WatchID) FROM hits;
SELECT SearchEngineID, arg_min(WatchID, WatchID) AS w, arg_max(EventTime, WatchID) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT CounterID, arg_max(Title, WatchID) FILTER (WHERE IsMobile = 0) AS t FROM hits GROUP BY CounterID ORDER BY CounterID LIMIT 10;
SELECT bit_and(ResolutionWidth), bit_or(ResolutionWidth), bit_xor(UserID) FROM hits;
SELECT AdvEngineID, bit_or(RegionID), bit_xor(WatchID) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT sum(ResolutionWidth), sum(UserID % 1000000) FROM hits;
SELECT UserID, any_value(UserID), last(UserID), any_value(UserID) FROM hits GROUP BY UserID ORDER BY UserID LIMIT 10;
SELECT count(DISTINCT UserID), count(DISTINCT URL), count(DISTINCT SearchPhrase) FROM hits;
SELECT RegionID, count(DISTINCT UserID) AS u FROM hits GROUP BY RegionID HAVING count(*) > 10000 ORDER BY RegionID;
SELECT SearchEngineID, count(DISTINCT UserID), count(DISTINCT URL) FROM hits GROUP BY SearchEngineID HAVING count(*) > 10000 ORDER BY SearchEngineID;
SELECT count(DISTINCT UserID) FILTER (WHERE IsMobile = 1), count(DISTINCT WatchID) FILTER (WHERE IsRefresh = 0) FROM hits;
SELECT count(DISTINCT EventDate), count(DISTINCT ResolutionWidth), count(DISTINCT ClientIP) FROM hits;
SELECT list_sort(list(ResolutionWidth))[least(CAST(floor(0.5 * count(ResolutionWidth)) AS BIGINT), count(ResolutionWidth) - 1) + 1], list_sort(list(ResolutionHeight))[least(CAST(floor(0.9 * count(ResolutionHeight)) AS BIGINT), count(ResolutionHeight) - 1) + 1], list_sort(list(UserID))[least(CAST(floor(0.0 * count(UserID)) AS BIGINT), count(UserID) - 1) + 1], list_sort(list(UserID))[least(CAST(floor(1.0 * count(UserID)) AS BIGINT), count(UserID) - 1) + 1] FROM hits;
SELECT SearchEngineID, list_sort(list(ResolutionWidth))[least(CAST(floor(0.5 * count(ResolutionWidth)) AS BIGINT), count(ResolutionWidth) - 1) + 1] AS m FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT quantile_disc(ResolutionWidth, 0.5), quantile_disc(ResolutionHeight, 0.9), quantile_disc(WindowClientWidth, 0.5) FROM hits;
SELECT quantile_disc(ResolutionWidth, 0.5), quantile_disc(ResolutionHeight, 0.99) FROM hits;
SELECT AdvEngineID, quantile_disc(ResolutionWidth, 0.5) AS m, quantile_disc(ResolutionHeight, 0.5) FROM hits GROUP BY AdvEngineID HAVING count(*) > 1000 ORDER BY AdvEngineID;
SELECT quantile_disc(ResolutionWidth, 0.5) FILTER (WHERE IsMobile = 0), quantile_disc(ResolutionWidth, 0.5) FILTER (WHERE IsMobile = 0) FROM hits;
SELECT CounterID, list_sort(list(EventTime))[least(CAST(floor(0.5 * count(EventTime)) AS BIGINT), count(EventTime) - 1) + 1] AS t FROM hits GROUP BY CounterID ORDER BY CounterID LIMIT 20;
SELECT count(*), sum(ResolutionWidth), avg(ResolutionWidth), min(URL), max(EventTime) FROM hits;
SELECT RegionID, sum(IsRefresh), avg(ResolutionWidth), var_pop(ResolutionWidth) AS v, count(DISTINCT UserID) FROM hits GROUP BY RegionID ORDER BY RegionID LIMIT 20;
SELECT SearchPhrase, count(*) AS c, avg(ResolutionWidth), stddev_pop(ResolutionWidth) FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;
SELECT UserID, count(*) AS c, arg_max(SearchPhrase, WatchID), count(*) FILTER (WHERE IsRefresh = 1) FROM hits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10;
SELECT UserID, count(*) AS c, count(DISTINCT URL) FROM hits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10;
SELECT SearchPhrase, count(DISTINCT UserID) AS u FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY count(*) DESC, SearchPhrase LIMIT 10;
SELECT MobilePhoneModel, count(*) FILTER (WHERE IsMobile = 1) AS c, avg(ResolutionWidth) FILTER (WHERE IsMobile = 1) FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY c DESC, MobilePhoneModel LIMIT 10;
SELECT EventDate, count(*), sum(DISTINCT AdvEngineID), list_sort(list(ResolutionWidth))[least(CAST(floor(0.5 * count(ResolutionWidth)) AS BIGINT), count(ResolutionWidth) - 1) + 1] FROM hits GROUP BY EventDate ORDER BY EventDate;
SELECT TraficSourceID, corr(ResolutionWidth, WindowClientWidth) AS r, covar_pop(IsMobile, ResolutionWidth) FROM hits GROUP BY TraficSourceID ORDER BY TraficSourceID;
SELECT ClientIP, count(*) AS c, bit_or(IsRefresh), arg_min(EventTime, WatchID) FROM hits GROUP BY ClientIP ORDER BY c DESC, ClientIP LIMIT 10;
SELECT extract(hour FROM EventTime) AS h, count(DISTINCT UserID), quantile_disc(ResolutionWidth, 0.5) FROM hits GROUP BY h ORDER BY h;
SELECT CASE WHEN SearchEngineID = 0 THEN 'direct' ELSE 'search' END AS source, var_samp(ResolutionWidth), count(*) FILTER (WHERE IsMobile = 1) FROM hits GROUP BY source ORDER BY source;
SELECT RegionID, AdvEngineID, sum(ResolutionWidth), avg(ResolutionWidth), stddev_samp(ResolutionWidth) AS s FROM hits GROUP BY RegionID, AdvEngineID HAVING count(*) > 100 ORDER BY RegionID, AdvEngineID LIMIT 20;
SELECT WatchID % 10 AS w, sum(UserID % 1000), bit_xor(CounterID) FROM hits GROUP BY w ORDER BY w;
SELECT count(*) FILTER (WHERE ResolutionWidth > 1900), avg(ResolutionHeight) FILTER (WHERE ResolutionWidth > 1900), max(URL) FILTER (WHERE ResolutionWidth > 1900) FROM hits;
SELECT AdvEngineID, count(*) FILTER (WHERE IsMobile = 1 AND IsRefresh = 0) AS c FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT OS, avg(DISTINCT ResolutionWidth), count(DISTINCT UserID), count(DISTINCT UserID) FROM hits GROUP BY OS ORDER BY OS;
SELECT OS, quantile_disc(ResolutionWidth, 0.5), count(DISTINCT UserID) FROM hits GROUP BY OS HAVING count(*) > 10000 ORDER BY OS;
SELECT UserAgent, var_pop(ResolutionWidth) AS v, covar_samp(ResolutionWidth, ResolutionHeight) FROM hits GROUP BY UserAgent HAVING count(*) > 1000 ORDER BY UserAgent;
SELECT [s[least(CAST(floor(0.1 * n) AS BIGINT), n - 1) + 1], s[least(CAST(floor(0.5 * n) AS BIGINT), n - 1) + 1], s[least(CAST(floor(0.9 * n) AS BIGINT), n - 1) + 1]], [d[1], d[m]] FROM (SELECT list_sort(list(ResolutionWidth)) AS s, count(ResolutionWidth) AS n, list_sort(list(EventDate)) AS d, count(EventDate) AS m FROM hits);
SELECT SearchEngineID, quantile_cont(ResolutionWidth, [0.1, 0.5, 0.9]) AS q FROM hits GROUP BY SearchEngineID HAVING count(*) > 1000 ORDER BY SearchEngineID;
SELECT quantile_cont(ResolutionHeight, [0.5, 0.9, 0.99]), quantile_cont(ResolutionWidth, [0.5, 0.9]) FILTER (WHERE IsMobile = 0) FROM hits;
SELECT (SELECT list(RegionID ORDER BY c DESC, RegionID) FROM (SELECT RegionID, count(*) AS c FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 5)), (SELECT list(SearchPhrase ORDER BY c DESC, SearchPhrase) FROM (SELECT SearchPhrase, count(*) AS c FROM hits GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 2));
SELECT SearchEngineID, list(RegionID ORDER BY c DESC, RegionID)[1:3] AS t FROM (SELECT SearchEngineID, RegionID, count(*) AS c FROM hits GROUP BY SearchEngineID, RegionID) GROUP BY SearchEngineID ORDER BY SearchEngineID;
