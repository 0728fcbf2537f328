// Bool, DateTime64, Array, Map and LowCardinality end to end: RowBinary known bytes, the text
// forms, and rows inserted through a Session reading back byte-identical from memory and from
// disk (raw and compressed parts, after a reopen). The oracle is a naive encoder of reference
// rows written here from ClickHouse's documented layout.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>
#include <unistd.h>

#include "engine/common/exception.h"
#include "engine/common/var_uint.h"
#include "engine/formats/output_format.h"
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
const std::string kKnownRow = hexBytes(
    "01 15cdc0081710a617 02 01000000 02000000 01 0161 0178 02 01 016b 0176 00 03 737663");

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
    writeBlock(session.execute("SELECT * FROM t").block,
               OutputFormat::kRowBinaryWithNamesAndTypes, header);
    EXPECT_NE(header.str().find("Array(Map(String, String))"), std::string::npos);
    const Block described = session.execute("DESCRIBE TABLE t").block;
    EXPECT_EQ(described.columns[1].column.stringAt(3), "Map(LowCardinality(String), String)");
}

TEST(NestedTypes, DateTime64TextAtEveryPrecisionAndBeforeTheEpoch)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (t0 DateTime64(0), t3 DateTime64(3), t6 DateTime64(6)) "
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

class NestedTypesStored : public ::testing::TestWithParam<std::string_view>
{
};

TEST_P(NestedTypesStored, RandomRowsReadBackByteIdenticalAfterAReopen)
{
    const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                         ("granary_nested_" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    const std::vector<ReferenceRow> rows = randomRows(20000);
    const std::string bytes = encode(rows);
    {
        Session session(Database::open(folder));
        session.execute("CREATE TABLE t " + std::string(kColumns) +
                        " ORDER BY tuple() SETTINGS storage_format = '" +
                        std::string(GetParam()) + "'");
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

INSTANTIATE_TEST_SUITE_P(Formats, NestedTypesStored, ::testing::Values("raw", "compressed"));

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
