// The JSON type end to end: ClickHouse's binary JSON (paths with Dynamic-tagged values, typed
// paths untagged) and JSONEachRow objects in, JSON text, RowBinary and `column.path` out, from
// memory and from disk. Oracles: the byte example of ClickHouse's documentation (the seed's
// {"a":42,"b":"dog","c":98} with `a Int64` typed), Rotel's tags, and a naive encoder and
// renderer of random objects written here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <variant>

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

/// The documentation's example, typed path `a Int64` first, then b String, c Int64 tagged.
const std::string kKnownObject =
    hexBytes("03 01 61 2a00000000000000 01 62 15 03 646f67 01 63 0a 6200000000000000");

std::string run(Session& session, const std::string& query, OutputFormat format)
{
    std::ostringstream out;
    writeBlock(session.execute(query).block, format, out);
    return out.str();
}

size_t insert(Session& session, const std::string& format, std::string_view bytes)
{
    QueryOptions options;
    options.insert_bytes = bytes;
    return session.execute("INSERT INTO t FORMAT " + format, options).rows_written;
}

uint64_t rowCount(Session& session)
{
    return session.execute("SELECT count() FROM t").block.columns[0].column.valueAt<uint64_t>(0);
}

/// The error code a statement throws, or 0.
ErrorCode errorOf(const std::function<void()>& statement)
{
    try
    {
        statement();
    }
    catch (const Exception& error)
    {
        return error.code();
    }
    return ErrorCode{};
}

TEST(JsonType, DocumentationExampleWithATypedPath)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (j JSON(a Int64)) ORDER BY tuple()");
    EXPECT_EQ(insert(session, "RowBinary", kKnownObject), 1u);
    EXPECT_EQ(run(session, "SELECT j FROM t", OutputFormat::kJSONEachRow),
              "{\"j\":{\"a\":42,\"b\":\"dog\",\"c\":98}}\n");
    EXPECT_EQ(run(session, "SELECT j.a, j.b, j.c, j.missing FROM t", OutputFormat::kTSV),
              "42\tdog\t98\t\n");
    // The typed path reads as its type (Int64: arithmetic applies); dynamic paths as text.
    EXPECT_EQ(run(session, "SELECT j.a * 2, getSubcolumn(j, 'a', 'Int64') + 1 FROM t",
                  OutputFormat::kTSV),
              "84\t43\n");
    EXPECT_EQ(run(session, "SELECT j.a, sum(j.a), count() FROM t GROUP BY j.a", OutputFormat::kTSV),
              "42\t42\t1\n");
    EXPECT_EQ(errorOf([&] { session.execute("SELECT j.c * 2 FROM t"); }), ErrorCode::kTypeMismatch);
    // Out, every path is tagged (the column's type reads back as plain JSON): a is Int64 0x0A.
    EXPECT_EQ(
        run(session, "SELECT j FROM t", OutputFormat::kRowBinary),
        hexBytes("03 01 61 0a 2a00000000000000 01 62 15 03 646f67 01 63 0a 6200000000000000"));
    const Block described = session.execute("DESCRIBE TABLE t").block;
    EXPECT_EQ(described.columns[1].column.stringAt(0), "JSON(a Int64)");
}

TEST(JsonType, RotelTagsArraysAndKeyValueLists)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (id UInt8, j JSON) ORDER BY tuple()");
    // arr: Array(Dynamic(32)) [Int64 1, String "x", Nothing]; kv: Map(String, Dynamic(32))
    // {"k": Bool true, "f": Float64 1.5}; n: a NULL (dropped).
    const std::string row = hexBytes(
        "07 03"
        " 03 617272 1e2b20 03 0a 0100000000000000 15 01 78 00"
        " 02 6b76 27152b20 02 01 6b 2d 01 01 66 0e 000000000000f83f"
        " 01 6e 00");
    EXPECT_EQ(insert(session, "RowBinary", row), 1u);
    EXPECT_EQ(run(session, "SELECT j FROM t", OutputFormat::kJSONEachRow),
              "{\"j\":{\"arr\":[1,\"x\",null],\"kv\":{\"k\":true,\"f\":1.5}}}\n");
    EXPECT_EQ(run(session, "SELECT j.arr, j.kv FROM t", OutputFormat::kTSV),
              "[1,\\'x\\',NULL]\t{\\'k\\':true,\\'f\\':1.5}\n");  // TSV escapes quotes.
}

