-- SPDX-License-Identifier: Apache-2.0
-- Granary's own ClickBench-style suite over the `hits` table (`granary gen-hits`). It exercises
-- the features of the official queries and the pathologies of ../shared/seeds/: count(DISTINCT)
-- merged across many threads, a long list of sum(x + k), LIKE scans, string GROUP BY and top-N
-- with OFFSET. Written in the SQL that Granary and DuckDB both accept, so that
-- `granary clickbench --compare duckdb --verify` runs it on both unchanged. Ties in ORDER BY are
-- broken by a further key wherever the result would otherwise depend on the engine.
SELECT count(*) FROM hits WHERE IsMobile <> 0;
SELECT min(EventDate), max(EventDate), count(*) FROM hits WHERE CounterID <> 0;
SELECT sum(GoodEvent), avg(ResolutionHeight), max(ResolutionWidth) FROM hits;
SELECT avg(WatchID), min(UserID) FROM hits WHERE RegionID <> 0;
SELECT count(DISTINCT WatchID) FROM hits;
SELECT count(DISTINCT URL) FROM hits;
SELECT count(DISTINCT UserID), count(DISTINCT SearchPhrase) FROM hits WHERE AdvEngineID = 0;
SELECT OS, count(*) AS hits_count FROM hits GROUP BY OS ORDER BY hits_count DESC, OS LIMIT 20;
SELECT CounterID, count(DISTINCT UserID) AS visitors FROM hits GROUP BY CounterID ORDER BY visitors DESC, CounterID LIMIT 10;
SELECT RegionID, count(DISTINCT UserID) AS visitors, count(*) AS views FROM hits GROUP BY RegionID ORDER BY views DESC, RegionID LIMIT 10 OFFSET 5;
SELECT sum(ResolutionHeight + 1), sum(ResolutionHeight + 2), sum(ResolutionHeight + 3), sum(ResolutionHeight + 4), sum(ResolutionHeight + 5), sum(ResolutionHeight + 6), sum(ResolutionHeight + 7), sum(ResolutionHeight + 8), sum(ResolutionHeight + 9), sum(ResolutionHeight + 10), sum(ResolutionHeight + 11), sum(ResolutionHeight + 12), sum(ResolutionHeight + 13), sum(ResolutionHeight + 14), sum(ResolutionHeight + 15), sum(ResolutionHeight + 16), sum(ResolutionHeight + 17), sum(ResolutionHeight + 18), sum(ResolutionHeight + 19), sum(ResolutionHeight + 20), sum(ResolutionHeight + 21), sum(ResolutionHeight + 22), sum(ResolutionHeight + 23), sum(ResolutionHeight + 24), sum(ResolutionHeight + 25), sum(ResolutionHeight + 26), sum(ResolutionHeight + 27), sum(ResolutionHeight + 28), sum(ResolutionHeight + 29), sum(ResolutionHeight + 30), sum(ResolutionHeight + 31), sum(ResolutionHeight + 32) FROM hits;
SELECT SearchEngineID, sum(IsLink + 1), sum(IsDownload + 2), sum(IsNotBounce + 3), count(*) AS views FROM hits GROUP BY SearchEngineID ORDER BY views DESC, SearchEngineID LIMIT 10;
SELECT count(*) FROM hits WHERE Title LIKE '%news%';
SELECT count(*) FROM hits WHERE URL LIKE '%shop%' AND Referer NOT LIKE '%shop%';
SELECT SearchPhrase, count(*) AS views FROM hits WHERE URL LIKE '%search%' AND SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY views DESC, SearchPhrase LIMIT 10;
SELECT MobilePhoneModel, count(DISTINCT UserID) AS visitors FROM hits WHERE MobilePhoneModel <> '' GROUP BY MobilePhoneModel ORDER BY visitors DESC, MobilePhoneModel LIMIT 10;
SELECT SearchPhrase, min(URL), count(*) AS views FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY views DESC, SearchPhrase LIMIT 10;
SELECT Title, count(*) AS views FROM hits WHERE Title <> '' GROUP BY Title ORDER BY views DESC, Title LIMIT 10;
SELECT UserID, SearchPhrase, count(*) AS views FROM hits GROUP BY UserID, SearchPhrase ORDER BY views DESC, UserID, SearchPhrase LIMIT 10;
SELECT TraficSourceID, SearchEngineID, AdvEngineID, count(*) AS views FROM hits GROUP BY TraficSourceID, SearchEngineID, AdvEngineID ORDER BY views DESC, TraficSourceID, SearchEngineID, AdvEngineID LIMIT 10;
SELECT ClientIP, ClientIP + 1, count(*) AS views FROM hits GROUP BY ClientIP, ClientIP + 1 ORDER BY views DESC, ClientIP LIMIT 10;
SELECT URL, count(*) AS views FROM hits GROUP BY URL ORDER BY views DESC, URL LIMIT 10 OFFSET 100;
SELECT WatchID, count(*) AS views FROM hits GROUP BY WatchID ORDER BY views DESC, WatchID LIMIT 10 OFFSET 1000;
SELECT extract(hour FROM EventTime) AS hour_of_day, count(*) AS views FROM hits GROUP BY hour_of_day ORDER BY hour_of_day;
SELECT EventDate, count(*) AS views FROM hits WHERE EventDate >= '2013-07-10' AND EventDate <= '2013-07-20' GROUP BY EventDate ORDER BY EventDate;
SELECT CounterID, avg(ResolutionWidth) AS width, count(*) AS views FROM hits GROUP BY CounterID HAVING count(*) > 100 ORDER BY views DESC, CounterID LIMIT 10;
SELECT CASE WHEN SearchEngineID = 0 THEN 'direct' ELSE 'search' END AS source, count(*) AS views FROM hits GROUP BY source ORDER BY source;
SELECT WatchID, EventTime FROM hits WHERE TraficSourceID IN (1, 3, 5) ORDER BY EventTime DESC, WatchID LIMIT 10 OFFSET 10;
