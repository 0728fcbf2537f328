// The real engine behind the server: clickhouse-client and Python clickhouse-driver get what
// granary::Session returns for the same SQL over the same data directory.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "server/server.h"
#include "server/session_query_handler.h"
#include "tests/server/run_command.h"

namespace granary::server
{
namespace
{

using testing::runCommand;

/// TSV of a result block of UInt64 and String columns (what the queries below return).
std::string toTsv(const Block& block)
{
    std::string tsv;
    for (size_t row = 0; row < block.rows(); ++row)
    {
        for (size_t i = 0; i < block.columns.size(); ++i)
        {
            const Column& column = block.columns[i].column;
            tsv += i == 0 ? "" : "\t";
            tsv += isString(column.type()) ? std::string(column.stringAt(row))
                                           : std::to_string(column.valueAt<uint64_t>(row));
        }
        tsv += "\n";
    }
    return tsv;
}

/// clickhouse-client (with and without compression) and clickhouse-driver, through `script`
/// (port and query as arguments, TSV lines out), print `expected` for `sql`.
void expectClientsRead(uint16_t port, const std::filesystem::path& script, const std::string& sql,
                       const std::string& expected)
{
    for (const int compression : {0, 1})
    {
        EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} "
                                         "--compression {} --format TSV --query \"{}\" 2>&1",
                                         port, compression, sql)),
                  expected)
            << sql;
    }
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/python3 {} {} \"{}\" 2>&1",
                                     script.string(), port, sql)),
              expected)
        << sql;
}

TEST(SessionServer, ClientsGetWhatSessionReturns)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / fmt::format("granary-server-{}", ::getpid());
    std::filesystem::remove_all(dir);
    auto database = Session::openDatabase(dir);
    Session session(database);
    session.execute("CREATE TABLE t (id UInt64, name String)");
    std::stringstream rows;
    for (size_t i = 0; i < 5000; ++i)
    {
        rows << i << "\tname-" << i % 7 << "\n";
    }
    QueryOptions insert;
    insert.insert_data = &rows;
    session.execute("INSERT INTO t FORMAT TSV", insert);

    const std::vector<std::string> queries = {
        "SELECT count() FROM t",
        "SELECT name, count() AS c FROM t GROUP BY name ORDER BY name",
        "SELECT sum(id) FROM t WHERE name = 'name-3'",
    };
    ServerConfig config;
    config.port = 0;
    Server server(config, std::make_shared<SessionQueryHandler>(database));
    server.start();
    const std::filesystem::path script = dir / "query.py";
    {
        std::ofstream file(script);
        file << "import sys, clickhouse_driver\n"
                "c = clickhouse_driver.Client(host='127.0.0.1', port=int(sys.argv[1]))\n"
                "for row in c.execute(sys.argv[2]):\n"
                "    print('\\t'.join(str(v) for v in row))\n";
    }
    for (const std::string& sql : queries)
    {
        expectClientsRead(server.port(), script, sql, toTsv(Session(database).execute(sql).block));
    }
    server.stop();
    std::filesystem::remove_all(dir);
}

TEST(SessionServer, ClientsInsertOverTheNativeProtocol)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      fmt::format("granary-server-insert-{}", ::getpid());
    std::filesystem::remove_all(dir);
    auto database = Session::openDatabase(dir);
    Session(database).execute("CREATE TABLE t (id UInt64, name String) ORDER BY id");
    ServerConfig config;
    config.port = 0;
    Server server(config, std::make_shared<SessionQueryHandler>(database));
    server.start();

    // clickhouse-client parses the TSV and VALUES itself and sends Data blocks, with and
    // without compression.
    std::string tsv;
    uint64_t expected_sum = 0;
    for (uint64_t id = 0; id < 20000; ++id)
    {
        tsv += fmt::format("{}\tname-{}\n", id, id % 5);
        expected_sum += id;
    }
    const std::filesystem::path tsv_file = dir / "rows.tsv";
    std::ofstream(tsv_file) << tsv;
    for (const int compression : {0, 1})
    {
        EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} "
                                         "--compression {} --query \"INSERT INTO t FORMAT TSV\" "
                                         "< {} 2>&1",
                                         server.port(), compression, tsv_file.string())),
                  "");
    }
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} --query "
                                     "\"INSERT INTO t (id) VALUES (1000000), (1000001)\" 2>&1",
                                     server.port())),
              "");
    // clickhouse-driver sends the rows of `INSERT ... VALUES` as blocks; a failed insert
    // (unknown table) leaves the connection usable.
    const std::filesystem::path script = dir / "insert.py";
    std::ofstream(script)
        << "import sys, clickhouse_driver\n"
           "c = clickhouse_driver.Client(host='127.0.0.1', port=int(sys.argv[1]))\n"
           "c.execute('INSERT INTO t (id, name) VALUES', [(2000000 + i, 'py') for i in "
           "range(3000)])\n"
           "try:\n"
           "    c.execute('INSERT INTO nope VALUES', [(1,)])\n"
           "except Exception as e:\n"
           "    print('error', e.code)\n"
           "print(c.execute('SELECT count() FROM t')[0][0])\n";
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/python3 {} {} 2>&1", script.string(),
                                     server.port())),
              fmt::format("error 60\n{}\n", 2 * 20000 + 2 + 3000));

    const Block totals =
        Session(database).execute("SELECT count(), sum(id) FROM t WHERE id < 1000000").block;
    EXPECT_EQ(totals.columns[0].column.valueAt<uint64_t>(0), 40000u);
    EXPECT_EQ(totals.columns[1].column.valueAt<uint64_t>(0), 2 * expected_sum);
    const Block names = Session(database).execute("SELECT count() FROM t WHERE name = 'py'").block;
    EXPECT_EQ(names.columns[0].column.valueAt<uint64_t>(0), 3000u);
    server.stop();
    std::filesystem::remove_all(dir);
}

