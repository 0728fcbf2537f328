// The HTTP interface end to end over the real engine: pings, queries in the URL and the body,
// every input path (formats, compressed frames, Content-Encodings), ClickHouse-shaped
// errors, credentials, keep-alive after errors, 100-continue, chunked and abandoned bodies,
// and concurrent inserters beside readers.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <lz4frame.h>
#include <zstd.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "server/compression.h"
#include "tests/server/http_test_support.h"

namespace granary::server
{
namespace
{

using testing::HttpTestServer;
using testing::RawConnection;
using testing::urlEncode;

constexpr std::string_view kCreate = "CREATE TABLE t (id UInt32, name String) ORDER BY id";

/// RowBinary of rows (i, "n<i>") for i in [begin, end).
std::string rowBinary(uint32_t begin, uint32_t end)
{
    std::string bytes;
    for (uint32_t id = begin; id < end; ++id)
    {
        bytes.append(reinterpret_cast<const char*>(&id), 4);
        const std::string name = "n" + std::to_string(id);
        bytes.push_back(static_cast<char>(name.size()));
        bytes += name;
    }
    return bytes;
}

std::string frames(std::string_view data)
{
    WriteBuffer out;
    compressFrames(data, out);
    return out.bytes();
}

std::string exceptionCode(const httplib::Result& result)
{
    return result->get_header_value("X-ClickHouse-Exception-Code");
}

class Http : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_EQ(server_.post(kCreate, "")->status, 200); }

    HttpTestServer server_;
};

TEST_F(Http, PingAndRootAnswerOk)
{
    httplib::Client client = server_.client();
    for (const char* path : {"/", "/ping"})
    {
        const httplib::Result result = client.Get(path);
        ASSERT_TRUE(result);
        EXPECT_EQ(result->status, 200);
        EXPECT_EQ(result->body, "Ok.\n");
    }
    EXPECT_EQ(client.Get("/nowhere")->status, 404);
}

TEST_F(Http, InsertThenSelectInEveryPlacement)
{
    // Query in the URL, data in the body.
    ASSERT_EQ(server_.post("INSERT INTO t FORMAT RowBinary", rowBinary(0, 100))->status, 200);
    // Query and data both in the body.
    ASSERT_EQ(
        server_.client().Post("/", "INSERT INTO t FORMAT TSV\n100\tn100\n", "text/plain")->status,
        200);
    // Query in the URL with its first rows, the rest in the body.
    ASSERT_EQ(server_.post("INSERT INTO t FORMAT TSV\n101\tn101", "102\tn102\n")->status, 200);
    EXPECT_EQ(server_.count("t"), 103u);

    const httplib::Result tsv = server_.client().Get(
        "/?query=" + urlEncode("SELECT id, name FROM t WHERE id >= 100 ORDER BY id"));
    EXPECT_EQ(tsv->body, "100\tn100\n101\tn101\n102\tn102\n");
    EXPECT_EQ(tsv->get_header_value("X-ClickHouse-Format"), "TabSeparated");

    const httplib::Result json = server_.client().Post(
        "/", "SELECT id, name FROM t ORDER BY id LIMIT 2 \nFORMAT JSON", "text/plain");
    const nlohmann::json document = nlohmann::json::parse(json->body);
    EXPECT_EQ(document["rows"], 2);
    EXPECT_EQ(document["meta"][1]["type"], "String");
    EXPECT_EQ(document["data"][1]["name"], "n1");
    EXPECT_EQ(json->get_header_value("Content-Type"), "application/json; charset=UTF-8");

    const nlohmann::json summary =
        nlohmann::json::parse(json->get_header_value("X-ClickHouse-Summary"));
    EXPECT_EQ(summary["result_rows"], "2");
}

TEST_F(Http, RowBinaryRoundTripsByteForByte)
{
    const std::string rows = rowBinary(0, 500);
    ASSERT_EQ(server_.post("INSERT INTO t FORMAT RowBinary", rows)->status, 200);
    EXPECT_EQ(server_.post("SELECT * FROM t ORDER BY id FORMAT RowBinary", "")->body, rows);
}

