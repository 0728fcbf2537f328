// Bool, DateTime64, Array, Map and LowCardinality end to end: RowBinary known bytes, the text
// forms, and rows inserted through a Session reading back byte-identical from memory and from
// disk (raw and compressed parts, after a reopen). The oracle is a naive encoder of reference
// rows written here from ClickHouse's documented layout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "engine/common/exception.h"
#include "engine/common/var_uint.h"
#include "engine/formats/output_format.h"
#include "engine/formats/value_text.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "tests/ingest/ingest_test_support.h"

namespace granary
{
namespace
{

using ingest::testing::hexBytes;

constexpr std::string_view kColumns =
    "(b Bool, t DateTime64(9), a Array(UInt32), m Map(LowCardinality(String), String), "
    "e Array(Map(String, String)), lc LowCardinality(String))";

/// true, 2024-01-01 00:00:00.123456789, [1, 2], {'a': 'x'}, [{'k': 'v'}, {}], 'svc'.
const std::string kKnownRow =
    hexBytes("01 15cdc0081710a617 02 01000000 02000000 01 0161 0178 02 01 016b 0176 00 03 737663");

struct ReferenceRow
{
    bool b;
    int64_t t;
    std::vector<uint32_t> a;
    std::vector<std::pair<std::string, std::string>> m;
    std::vector<std::vector<std::pair<std::string, std::string>>> e;
    std::string lc;
};

void encodeString(const std::string& value, std::string& out)
{
    appendVarUInt(value.size(), out);
    out += value;
}

void encodeMap(const std::vector<std::pair<std::string, std::string>>& map, std::string& out)
{
    appendVarUInt(map.size(), out);
    for (const auto& [key, value] : map)
    {
        encodeString(key, out);
        encodeString(value, out);
    }
}

std::string encode(const std::vector<ReferenceRow>& rows)
{
    std::string out;
    for (const ReferenceRow& row : rows)
    {
        out += static_cast<char>(row.b);
        out.append(reinterpret_cast<const char*>(&row.t), sizeof(row.t));
        appendVarUInt(row.a.size(), out);
        for (const uint32_t value : row.a)
        {
            out.append(reinterpret_cast<const char*>(&value), sizeof(value));
        }
        encodeMap(row.m, out);
        appendVarUInt(row.e.size(), out);
        for (const auto& map : row.e)
        {
            encodeMap(map, out);
        }
        encodeString(row.lc, out);
    }
    return out;
}

std::vector<ReferenceRow> randomRows(size_t count)
{
    std::mt19937_64 random(7);
    auto text = [&](size_t max_length)
    {
        std::string value(random() % (max_length + 1), ' ');
        for (char& c : value)
        {
            c = static_cast<char>('a' + random() % 26);
        }
        return value;
    };
    auto map = [&]
    {
        std::vector<std::pair<std::string, std::string>> entries(random() % 4);
        for (auto& [key, value] : entries)
        {
            key = "key" + std::to_string(random() % 8);
            value = text(12);
        }
        return entries;
    };
    std::vector<ReferenceRow> rows(count);
    for (ReferenceRow& row : rows)
    {
        row.b = random() % 2 == 1;
        row.t = static_cast<int64_t>(random() >> 2) - (int64_t{1} << 60);
        row.a.resize(random() % 5);
        for (uint32_t& value : row.a)
        {
            value = static_cast<uint32_t>(random());
        }
        row.m = map();
        row.e.resize(random() % 3);
        for (auto& entry : row.e)
        {
            entry = map();
        }
        row.lc = "service-" + std::to_string(random() % 5);
    }
    return rows;
}

std::string selectAll(Session& session, OutputFormat format)
{
    std::ostringstream out;
    writeBlock(session.execute("SELECT * FROM t").block, format, out);
    return out.str();
}

size_t insertRowBinary(Session& session, std::string_view bytes)
{
    QueryOptions options;
    options.insert_bytes = bytes;
    return session.execute("INSERT INTO t FORMAT RowBinary", options).rows_written;
}

TEST(NestedTypes, KnownRowInEveryOutputFormat)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t " + std::string(kColumns) + " ORDER BY tuple()");
    EXPECT_EQ(insertRowBinary(session, kKnownRow), 1u);
    EXPECT_EQ(selectAll(session, OutputFormat::kRowBinary), kKnownRow);
    EXPECT_EQ(selectAll(session, OutputFormat::kTSV),
              "true\t2024-01-01 00:00:00.123456789\t[1,2]\t{'a':'x'}\t[{'k':'v'},{}]\tsvc\n");
    EXPECT_EQ(selectAll(session, OutputFormat::kJSONEachRow),
              "{\"b\":true,\"t\":\"2024-01-01 00:00:00.123456789\",\"a\":[1,2],\"m\":{\"a\":\"x\"},"
              "\"e\":[{\"k\":\"v\"},{}],\"lc\":\"svc\"}\n");
    std::ostringstream header;
    writeBlock(session.execute("SELECT * FROM t").block, OutputFormat::kRowBinaryWithNamesAndTypes,
               header);
    EXPECT_NE(header.str().find("Array(Map(String, String))"), std::string::npos);
    const Block described = session.execute("DESCRIBE TABLE t").block;
    EXPECT_EQ(described.columns[1].column.stringAt(3), "Map(LowCardinality(String), String)");
}

TEST(NestedTypes, DateTime64TextAtEveryPrecisionAndBeforeTheEpoch)
{
    Session session(Database::openInMemory());
    session.execute(
        "CREATE TABLE t (t0 DateTime64(0), t3 DateTime64(3), t6 DateTime64(6)) "
        "ORDER BY tuple()");
    // 1 s, -1 ms (1969-12-31 23:59:59.999), 1.5 s.
    std::string bytes;
    for (const int64_t ticks : {int64_t{1}, int64_t{-1}, int64_t{1500000}})
    {
        bytes.append(reinterpret_cast<const char*>(&ticks), sizeof(ticks));
    }
    EXPECT_EQ(insertRowBinary(session, bytes), 1u);
    EXPECT_EQ(selectAll(session, OutputFormat::kTSV),
              "1970-01-01 00:00:01\t1969-12-31 23:59:59.999\t1970-01-01 00:00:01.500000\n");
}

TEST(NestedTypes, DateTime64MeetsCalendarFunctionsAndOtherTimes)
{
    Session session(Database::openInMemory());
    session.execute(
        "CREATE TABLE t (t DateTime64(9), d DateTime, ms DateTime64(3)) "
        "ORDER BY tuple()");
    // Spans 1704067200.5 s apart by 7.3 s steps, d a whole second, ms the same instant in ms.
    constexpr int64_t kStart = int64_t{1704067200} * 1000000000 + 500000000;
    std::string bytes;
    size_t at_or_after = 0;
    size_t after_d = 0;
    std::map<uint32_t, uint64_t> per_minute;
    for (int64_t i = 0; i < 1000; ++i)
    {
        const int64_t ticks = kStart + i * 7300000000;
        const auto d = static_cast<uint32_t>(1704067200 + i * 7);
        const int64_t ms = ticks / 1000000;
        bytes.append(reinterpret_cast<const char*>(&ticks), sizeof(ticks));
        bytes.append(reinterpret_cast<const char*>(&d), sizeof(d));
        bytes.append(reinterpret_cast<const char*>(&ms), sizeof(ms));
        at_or_after += ticks >= int64_t{1704070800} * 1000000000 ? 1 : 0;
        after_d += ticks > int64_t{d} * 1000000000 ? 1 : 0;
        per_minute[static_cast<uint32_t>(ticks / 1000000000 / 60 * 60)] += 1;
    }
    insertRowBinary(session, bytes);
    auto count = [&](const std::string& where)
    {
        return session.execute("SELECT count() FROM t WHERE " + where)
            .block.columns[0]
            .column.valueAt<uint64_t>(0);
    };
    EXPECT_EQ(count("t >= '2024-01-01 01:00:00'"), at_or_after);
    EXPECT_EQ(count("'2024-01-01 01:00:00' <= t"), at_or_after);
    EXPECT_EQ(count("t > d"), after_d);
    EXPECT_EQ(count("t = ms"), 1000u);
    EXPECT_EQ(count("toDate(t) = '2024-01-01'"), count("t < '2024-01-02 00:00:00'"));
    std::string expected;
    for (const auto& [minute, spans] : per_minute)
    {
        std::string time;
        formatDateTime(minute, time);
        expected += time + "\t" + std::to_string(spans) + "\n";
    }
    std::ostringstream out;
    writeBlock(session
                   .execute("SELECT toStartOfMinute(t) AS m, count() FROM t GROUP BY m "
                            "ORDER BY m")
                   .block,
               OutputFormat::kTSV, out);
    EXPECT_EQ(out.str(), expected);
    EXPECT_THROW(session.execute("SELECT t + 1 FROM t"), Exception);
    EXPECT_THROW(session.execute("SELECT t = 'x' FROM t"), Exception);
}

TEST(NestedTypes, DateTime64SortKeyPrunesByTicksAndAggregatesKeepThePrecision)
{
    // Sorted by t, 100,000 rows 1 ms apart from 2024-01-01: granules' bounds are ticks of
    // 10^-9 s, which a time literal must be compared in (not in seconds).
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (t DateTime64(9), k UInt8) ORDER BY t");
    constexpr int64_t kStart = int64_t{1704067200} * 1000000000;
    constexpr int64_t kRows = 100000;
    std::string bytes;
    for (int64_t i = 0; i < kRows; ++i)
    {
        const int64_t ticks = kStart + i * 1000000;
        bytes.append(reinterpret_cast<const char*>(&ticks), sizeof(ticks));
        bytes += static_cast<char>(i % 3);
    }
    insertRowBinary(session, bytes);
    auto text = [&](const std::string& query)
    {
        std::ostringstream out;
        writeBlock(session.execute(query).block, OutputFormat::kTSV, out);
        return out.str();
    };
    // 1 minute in: rows 0..59999 are before it.
    EXPECT_EQ(text("SELECT count() FROM t WHERE t < '2024-01-01 00:01:00'"), "60000\n");
    EXPECT_EQ(text("SELECT count() FROM t WHERE t >= '2024-01-01 00:01:00'"), "40000\n");
    EXPECT_EQ(text("SELECT count() FROM t WHERE t = '2024-01-01 00:01:00.5'"), "1\n");
    EXPECT_EQ(text("SELECT min(t), max(t) FROM t"),
              "2024-01-01 00:00:00.000000000\t2024-01-01 00:01:39.999000000\n");
    EXPECT_EQ(text("SELECT k, max(t) FROM t GROUP BY k ORDER BY k"),
              "0\t2024-01-01 00:01:39.999000000\n1\t2024-01-01 00:01:39.997000000\n"
              "2\t2024-01-01 00:01:39.998000000\n");
}

TEST(NestedTypes, TextInputOfBoolAndDateTime64AndClearRefusalsForArrays)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (b Bool, t DateTime64(3), a Array(UInt8)) ORDER BY tuple()");
    auto insert = [&](std::string_view format, std::string_view data)
    {
        QueryOptions options;
        options.insert_bytes = data;
        return session.execute("INSERT INTO t (b, t) FORMAT " + std::string(format), options)
            .rows_written;
    };
    EXPECT_EQ(insert("TSV", "true\t2024-01-01 00:00:00.5\n0\t1704067200123\n"), 2u);
    EXPECT_EQ(insert("JSONEachRow", "{\"b\":false,\"t\":\"2024-01-01 00:00:01\"}\n"), 1u);
    EXPECT_EQ(selectAll(session, OutputFormat::kTSV),
              "true\t2024-01-01 00:00:00.500\t[]\nfalse\t2024-01-01 00:00:00.123\t[]\n"
              "false\t2024-01-01 00:00:01.000\t[]\n");
    for (const auto& [format, data] : std::vector<std::pair<std::string, std::string>>{
             {"TSV", "maybe\t2024-01-01 00:00:00\n"},
             {"TSV", "true\t2024-01-01 00:00:00.1234\n"},
             {"JSONEachRow", "{\"b\":true,\"t\":\"2024-01-01 00:00:00.12x\"}\n"}})
    {
        EXPECT_THROW(insert(format, data), Exception) << data;
    }
    QueryOptions options;
    const std::string array_tsv = "[1,2]\n";
    options.insert_bytes = array_tsv;
    try
    {
        session.execute("INSERT INTO t (a) FORMAT TSV", options);
        ADD_FAILURE() << "an Array from TSV was inserted";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kNotImplemented) << error.what();
    }
    const std::string array_json = "{\"a\":[1,2]}\n";
    options.insert_bytes = array_json;
    EXPECT_THROW(session.execute("INSERT INTO t (a) FORMAT JSONEachRow", options), Exception);
    EXPECT_EQ(session.execute("SELECT count() FROM t").block.columns[0].column.valueAt<uint64_t>(0),
              3u);
}