TEST(SessionServer, NullableColumnsBothWays)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      fmt::format("granary-server-nullable-{}", ::getpid());
    std::filesystem::remove_all(dir);
    auto database = Session::openDatabase(dir);
    Session(database).execute(
        "CREATE TABLE n (k UInt32, a Nullable(UInt64), s Nullable(String)) ORDER BY k");
    ServerConfig config;
    config.port = 0;
    Server server(config, std::make_shared<SessionQueryHandler>(database));
    server.start();

    // clickhouse-client reads \N itself and sends Nullable columns: a null map, then values.
    const std::filesystem::path tsv_file = dir / "rows.tsv";
    std::ofstream(tsv_file) << "1\t10\tx\n2\t\\N\t\\N\n3\t30\t\\N\n4\t\\N\ty\n";
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} --query "
                                     "\"INSERT INTO n FORMAT TSV\" < {} 2>&1",
                                     server.port(), tsv_file.string())),
              "");
    // clickhouse-driver sends Python's None as NULL, and reads NULL back as None.
    const std::filesystem::path script = dir / "nullable.py";
    std::ofstream(script)
        << "import sys, clickhouse_driver\n"
           "c = clickhouse_driver.Client(host='127.0.0.1', port=int(sys.argv[1]))\n"
           "if sys.argv[2] == 'insert':\n"
           "    c.execute('INSERT INTO n VALUES', [(5, None, 'z'), (6, 60, None)])\n"
           "else:\n"
           "    for row in c.execute(sys.argv[2]):\n"
           "        print('\\t'.join('\\\\N' if v is None else str(v) for v in row))\n";
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/python3 {} {} insert 2>&1",
                                     script.string(), server.port())),
              "");

    // Known answers for the six rows above.
    const std::vector<std::pair<std::string, std::string>> queries = {
        {"SELECT * FROM n ORDER BY k",
         "1\t10\tx\n2\t\\N\t\\N\n3\t30\t\\N\n4\t\\N\ty\n5\t\\N\tz\n6\t60\t\\N\n"},
        {"SELECT s, count(), sum(a) FROM n GROUP BY s ORDER BY s",
         "x\t1\t10\ny\t1\t\\N\nz\t1\t\\N\n\\N\t3\t90\n"},
        {"SELECT k, coalesce(a, 0), a IS NULL, nullIf(s, 'x') FROM n WHERE k <= 2 ORDER BY k",
         "1\t10\t0\t\\N\n2\t0\t1\t\\N\n"},
    };
    for (const auto& [sql, expected] : queries)
    {
        expectClientsRead(server.port(), script, sql, expected);
    }
    server.stop();
    std::filesystem::remove_all(dir);
}

/// The part of a JSON document from "totals" up to "rows".
std::string jsonTotals(const std::string& json)
{
    const size_t begin = json.find("\"totals\"");
    const size_t end = json.find("\"rows\"");
    return begin == std::string::npos || end == std::string::npos ? json
                                                                  : json.substr(begin, end - begin);
}