TEST_F(Http, CompressedFramesInAndOut)
{
    const std::string rows = rowBinary(0, 3000);
    ASSERT_EQ(server_.post("INSERT INTO t FORMAT RowBinary", frames(rows), "decompress=1")->status,
              200);
    EXPECT_EQ(server_.count("t"), 3000u);
    const httplib::Result answer =
        server_.post("SELECT * FROM t ORDER BY id FORMAT RowBinary", "", "compress=1");
    MemoryReadBuffer source(answer->body);
    CompressedReadBuffer decoded(source, 1 << 26);
    std::string plain(rows.size(), '\0');
    decoded.readBytes(plain.data(), plain.size(), "answer");
    EXPECT_EQ(plain, rows);
    EXPECT_TRUE(decoded.eof());
}

TEST_F(Http, BadFramesAreClearErrorsAndInsertNothing)
{
    std::string damaged = frames(rowBinary(0, 100));
    damaged[40] ^= 0x01;
    httplib::Result result =
        server_.post("INSERT INTO t FORMAT RowBinary", damaged, "decompress=1");
    EXPECT_EQ(result->status, 400);
    EXPECT_EQ(exceptionCode(result), "40");

    std::string unknown = frames(rowBinary(0, 100));
    unknown[16] = 0x55;
    result = server_.post("INSERT INTO t FORMAT RowBinary", unknown, "decompress=1");
    EXPECT_EQ(result->status, 400);
    EXPECT_EQ(exceptionCode(result), "89");

    result = server_.post("INSERT INTO t FORMAT RowBinary", rowBinary(0, 100), "decompress=1");
    EXPECT_EQ(exceptionCode(result), "89");
    EXPECT_NE(result->body.find("compressed frames"), std::string::npos);

    std::string truncated = frames(rowBinary(0, 100));
    truncated.resize(truncated.size() - 30);
    result = server_.post("INSERT INTO t FORMAT RowBinary", truncated, "decompress=1");
    EXPECT_EQ(result->status, 400);
    EXPECT_EQ(exceptionCode(result), "33");
    EXPECT_EQ(server_.count("t"), 0u);
}

TEST_F(Http, ContentEncodings)
{
    const std::string rows = rowBinary(0, 1000);
    std::string zstd(ZSTD_compressBound(rows.size()), '\0');
    zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), rows.data(), rows.size(), 3));
    std::string lz4(LZ4F_compressFrameBound(rows.size(), nullptr), '\0');
    lz4.resize(LZ4F_compressFrame(lz4.data(), lz4.size(), rows.data(), rows.size(), nullptr));
    EXPECT_EQ(
        server_.post("INSERT INTO t FORMAT RowBinary", zstd, {}, {{"Content-Encoding", "zstd"}})
            ->status,
        200);
    EXPECT_EQ(
        server_.post("INSERT INTO t FORMAT RowBinary", lz4, {}, {{"Content-Encoding", "lz4"}})
            ->status,
        200);
    httplib::Client gzip_client = server_.client();
    gzip_client.set_compress(true);  // gzip request bodies
    EXPECT_EQ(gzip_client
                  .Post("/?query=" + urlEncode("INSERT INTO t FORMAT RowBinary"), rows,
                        "application/octet-stream")
                  ->status,
              200);
    EXPECT_EQ(server_.count("t"), 3000u);

    const httplib::Result unknown =
        server_.post("INSERT INTO t FORMAT RowBinary", rows, {}, {{"Content-Encoding", "snappy"}});
    EXPECT_EQ(unknown->status, 415);
    lz4.resize(lz4.size() / 2);
    const httplib::Result cut =
        server_.post("INSERT INTO t FORMAT RowBinary", lz4, {}, {{"Content-Encoding", "lz4"}});
    EXPECT_EQ(cut->status, 400);
    EXPECT_EQ(server_.count("t"), 3000u);
}