TEST(JsonType, ArraysOfJsonAsRotelSendsEventAttributes)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (a Array(JSON)) ORDER BY tuple()");
    EXPECT_EQ(insert(session, "RowBinary", hexBytes("02 01 01 6b 15 01 76 00  00")), 2u);
    EXPECT_EQ(run(session, "SELECT a FROM t", OutputFormat::kJSONEachRow),
              "{\"a\":[{\"k\":\"v\"},{}]}\n{\"a\":[]}\n");
    EXPECT_EQ(run(session, "SELECT a FROM t", OutputFormat::kRowBinary),
              hexBytes("02 01 01 6b 15 01 76 00  00"));
}

TEST(JsonType, JsonAsStringSettingReadsTheValuesAsJsonText)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (id UInt8, j JSON, a Array(JSON)) ORDER BY tuple()");
    const auto text = [](std::string_view json)
    {
        std::string bytes;
        appendVarUInt(json.size(), bytes);
        return bytes + std::string(json);
    };
    // Rotel's JSON-as-string mode: each JSON value a String of JSON text.
    const std::string rows = "\x01" + text("{\"a\":{\"b\":1},\"c\":\"x\"}") + "\x01" +
                             text("{\"k\":[1,true]}") + "\x02" + text("null") +
                             std::string(1, '\0');
    QueryOptions options;
    options.insert_bytes = rows;
    options.settings["input_format_binary_read_json_as_string"] = "1";
    EXPECT_EQ(session.execute("INSERT INTO t FORMAT RowBinary", options).rows_written, 2u);
    EXPECT_EQ(run(session, "SELECT id, j, a FROM t", OutputFormat::kJSONEachRow),
              "{\"id\":1,\"j\":{\"a\":{\"b\":1},\"c\":\"x\"},\"a\":[{\"k\":[1,true]}]}\n"
              "{\"id\":2,\"j\":{},\"a\":[]}\n");
    // The same bytes without the setting are binary JSON gone wrong: refused, nothing kept.
    options.settings.clear();
    EXPECT_NE(errorOf([&] { session.execute("INSERT INTO t FORMAT RowBinary", options); }),
              ErrorCode{});
    options.settings["input_format_binary_read_json_as_string"] = "1";
    const std::string bad = "\x03" + text("{\"a\":") + std::string(1, '\0');
    options.insert_bytes = bad;
    EXPECT_EQ(errorOf([&] { session.execute("INSERT INTO t FORMAT RowBinary", options); }),
              ErrorCode::kCannotParseInput);
    EXPECT_EQ(rowCount(session), 2u);
}

TEST(JsonType, JsonEachRowObjectsFlattenNestAndKeepTheirTypes)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (j JSON(n.count UInt32, SKIP secret)) ORDER BY tuple()");
    const std::string lines =
        "{\"j\":{\"a\":{\"b\":1,\"c\":\"x\"},\"d\":[1,2.5,null,{\"e\":true}],\"n\":{\"count\":7},"
        "\"secret\":{\"k\":1},\"z\":null}}\n"
        "{\"j\":{\"big\":18446744073709551615,\"neg\":-3}}\n"
        "{\"j\":null}\n";
    EXPECT_EQ(insert(session, "JSONEachRow", lines), 3u);
    EXPECT_EQ(run(session, "SELECT j FROM t", OutputFormat::kJSONEachRow),
              "{\"j\":{\"a\":{\"b\":1,\"c\":\"x\"},\"d\":[1,2.5,null,{\"e\":true}],\"n\":{"
              "\"count\":7}}}\n"
              "{\"j\":{\"big\":18446744073709551615,\"neg\":-3}}\n"
              "{\"j\":{}}\n");
    // The typed path is stored as its type: UInt32 (code 0x03), 7.
    const std::string binary = run(session, "SELECT j FROM t LIMIT 1", OutputFormat::kRowBinary);
    EXPECT_NE(binary.find(hexBytes("07 6e2e636f756e74 03 07000000")), std::string::npos);
    // n.count is typed UInt32: rows without it read 0.
    EXPECT_EQ(run(session, "SELECT j.a.b, j.n.count, j.big FROM t", OutputFormat::kTSV),
              "1\t7\t\n\t0\t18446744073709551615\n\t0\t\n");
    EXPECT_EQ(run(session, "SELECT count() FROM t WHERE j.a.c = 'x'", OutputFormat::kTSV), "1\n");
    EXPECT_EQ(
        run(session, "SELECT j.a.c AS c, count() FROM t GROUP BY c ORDER BY c", OutputFormat::kTSV),
        "\t2\nx\t1\n");
}

/// A random flat object: dotted paths to Int64, String, Float64 or Bool values.
using Value = std::variant<int64_t, std::string, double, bool>;
using Object = std::map<std::string, Value>;

