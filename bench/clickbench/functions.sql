-- SPDX-License-Identifier: Apache-2.0
-- The aggregate function library over `hits` (`granary gen-hits`): -If and FILTER, -Distinct,
-- variance and covariance, argMin/argMax, bit functions, approximate distinct counts,
-- quantiles (one level and several) and topK. functions.duckdb.sql holds DuckDB's spelling of
-- each, in the same order, for
-- `granary clickbench --queries bench/clickbench/functions.sql --verify`. Approximate functions
-- are compared with the exact answer within the relative tolerance of their /* tolerance: X */
-- comment; floating-point statistics within 1e-6 (each engine sums in its own order).
SELECT countIf(IsMobile = 1), count(*) FILTER (WHERE IsRefresh = 1) FROM hits;
SELECT SearchEngineID, countIf(SearchPhrase <> '') AS c, sumIf(ResolutionWidth, IsMobile = 1) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT AdvEngineID, avgIf(ResolutionWidth, IsRefresh = 0), minIf(EventDate, IsMobile = 0), maxIf(EventTime, IsMobile = 0) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT RegionID, count(*) FILTER (WHERE TraficSourceID = 2) AS c FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 10;
SELECT CounterID, uniqExactIf(UserID, IsMobile = 1) AS u FROM hits GROUP BY CounterID ORDER BY u DESC, CounterID LIMIT 10;
SELECT sum(ResolutionWidth) FILTER (WHERE SearchPhrase LIKE '%google%'), count(*) FILTER (WHERE URL LIKE '%google%') FROM hits;
SELECT sumDistinct(AdvEngineID), avgDistinct(ResolutionWidth), countDistinct(RegionID) FROM hits;
SELECT SearchEngineID, sumDistinct(RegionID) AS s, avgDistinct(ResolutionWidth) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT minDistinct(URL), maxDistinct(Title) FROM hits;
SELECT AdvEngineID, sumDistinctIf(ResolutionWidth, IsMobile = 1) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT /* tolerance: 1e-06 */ varPop(ResolutionWidth), varPop(ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ SearchEngineID, varPop(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT /* tolerance: 1e-06 */ varSamp(ResolutionWidth), varSamp(ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ SearchEngineID, varSamp(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT /* tolerance: 1e-06 */ stddevPop(ResolutionWidth), stddevPop(ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ SearchEngineID, stddevPop(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT /* tolerance: 1e-06 */ stddevSamp(ResolutionWidth), stddevSamp(ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ SearchEngineID, stddevSamp(ResolutionWidth) AS v FROM hits GROUP BY SearchEngineID HAVING count(*) > 1 ORDER BY SearchEngineID;
SELECT /* tolerance: 1e-06 */ var_pop(UserID), variance(ResolutionWidth), stddev(ResolutionWidth) FROM hits;
SELECT /* tolerance: 1e-06 */ covarPop(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ AdvEngineID, covarPop(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT /* tolerance: 1e-06 */ covarSamp(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ AdvEngineID, covarSamp(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT /* tolerance: 1e-06 */ corr(ResolutionWidth, ResolutionHeight) FROM hits;
SELECT /* tolerance: 1e-06 */ AdvEngineID, corr(ResolutionWidth, ResolutionHeight) AS c FROM hits GROUP BY AdvEngineID HAVING count(*) > 10 ORDER BY AdvEngineID;
SELECT /* tolerance: 1e-06 */ corr(WindowClientWidth, ResolutionWidth), covar_samp(WindowClientHeight, ResolutionHeight) FROM hits WHERE IsMobile = 0;
SELECT /* tolerance: 1e-06 */ varSampIf(ResolutionWidth, IsMobile = 1), stddevPopIf(ResolutionWidth, IsMobile = 0) FROM hits;
SELECT argMin(UserID, WatchID), argMax(UserID, WatchID), argMax(URL, WatchID) FROM hits;
SELECT SearchEngineID, argMin(WatchID, WatchID) AS w, argMax(EventTime, WatchID) FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT CounterID, argMaxIf(Title, WatchID, IsMobile = 0) AS t FROM hits GROUP BY CounterID ORDER BY CounterID LIMIT 10;
SELECT groupBitAnd(ResolutionWidth), groupBitOr(ResolutionWidth), groupBitXor(UserID) FROM hits;
SELECT AdvEngineID, groupBitOr(RegionID), groupBitXor(WatchID) FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT sumWithOverflow(ResolutionWidth), sum(UserID % 1000000) FROM hits;
SELECT UserID, any(UserID), anyLast(UserID), anyHeavy(UserID) FROM hits GROUP BY UserID ORDER BY UserID LIMIT 10;
SELECT /* tolerance: 0.05 */ uniq(UserID), uniq(URL), uniqCombined(SearchPhrase) FROM hits;
SELECT /* tolerance: 0.05 */ RegionID, uniq(UserID) AS u FROM hits GROUP BY RegionID HAVING count(*) > 10000 ORDER BY RegionID;
SELECT /* tolerance: 0.05 */ SearchEngineID, uniqCombined(UserID), uniqCombined(15)(URL) FROM hits GROUP BY SearchEngineID HAVING count(*) > 10000 ORDER BY SearchEngineID;
SELECT /* tolerance: 0.05 */ uniqIf(UserID, IsMobile = 1), uniqCombinedIf(WatchID, IsRefresh = 0) FROM hits;
SELECT /* tolerance: 0.05 */ uniq(EventDate), uniq(ResolutionWidth), uniqCombined(ClientIP) FROM hits;
SELECT quantileExact(0.5)(ResolutionWidth), quantileExact(0.9)(ResolutionHeight), quantileExact(0)(UserID), quantileExact(1)(UserID) FROM hits;
SELECT SearchEngineID, quantileExact(0.5)(ResolutionWidth) AS m FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
SELECT /* tolerance: 0.05 */ quantile(0.5)(ResolutionWidth), quantile(0.9)(ResolutionHeight), median(WindowClientWidth) FROM hits;
SELECT /* tolerance: 0.05 */ quantileTDigest(0.5)(ResolutionWidth), quantileTDigest(0.99)(ResolutionHeight) FROM hits;
SELECT /* tolerance: 0.1 */ AdvEngineID, median(ResolutionWidth) AS m, quantileTDigest(0.5)(ResolutionHeight) FROM hits GROUP BY AdvEngineID HAVING count(*) > 1000 ORDER BY AdvEngineID;
SELECT /* tolerance: 0.05 */ quantileIf(0.5)(ResolutionWidth, IsMobile = 0), quantileExactIf(0.5)(ResolutionWidth, IsMobile = 0) FROM hits;
SELECT CounterID, quantileExact(0.5)(EventTime) AS t FROM hits GROUP BY CounterID ORDER BY CounterID LIMIT 20;
SELECT count(), sum(ResolutionWidth), avg(ResolutionWidth), min(URL), max(EventTime) FROM hits;
SELECT /* tolerance: 1e-06 */ RegionID, sum(IsRefresh), avg(ResolutionWidth), varPop(ResolutionWidth) AS v, uniqExact(UserID) FROM hits GROUP BY RegionID ORDER BY RegionID LIMIT 20;
SELECT /* tolerance: 1e-06 */ SearchPhrase, count(*) AS c, avg(ResolutionWidth), stddevPop(ResolutionWidth) FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10;
SELECT UserID, count(*) AS c, argMax(SearchPhrase, WatchID), countIf(IsRefresh = 1) FROM hits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10;
SELECT /* tolerance: 0.05 */ UserID, count(*) AS c, uniq(URL) FROM hits GROUP BY UserID ORDER BY c DESC, UserID LIMIT 10;
SELECT /* tolerance: 0.05 */ SearchPhrase, uniq(UserID) AS u FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY count(*) DESC, SearchPhrase LIMIT 10;
SELECT MobilePhoneModel, countIf(IsMobile = 1) AS c, avgIf(ResolutionWidth, IsMobile = 1) FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY c DESC, MobilePhoneModel LIMIT 10;
SELECT EventDate, count(*), sumDistinct(AdvEngineID), quantileExact(0.5)(ResolutionWidth) FROM hits GROUP BY EventDate ORDER BY EventDate;
SELECT /* tolerance: 1e-06 */ TraficSourceID, corr(ResolutionWidth, WindowClientWidth) AS r, covarPop(IsMobile, ResolutionWidth) FROM hits GROUP BY TraficSourceID ORDER BY TraficSourceID;
SELECT ClientIP, count(*) AS c, groupBitOr(IsRefresh), argMin(EventTime, WatchID) FROM hits GROUP BY ClientIP ORDER BY c DESC, ClientIP LIMIT 10;
SELECT /* tolerance: 0.05 */ extract(hour FROM EventTime) AS h, uniq(UserID), quantileTDigest(0.5)(ResolutionWidth) FROM hits GROUP BY h ORDER BY h;
SELECT /* tolerance: 1e-06 */ CASE WHEN SearchEngineID = 0 THEN 'direct' ELSE 'search' END AS source, varSamp(ResolutionWidth), countIf(IsMobile = 1) FROM hits GROUP BY source ORDER BY source;
SELECT /* tolerance: 1e-06 */ RegionID, AdvEngineID, sum(ResolutionWidth), avg(ResolutionWidth), stddevSamp(ResolutionWidth) AS s FROM hits GROUP BY RegionID, AdvEngineID HAVING count(*) > 100 ORDER BY RegionID, AdvEngineID LIMIT 20;
SELECT WatchID % 10 AS w, sumWithOverflow(UserID % 1000), groupBitXor(CounterID) FROM hits GROUP BY w ORDER BY w;
SELECT count(*) FILTER (WHERE ResolutionWidth > 1900), avg(ResolutionHeight) FILTER (WHERE ResolutionWidth > 1900), maxIf(URL, ResolutionWidth > 1900) FROM hits;
SELECT AdvEngineID, countIf(IsMobile = 1) FILTER (WHERE IsRefresh = 0) AS c FROM hits GROUP BY AdvEngineID ORDER BY AdvEngineID;
SELECT OS, avgDistinct(ResolutionWidth), countDistinct(UserID), uniqExact(UserID) FROM hits GROUP BY OS ORDER BY OS;
SELECT /* tolerance: 0.05 */ OS, quantile(0.5)(ResolutionWidth), uniqCombined(UserID) FROM hits GROUP BY OS HAVING count(*) > 10000 ORDER BY OS;
SELECT /* tolerance: 1e-06 */ UserAgent, varPop(ResolutionWidth) AS v, covarSamp(ResolutionWidth, ResolutionHeight) FROM hits GROUP BY UserAgent HAVING count(*) > 1000 ORDER BY UserAgent;
SELECT quantilesExact(0.1, 0.5, 0.9)(ResolutionWidth), quantilesExact(0, 1)(EventDate) FROM hits;
SELECT /* tolerance: 0.05 */ SearchEngineID, quantiles(0.1, 0.5, 0.9)(ResolutionWidth) AS q FROM hits GROUP BY SearchEngineID HAVING count(*) > 1000 ORDER BY SearchEngineID;
SELECT /* tolerance: 0.05 */ quantilesTDigest(0.5, 0.9, 0.99)(ResolutionHeight), quantilesIf(0.5, 0.9)(ResolutionWidth, IsMobile = 0) FROM hits;
SELECT topK(5, 1000)(RegionID), topK(2, 1000)(SearchPhrase) FROM hits;
SELECT SearchEngineID, topK(3, 1000)(RegionID) AS t FROM hits GROUP BY SearchEngineID ORDER BY SearchEngineID;