TEST_F(Http, ErrorsHaveClickHouseShapeAndStatus)
{
    // The clients' own patterns; their `.` matches newlines too (JS /s), hence [\s\S].
    const std::regex js_client(
        R"((Code|Error): (\d+)[\s\S]*Exception: ([\s\S]+?)\(([A-Z0-9_]+)\))");
    const std::regex rotel(R"(Code: (\d+)\. DB::Exception: ([^()]*)[\s\S]*\(version ([^ ]+))");
    struct Case
    {
        std::string query;
        std::string body;
        int status;
        std::string code;
    };
    const std::vector<Case> cases = {
        {"SELECT * FROM missing", "", 404, "60"},
        {"SELEKT 1", "", 400, "62"},
        {"INSERT INTO t FORMAT Parquet", "x", 404, "73"},
        {"INSERT INTO t (nope) FORMAT TSV", "1\n", 404, "47"},
        {"INSERT INTO t FORMAT RowBinary", rowBinary(0, 10) + "abc", 400, "33"},
        {"INSERT INTO t FORMAT JSONEachRow", "{\"id\": \"x\"}\n", 400, "27"},
        {"INSERT INTO t FORMAT TSV", "1\n", 400, "27"},
    };
    for (const Case& test : cases)
    {
        const httplib::Result result = server_.post(test.query, test.body);
        EXPECT_EQ(result->status, test.status) << test.query << ": " << result->body;
        EXPECT_EQ(exceptionCode(result), test.code) << test.query;
        EXPECT_TRUE(std::regex_search(result->body, js_client)) << result->body;
        EXPECT_TRUE(std::regex_search(result->body, rotel)) << result->body;
        EXPECT_TRUE(result->body.ends_with("))\n")) << result->body;
    }
    const httplib::Result setting = server_.post("SELECT 1", "", "no_such_setting=1");
    EXPECT_EQ(setting->status, 404);
    EXPECT_EQ(exceptionCode(setting), "115");
    // Settings clients send are accepted.
    EXPECT_EQ(server_
                  .post("INSERT INTO t FORMAT RowBinary", rowBinary(0, 1),
                        "async_insert=1&wait_for_async_insert=1&allow_experimental_json_type=1")
                  ->status,
              200);
    // GET is readonly.
    const httplib::Result drop = server_.client().Get("/?query=" + urlEncode("DROP TABLE t"));
    EXPECT_EQ(drop->status, 403);
    EXPECT_EQ(exceptionCode(drop), "164");
    EXPECT_EQ(server_.count("t"), 1u);
}

TEST(HttpCredentials, EveryWayAndTheirMixture)
{
    ServerConfig config;
    config.users = UserTable({{"default", ""}, {"alice", "secret"}});
    HttpTestServer server(config);
    const std::string select = "/?query=" + urlEncode("SELECT 1");
    httplib::Client client = server.client();
    EXPECT_EQ(client.Get(select, {{"X-ClickHouse-User", "alice"}, {"X-ClickHouse-Key", "secret"}})
                  ->status,
              200);
    EXPECT_EQ(client.Get(select + "&user=alice&password=secret")->status, 200);
    client.set_basic_auth("alice", "secret");
    EXPECT_EQ(client.Get(select)->status, 200);
    const httplib::Result mixed = client.Get(select + "&user=alice&password=secret");
    EXPECT_EQ(mixed->status, 403);
    EXPECT_EQ(exceptionCode(mixed), "516");
    httplib::Client wrong = server.client();
    wrong.set_basic_auth("alice", "guess");
    EXPECT_EQ(wrong.Get(select)->status, 403);
}

TEST_F(Http, KeepAliveConnectionServesTheNextRequestAfterAnError)
{
    httplib::Client client = server_.client();
    const std::string insert = "/?query=" + urlEncode("INSERT INTO t FORMAT RowBinary");
    EXPECT_EQ(client.Post(insert, rowBinary(0, 10) + "x", "application/octet-stream")->status, 400);
    EXPECT_EQ(client.Post(insert, rowBinary(0, 10), "application/octet-stream")->status, 200);
    EXPECT_EQ(server_.count("t"), 10u);
}