std::vector<Object> randomObjects(size_t count)
{
    std::mt19937_64 random(11);
    const std::vector<std::string> paths = {"a", "b.c", "b.d", "e.f.g", "e.h", "i"};
    std::vector<Object> objects(count);
    for (Object& object : objects)
    {
        for (const std::string& path : paths)
        {
            switch (random() % 5)
            {
                case 0:
                    object[path] = static_cast<int64_t>(random() % 2001) - 1000;
                    break;
                case 1:
                    object[path] = "s" + std::to_string(random() % 100);
                    break;
                case 2:
                    object[path] = static_cast<double>(random() % 1000) + 0.25;
                    break;
                case 3:
                    object[path] = random() % 2 == 1;
                    break;
                default:
                    break;  // absent
            }
        }
    }
    return objects;
}

std::string encodeRowBinary(const std::vector<Object>& objects)
{
    std::string out;
    for (const Object& object : objects)
    {
        appendVarUInt(object.size(), out);
        for (const auto& [path, value] : object)
        {
            appendVarUInt(path.size(), out);
            out += path;
            std::visit(
                [&](const auto& v)
                {
                    using V = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<V, std::string>)
                    {
                        out += '\x15';
                        appendVarUInt(v.size(), out);
                        out += v;
                    }
                    else
                    {
                        out += std::is_same_v<V, int64_t>  ? '\x0a'
                               : std::is_same_v<V, double> ? '\x0e'
                                                           : '\x2d';
                        out.append(reinterpret_cast<const char*>(&v), sizeof(v));
                    }
                },
                value);
        }
    }
    return out;
}

std::string valueText(const Value& value, bool json)
{
    return std::visit(
        [&](const auto& v) -> std::string
        {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>)
            {
                return json ? "\"" + v + "\"" : v;
            }
            else if constexpr (std::is_same_v<V, bool>)
            {
                return v ? "true" : "false";
            }
            else if constexpr (std::is_same_v<V, double>)
            {
                std::ostringstream text;
                text << v;
                return text.str();
            }
            else
            {
                return std::to_string(v);
            }
        },
        value);
}

/// The object nested at the dots, keys in order: the paths above never make a path both a
/// leaf and a prefix, so a recursive walk over a tree is the whole rendering.
std::string renderJson(const Object& object)
{
    struct Node
    {
        std::map<std::string, Node> children;
        const Value* leaf = nullptr;
    };
    Node root;
    for (const auto& [path, value] : object)
    {
        Node* node = &root;
        size_t begin = 0;
        for (size_t dot = path.find('.');; dot = path.find('.', begin))
        {
            node = &node->children[path.substr(begin, dot - begin)];
            if (dot == std::string::npos)
            {
                break;
            }
            begin = dot + 1;
        }
        node->leaf = &value;
    }
    const std::function<std::string(const Node&)> render = [&](const Node& node)
    {
        if (node.leaf)
        {
            return valueText(*node.leaf, true);
        }
        std::string text = "{";
        for (const auto& [key, child] : node.children)
        {
            text += (text.size() > 1 ? ",\"" : "\"") + key + "\":" + render(child);
        }
        return text + "}";
    };
    return render(root);
}

TEST(JsonType, RandomObjectsFromRowBinaryAndJsonEachRowAgreeInMemoryAndOnDisk)
{
    const std::vector<Object> objects = randomObjects(3000);
    std::string expected_json;
    std::string expected_paths;
    std::string json_lines;
    for (const Object& object : objects)
    {
        const std::string rendered = renderJson(object);
        expected_json += "{\"j\":" + rendered + "}\n";
        json_lines += "{\"j\":" + rendered + "}\n";
        const auto path = [&](const std::string& name)
        {
            const auto found = object.find(name);
            return found == object.end() ? std::string() : valueText(found->second, false);
        };
        expected_paths += path("b.c") + "\t" + path("e.f.g") + "\n";
    }
    const std::filesystem::path directory =
        std::filesystem::temp_directory_path() / ("granary-json-" + std::to_string(getpid()));
    std::filesystem::remove_all(directory);
    {
        Session session(Database::open(directory));
        session.execute("CREATE TABLE t (j JSON) ORDER BY tuple()");
        EXPECT_EQ(insert(session, "RowBinary", encodeRowBinary(objects)), objects.size());
        EXPECT_EQ(run(session, "SELECT j FROM t", OutputFormat::kJSONEachRow), expected_json);
        EXPECT_EQ(run(session, "SELECT j.b.c, j.e.f.g FROM t", OutputFormat::kTSV), expected_paths);
        session.execute("CREATE TABLE u (j JSON) ORDER BY tuple()");
        QueryOptions options;
        options.insert_bytes = json_lines;
        session.execute("INSERT INTO u FORMAT JSONEachRow", options);
        EXPECT_EQ(run(session, "SELECT j FROM u", OutputFormat::kJSONEachRow), expected_json);
    }
    Session reopened(Database::open(directory));
    EXPECT_EQ(run(reopened, "SELECT j FROM t", OutputFormat::kJSONEachRow), expected_json);
    EXPECT_EQ(run(reopened, "SELECT j.b.c, j.e.f.g FROM t", OutputFormat::kTSV), expected_paths);
    std::filesystem::remove_all(directory);
}