TEST(SessionServer, TotalsAsClickHouseClientPrintsThem)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      fmt::format("granary-server-totals-{}", ::getpid());
    std::filesystem::remove_all(dir);
    auto database = Session::openDatabase(dir);
    Session(database).execute("CREATE TABLE t (k UInt32, g String, x Nullable(UInt32)) ORDER BY k");
    Session(database).execute(
        "INSERT INTO t VALUES (1, 'a', 2), (1, 'b', NULL), (2, 'a', 5), (3, 'c', NULL)");
    ServerConfig config;
    config.port = 0;
    Server server(config, std::make_shared<SessionQueryHandler>(database));
    server.start();

    // clickhouse-client prints the Totals packet in each format its own way: Granary's
    // writers must print the same result identically.
    const std::string sql = "SELECT g, count(), sum(x) FROM t GROUP BY g WITH TOTALS ORDER BY g";
    const QueryResult result = Session(database).execute(sql);
    ASSERT_TRUE(result.totals.has_value());
    const auto granary = [&](OutputFormat format)
    {
        std::ostringstream out;
        writeBlock(result.block, format, out, {}, &*result.totals);
        return out.str();
    };
    const auto client = [&](std::string_view format)
    {
        return runCommand(
            fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} --format {} "
                        "--query \"{}\" 2>&1",
                        server.port(), format, sql));
    };
    EXPECT_EQ(client("TSVWithNames"), granary(OutputFormat::kTSVWithNames));
    EXPECT_EQ(client("CSV"), granary(OutputFormat::kCSV));
    EXPECT_EQ(client("PrettyCompactNoEscapes"), granary(OutputFormat::kPrettyCompact));
    // ClickHouse quotes 64-bit integers in JSON, Granary writes them bare (docs/formats.md).
    const std::string client_json =
        std::regex_replace(jsonTotals(client("JSON")), std::regex(R"(": "(-?[0-9]+)\")"), "\": $1");
    EXPECT_EQ(client_json, jsonTotals(granary(OutputFormat::kJSON)));

    // clickhouse-driver appends the totals to the rows.
    const std::filesystem::path script = dir / "totals.py";
    std::ofstream(script)
        << "import sys, clickhouse_driver\n"
           "c = clickhouse_driver.Client(host='127.0.0.1', port=int(sys.argv[1]))\n"
           "for row in c.execute(sys.argv[2]):\n"
           "    print('\\t'.join('\\\\N' if v is None else str(v) for v in row))\n";
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/python3 {} {} \"{}\" 2>&1",
                                     script.string(), server.port(), sql)),
              "a\t2\t7\nb\t1\t\\N\nc\t1\t\\N\n\t4\t7\n");
    server.stop();
    std::filesystem::remove_all(dir);
}

TEST(SessionServer, ArraysMapsBoolsAndDateTime64OverTheNativeProtocol)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      fmt::format("granary-server-nested-{}", ::getpid());
    std::filesystem::remove_all(dir);
    auto database = Session::openDatabase(dir);
    Session(database).execute(
        "CREATE TABLE n (id UInt64, tags Array(String), attrs Map(String, "
        "String), t DateTime64(3), ok Bool) ORDER BY id");
    ServerConfig config;
    config.port = 0;
    Server server(config, std::make_shared<SessionQueryHandler>(database));
    server.start();
    // clickhouse-client 18.16 knows Array (not Map, Bool or DateTime64): it parses the VALUES
    // and sends an Array(String) column, and reads one back.
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} --query "
                                     "\"INSERT INTO n (id, tags) VALUES (1, ['a', 'b']), (2, [])\" "
                                     "2>&1",
                                     server.port())),
              "");
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/clickhouse-client --port {} --query "
                                     "\"SELECT id, tags FROM n ORDER BY id\" 2>&1",
                                     server.port())),
              "1\t['a','b']\n2\t[]\n");
    // clickhouse-driver sends and reads every one of the types.
    const std::filesystem::path script = dir / "nested.py";
    std::ofstream(script)
        << "import sys, datetime, clickhouse_driver\n"
           "c = clickhouse_driver.Client(host='127.0.0.1', port=int(sys.argv[1]))\n"
           "t = datetime.datetime(2026, 1, 2, 3, 4, 5, 678000)\n"
           "c.execute('INSERT INTO n (id, tags, attrs, t, ok) VALUES', [(10, ['x'], "
           "{'k': 'v', 'a': 'b'}, t, True), (11, [], {}, t, False)])\n"
           "for row in c.execute('SELECT id, tags, attrs, t, ok FROM n WHERE id >= 10 ORDER BY "
           "id'):\n"
           "    print(row)\n"
           "print(c.execute(\"SELECT attrs['a'], length(tags) FROM n WHERE id = 10\"))\n";
    EXPECT_EQ(runCommand(fmt::format("timeout 30 /usr/bin/python3 {} {} 2>&1", script.string(),
                                     server.port())),
              "(10, ['x'], {'k': 'v', 'a': 'b'}, datetime.datetime(2026, 1, 2, 3, 4, 5, 678000), "
              "True)\n(11, [], {}, datetime.datetime(2026, 1, 2, 3, 4, 5, 678000), False)\n"
              "[('b', 1)]\n");
    server.stop();
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace granary::server