class NestedTypesStored : public ::testing::TestWithParam<std::string_view>
{
};

TEST_P(NestedTypesStored, RandomRowsReadBackByteIdenticalAfterAReopen)
{
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("granary_nested_" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    const std::vector<ReferenceRow> rows = randomRows(20000);
    const std::string bytes = encode(rows);
    {
        Session session(Database::open(folder));
        session.execute("CREATE TABLE t " + std::string(kColumns) +
                        " ORDER BY tuple() SETTINGS storage_format = '" + std::string(GetParam()) +
                        "'");
        // Two inserts: the second part's offsets start past the first's.
        const std::string first = encode({rows.begin(), rows.begin() + 10000});
        EXPECT_EQ(insertRowBinary(session, first), 10000u);
        EXPECT_EQ(insertRowBinary(session, std::string_view(bytes).substr(first.size())), 10000u);
        EXPECT_EQ(selectAll(session, OutputFormat::kRowBinary), bytes);
    }
    Session reopened(Database::open(folder));
    EXPECT_EQ(selectAll(reopened, OutputFormat::kRowBinary), bytes);
    std::filesystem::remove_all(folder);
}

TEST_P(NestedTypesStored, RowsSortedByAKeyAcrossBlocksKeepTheirArraysAndMaps)
{
    const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                         ("granary_nested_sorted_" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    // Two inserts joining one async batch: one part sorted across both inserts' blocks.
    std::vector<ReferenceRow> rows = randomRows(30000);
    const std::string first = encode({rows.begin(), rows.begin() + 20000});
    const std::string second = encode({rows.begin() + 20000, rows.end()});
    std::stable_sort(rows.begin(), rows.end(),
                     [](const ReferenceRow& a, const ReferenceRow& b) { return a.lc < b.lc; });
    {
        Session session(Database::open(folder));
        session.execute("CREATE TABLE t " + std::string(kColumns) +
                        " ORDER BY lc SETTINGS storage_format = '" + std::string(GetParam()) + "'");
        QueryOptions options;
        options.settings = {{"async_insert", "1"},
                            {"wait_for_async_insert", "0"},
                            {"async_insert_busy_timeout_ms", "500"}};
        options.insert_bytes = first;
        session.execute("INSERT INTO t FORMAT RowBinary", options);
        options.settings["wait_for_async_insert"] = "1";
        options.insert_bytes = second;
        session.execute("INSERT INTO t FORMAT RowBinary", options);
        EXPECT_EQ(session.database().table("t")->snapshot()->parts.size(), 1u);
        EXPECT_TRUE(selectAll(session, OutputFormat::kRowBinary) == encode(rows));
    }
    std::filesystem::remove_all(folder);
}

INSTANTIATE_TEST_SUITE_P(Formats, NestedTypesStored, ::testing::Values("raw", "compressed"));

/// The naive answers of the collection functions for one reference row, as TSV cells.
std::string naiveFunctions(const ReferenceRow& row)
{
    auto lookup = [&](const std::string& key) -> std::string
    {
        for (const auto& [k, v] : row.m)
        {
            if (k == key)
            {
                return v;
            }
        }
        return "";
    };
    auto element = [&](int64_t position) -> std::string
    {
        const auto size = static_cast<int64_t>(row.a.size());
        if (position >= 1 && position <= size)
        {
            return std::to_string(row.a[position - 1]);
        }
        if (position < 0 && -position <= size)
        {
            return std::to_string(row.a[size + position]);
        }
        return "0";
    };
    std::string keys = "[";
    for (const auto& [k, v] : row.m)
    {
        keys += (keys.size() > 1 ? ",'" : "'") + k + "'";
    }
    keys += "]";
    bool contains = false;
    for (const auto& [k, v] : row.m)
    {
        contains |= k == "key2";
    }
    const std::string first_a = row.a.empty() ? "0" : std::to_string(row.a.front());
    return lookup("key1") + "\t" + std::to_string(row.m.size()) + "\t" + keys + "\t" +
           (row.a.empty() ? "0" : "1") + "\t" + (contains ? "1" : "0") + "\t" + element(1) + "\t" +
           element(-1) + "\t" + element(10) + "\t" + std::to_string(row.a.size()) + "\t" +
           std::to_string(row.e.size()) + "\n";
}

/// The code `query` fails with; kOk where it succeeds.
ErrorCode errorCodeOf(Session& session, const std::string& query)
{
    try
    {
        session.execute(query);
    }
    catch (const Exception& error)
    {
        return error.code();
    }
    return ErrorCode::kOk;
}

TEST(NestedTypes, CollectionFunctionsMatchTheNaiveAnswers)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t " + std::string(kColumns) + " ORDER BY tuple()");
    const std::vector<ReferenceRow> rows = randomRows(3000);
    insertRowBinary(session, encode(rows));
    std::string expected;
    size_t matching = 0;
    for (const ReferenceRow& row : rows)
    {
        expected += naiveFunctions(row);
        // The first entry of a key is the one m['key'] finds.
        const auto first_key1 = std::find_if(
            row.m.begin(), row.m.end(), [](const auto& entry) { return entry.first == "key1"; });
        matching += first_key1 != row.m.end() && first_key1->second.size() > 6 ? 1 : 0;
    }
    // has(a, a[1]) is 1 exactly when the array is not empty.
    std::ostringstream out;
    writeBlock(session
                   .execute("SELECT m['key1'], length(m), mapKeys(m), has(a, a[1]), "
                            "mapContains(m, 'key2'), a[1], a[-1], a[10], length(a), length(e) "
                            "FROM t")
                   .block,
               OutputFormat::kTSV, out);
    EXPECT_EQ(out.str(), expected);
    const Block counted =
        session.execute("SELECT count() FROM t WHERE length(m['key1']) > 6").block;
    EXPECT_EQ(counted.columns[0].column.valueAt<uint64_t>(0), matching);

    for (const std::string query :
         {"SELECT has(m, 'a') FROM t", "SELECT a['x'] FROM t", "SELECT mapKeys(a) FROM t",
          "SELECT m[1] FROM t", "SELECT has(a, 'x') FROM t", "SELECT mapContains(m) FROM t"})
    {
        const ErrorCode code = errorCodeOf(session, query);
        EXPECT_TRUE(code == ErrorCode::kTypeMismatch || code == ErrorCode::kBadArguments)
            << query << ": " << static_cast<int>(code);
    }
    // Operations over whole arrays and maps that Granary does not have: a clear error each.
    for (const std::string query :
         {"SELECT m = m FROM t", "SELECT a + 1 FROM t", "SELECT count() FROM t GROUP BY m",
          "SELECT * FROM t ORDER BY a", "SELECT min(a) FROM t", "SELECT count() FROM t WHERE a",
          "SELECT a IN (1, 2) FROM t", "SELECT m LIKE 'x' FROM t", "SELECT if(b, a, a) FROM t",
          "SELECT count(DISTINCT m) FROM t", "SELECT toDate(m) FROM t"})
    {
        try
        {
            session.execute(query);
            ADD_FAILURE() << query;
        }
        catch (const Exception& error)
        {
            EXPECT_NE(error.code(), ErrorCode::kLogicalError) << query << ": " << error.what();
        }
        catch (const std::exception& error)
        {
            ADD_FAILURE() << query << " threw a non-Granary error: " << error.what();
        }
    }
}

/// `values` as TSV prints an Array: [1,2] or ['x','y'].
template <typename T>
std::string arrayText(const std::vector<T>& values)
{
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i)
    {
        text += i == 0 ? "" : ",";
        if constexpr (std::is_same_v<T, std::string>)
        {
            text += "'" + values[i] + "'";
        }
        else
        {
            text += std::to_string(values[i]);
        }
    }
    return text + "]";
}