TEST(JsonType, BadInputIsAClearErrorAndInsertsNothing)
{
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (id UInt8, j JSON) ORDER BY tuple()");
    const std::string good = hexBytes("01 01 01 61 0a 0100000000000000");
    struct Case
    {
        std::string name;
        std::string bytes;
        ErrorCode code;
        std::string message;
    };
    std::string many_paths = hexBytes("02");
    appendVarUInt(100'001, many_paths);
    std::string deep = hexBytes("03 01 01 61");
    deep.append(40, '\x1e');  // Array(Array(... 40 levels
    deep += hexBytes("0a 00");
    const std::vector<Case> cases = {
        {"unknown tag", hexBytes("02 01 01 61 55 00"), ErrorCode::kIncorrectData,
         "Unknown type code: 0x55"},
        {"unsupported tag", hexBytes("02 01 01 61 05 00"), ErrorCode::kNotImplemented, "UInt128"},
        {"too many paths", many_paths, ErrorCode::kLimitExceeded, "100000"},
        {"cut mid-value", hexBytes("02 01 01 61 0a 0100"), ErrorCode::kCannotReadAllData,
         "column 'j'"},
        {"bad Bool", hexBytes("02 01 01 61 2d 02"), ErrorCode::kIncorrectData, "Bool byte"},
        {"bad JSON version", hexBytes("02 01 01 61 30 01"), ErrorCode::kIncorrectData, "version"},
        {"deep types", deep, ErrorCode::kIncorrectData, "deeper than"},
    };
    for (const Case& bad : cases)
    {
        QueryOptions options;
        const std::string bytes = good + bad.bytes;
        options.insert_bytes = bytes;
        try
        {
            session.execute("INSERT INTO t FORMAT RowBinary", options);
            ADD_FAILURE() << bad.name << " was inserted";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), bad.code) << bad.name << ": " << error.what();
            EXPECT_NE(std::string(error.what()).find(bad.message), std::string::npos)
                << bad.name << ": " << error.what();
            EXPECT_NE(std::string(error.what()).find("at row 2"), std::string::npos)
                << bad.name << ": " << error.what();
        }
        EXPECT_EQ(rowCount(session), 0u) << bad.name;
    }
    std::string wide = "{\"id\":1,\"j\":{";
    for (int i = 0; i <= 100'000; ++i)
    {
        wide += (i == 0 ? "\"p" : ",\"p") + std::to_string(i) + "\":1";
    }
    wide += "}}\n";
    EXPECT_EQ(errorOf([&] { insert(session, "JSONEachRow", wide); }), ErrorCode::kLimitExceeded);
    EXPECT_EQ(errorOf([&] { insert(session, "JSONEachRow", "{\"j\":[1]}\n"); }),
              ErrorCode::kTypeMismatch);
    EXPECT_EQ(rowCount(session), 0u);
}

TEST(JsonType, TypesAndQueriesRefuseWhatJsonIsNot)
{
    Session session(Database::openInMemory());
    for (const std::string type :
         {"Array(JSON(a Int64))", "Map(String, JSON(SKIP a))", "JSON(SKIP REGEXP 'a')",
          "JSON(a JSON(b Int64))", "LowCardinality(JSON)", "Map(JSON, String)"})
    {
        EXPECT_NE(
            errorOf([&] { session.execute("CREATE TABLE a (x " + type + ") ORDER BY tuple()"); }),
            ErrorCode{})
            << type;
    }
    session.execute(
        "CREATE TABLE t (j JSON(max_dynamic_paths = 16, `a b` String, SKIP c.d)) ORDER BY tuple()");
    EXPECT_EQ(session.execute("DESCRIBE TABLE t").block.columns[1].column.stringAt(0),
              "JSON(`a b` String, SKIP c.d)");
    for (const std::string query : {"SELECT j + 1 FROM t", "SELECT length(j) FROM t",
                                    "SELECT j['a'] FROM t", "SELECT mapKeys(j) FROM t"})
    {
        EXPECT_EQ(errorOf([&] { session.execute(query); }), ErrorCode::kTypeMismatch) << query;
    }
    // As for arrays and maps: grouping and sorting by a whole JSON value is not offered.
    EXPECT_EQ(errorOf([&] { session.execute("SELECT count() FROM t GROUP BY j"); }),
              ErrorCode::kNotImplemented);
}

}  // namespace
}  // namespace granary