TEST_F(Http, ExpectContinueChunkedAndAbandonedBodies)
{
    const std::string target = "/?query=" + urlEncode("INSERT INTO t FORMAT RowBinary");
    const std::string rows = rowBinary(0, 50);
    {
        RawConnection connection(server_.port());
        connection.send(
            fmt::format("POST {} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n"
                        "Expect: 100-continue\r\n\r\n",
                        target, rows.size()));
        ASSERT_TRUE(connection.receiveUntil("100 Continue"));
        connection.send(rows);
        ASSERT_TRUE(connection.receiveUntil("200 OK")) << connection.received();
    }
    {
        RawConnection connection(server_.port());
        std::string request = fmt::format(
            "POST {} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", target);
        const std::string more = rowBinary(50, 120);
        for (size_t at = 0; at < more.size(); at += 100)
        {
            const std::string chunk = more.substr(at, 100);
            request += fmt::format("{:x}\r\n{}\r\n", chunk.size(), chunk);
        }
        request += "0\r\n\r\n";
        connection.send(request);
        ASSERT_TRUE(connection.receiveUntil("200 OK")) << connection.received();
    }
    {
        // Gone mid-body: nothing of it lands.
        RawConnection connection(server_.port());
        connection.send(fmt::format("POST {} HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
                                    target, rows.size() * 2));
        connection.send(rows);
        connection.close();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(server_.count("t"), 120u);
}

TEST(HttpLimits, BodiesPastTheCapAre413)
{
    ServerConfig config;
    config.http_max_body_bytes = 1000;
    HttpTestServer server(config);
    ASSERT_EQ(server.post(kCreate, "")->status, 200);
    const httplib::Result result = server.post("INSERT INTO t FORMAT RowBinary", rowBinary(0, 500));
    EXPECT_EQ(result->status, 413);
    EXPECT_EQ(server.count("t"), 0u);
}

TEST_F(Http, ConcurrentInsertersAndReaders)
{
    constexpr size_t kInserters = 64;
    constexpr size_t kInsertsEach = 5;
    constexpr uint32_t kRowsEach = 200;
    std::atomic<size_t> acknowledged{0};
    std::atomic<bool> done{false};
    std::vector<std::thread> readers;
    for (size_t i = 0; i < 4; ++i)
    {
        readers.emplace_back(
            [&]
            {
                while (!done)
                {
                    const httplib::Result result =
                        server_.post("SELECT count(), sum(id) FROM t FORMAT JSON", "");
                    EXPECT_EQ(result->status, 200);
                }
            });
    }
    std::vector<std::thread> inserters;
    for (size_t i = 0; i < kInserters; ++i)
    {
        inserters.emplace_back(
            [&, i]
            {
                httplib::Client client = server_.client();
                const std::string target = "/?query=" + urlEncode("INSERT INTO t FORMAT RowBinary");
                for (size_t n = 0; n < kInsertsEach; ++n)
                {
                    const uint32_t begin =
                        static_cast<uint32_t>((i * kInsertsEach + n) * kRowsEach);
                    const httplib::Result result = client.Post(
                        target, rowBinary(begin, begin + kRowsEach), "application/octet-stream");
                    if (result && result->status == 200)
                    {
                        acknowledged += kRowsEach;
                    }
                    else
                    {
                        ADD_FAILURE()
                            << (result ? result->body : httplib::to_string(result.error()));
                    }
                }
            });
    }
    for (std::thread& thread : inserters)
    {
        thread.join();
    }
    done = true;
    for (std::thread& thread : readers)
    {
        thread.join();
    }
    EXPECT_EQ(acknowledged.load(), kInserters * kInsertsEach * kRowsEach);
    EXPECT_EQ(server_.count("t"), acknowledged.load());
}

}  // namespace
}  // namespace granary::server