TEST(NestedTypes, ArrayReorderingMatchesTheNaiveAnswers)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t " + std::string(kColumns) + " ORDER BY tuple()");
    const std::vector<ReferenceRow> rows = randomRows(3000);
    insertRowBinary(session, encode(rows));
    std::string expected;
    for (const ReferenceRow& row : rows)
    {
        std::vector<uint32_t> sorted = row.a;
        std::sort(sorted.begin(), sorted.end());
        std::vector<uint32_t> descending(sorted.rbegin(), sorted.rend());
        std::vector<std::string> keys;
        std::vector<std::string> distinct;
        for (const auto& [key, value] : row.m)
        {
            keys.push_back(key);
            if (std::find(distinct.begin(), distinct.end(), key) == distinct.end())
            {
                distinct.push_back(key);  // Each key where it first occurs.
            }
        }
        std::vector<std::string> reversed(keys.rbegin(), keys.rend());
        std::vector<std::string> sorted_keys = keys;
        std::sort(sorted_keys.begin(), sorted_keys.end());
        expected += arrayText(sorted) + "\t" + arrayText(descending) + "\t" + arrayText(distinct) +
                    "\t" + arrayText(reversed) + "\t" + arrayText(sorted_keys) + "\n";
    }
    std::ostringstream out;
    writeBlock(session
                   .execute("SELECT arraySort(a), arrayReverseSort(a), arrayDistinct(mapKeys(m)), "
                            "arrayReverse(mapKeys(m)), arraySort(mapKeys(m)) FROM t")
                   .block,
               OutputFormat::kTSV, out);
    EXPECT_EQ(out.str(), expected);
    for (const std::string query : {"SELECT arraySort(b) FROM t", "SELECT arraySort(e) FROM t",
                                    "SELECT arrayReverse(m) FROM t"})
    {
        EXPECT_EQ(errorCodeOf(session, query), ErrorCode::kTypeMismatch) << query;
    }
}

TEST(NestedTypes, MalformedValuesAreRefusedAndInsertNothing)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t " + std::string(kColumns) + " ORDER BY tuple()");
    std::string bad_bool = kKnownRow;
    bad_bool[0] = 2;
    std::string huge_array = kKnownRow.substr(0, 9) + hexBytes("80 80 80 80 80 20");  // 2^40
    std::string array_past_end = kKnownRow.substr(0, 9) + hexBytes("7f 01000000");
    const std::vector<std::pair<std::string, ErrorCode>> cases = {
        {bad_bool, ErrorCode::kIncorrectData},
        {huge_array, ErrorCode::kTooLargeArraySize},
        {array_past_end, ErrorCode::kCannotReadAllData},
        {kKnownRow + kKnownRow.substr(0, kKnownRow.size() - 2), ErrorCode::kCannotReadAllData},
    };
    for (const auto& [bytes, code] : cases)
    {
        try
        {
            insertRowBinary(session, bytes);
            ADD_FAILURE() << "inserted";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), code) << error.what();
            EXPECT_NE(std::string(error.what()).find("column '"), std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(selectAll(session, OutputFormat::kRowBinary), "");
}

}  // namespace
}  // namespace granary
