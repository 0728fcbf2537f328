#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "engine/common/exception.h"
#include "tests/server/native_test_client.h"
#include "tests/server/test_server.h"

namespace granary::server::testing
{
namespace
{

template <typename T>
size_t countOf(const std::vector<ServerMessage>& messages)
{
    size_t count = 0;
    for (const ServerMessage& message : messages)
    {
        count += std::holds_alternative<T>(message) ? 1 : 0;
    }
    return count;
}

size_t countBlocks(const std::vector<ServerMessage>& messages, ServerPacket type)
{
    size_t count = 0;
    for (const ServerMessage& message : messages)
    {
        const auto* block = std::get_if<ReceivedBlock>(&message);
        count += block != nullptr && block->type == type ? 1 : 0;
    }
    return count;
}

std::vector<std::string> expectedRows(size_t count)
{
    std::vector<std::string> rows;
    for (size_t row = 0; row < count; ++row)
    {
        rows.push_back(fmt::format("{}\tname-{}\t{}\t<Date>", row, row, row * 0.5));
    }
    return rows;
}

TEST(Server, HandshakeNegotiatesTheLowerRevision)
{
    TestServer server;
    NativeTestClient client(server.port(), 54412);
    const auto hello = std::get<ServerHello>(client.hello());
    EXPECT_EQ(hello.revision, 54453u);
    EXPECT_EQ(hello.name, "Granary");
}

TEST(Server, AnswersQueriesOnOneConnectionCompressedOrNot)
{
    TestServer server;
    for (const uint64_t revision : {uint64_t(54412), uint64_t(54453)})
    {
        NativeTestClient client(server.port(), revision);
        client.hello();
        for (const bool compression : {false, true})
        {
            client.sendQuery("SELECT count() FROM t", {}, compression);
            auto messages = client.receiveUntilEnd();
            EXPECT_EQ(dataRowsTsv(messages), std::vector<std::string>{"100000"});
            ASSERT_TRUE(std::holds_alternative<EndOfStreamPacket>(messages.back()));

            client.sendQuery("SELECT * FROM t LIMIT 25000", {}, compression);
            messages = client.receiveUntilEnd();
            EXPECT_EQ(dataRowsTsv(messages), expectedRows(25000));
            // Header, then three blocks of at most 10000 rows.
            EXPECT_EQ(countBlocks(messages, ServerPacket::kData), 4u);
            EXPECT_EQ(countOf<ProfileInfoPacket>(messages), 1u);
            EXPECT_EQ(countBlocks(messages, ServerPacket::kProfileEvents),
                      revision >= 54451 ? 1u : 0u);
        }
        client.sendPing();
        EXPECT_TRUE(std::holds_alternative<PongPacket>(client.receive()));
    }
}

TEST(Server, SendsTotalsAndExtremesAndPerThreadProfileEvents)
{
    TestServer server;
    NativeTestClient client(server.port());
    client.hello();
    client.sendQuery("SELECT sum(id) FROM t WITH TOTALS", {{"fake_threads", "4"}});
    const auto messages = client.receiveUntilEnd();
    EXPECT_EQ(countBlocks(messages, ServerPacket::kTotals), 1u);
    EXPECT_EQ(countBlocks(messages, ServerPacket::kExtremes), 1u);
    EXPECT_EQ(countBlocks(messages, ServerPacket::kProfileEvents), 4u);
    EXPECT_EQ(dataRowsTsv(messages), std::vector<std::string>{"4999950000"});
}

TEST(Server, QueryErrorsAndUnknownSettingsKeepTheConnectionUsable)
{
    TestServer server;
    NativeTestClient client(server.port());
    client.hello();
    client.sendQuery("SELECT fail");
    auto messages = client.receiveUntilEnd();
    const auto& error = std::get<ExceptionPacket>(messages.back());
    EXPECT_EQ(error.code, static_cast<int32_t>(ErrorCode::kUnknownTable));
    EXPECT_EQ(error.name, "UNKNOWN_TABLE");

    client.sendQuery("SELECT count() FROM t", {{"no_such_setting", "1"}});
    messages = client.receiveUntilEnd();
    EXPECT_EQ(std::get<ExceptionPacket>(messages.back()).code,
              static_cast<int32_t>(ErrorCode::kUnknownSetting));

    client.sendQuery("SELECT count() FROM t");
    EXPECT_EQ(dataRowsTsv(client.receiveUntilEnd()), std::vector<std::string>{"100000"});
}

TEST(Server, CancelStopsTheQueryAndEndsTheStream)
{
    TestServer server;
    NativeTestClient client(server.port());
    client.hello();
    client.sendQuery("SELECT sleep");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    client.sendCancel();
    const auto messages = client.receiveUntilEnd();
    EXPECT_TRUE(std::holds_alternative<EndOfStreamPacket>(messages.back()));
    EXPECT_EQ(server.handler->cancelledQueries(), 1u);
    client.sendQuery("SELECT count() FROM t");
    EXPECT_EQ(dataRowsTsv(client.receiveUntilEnd()), std::vector<std::string>{"100000"});
}

TEST(Server, WrongPasswordIsRefused)
{
    ServerConfig config;
    config.users = UserTable(std::map<std::string, std::string, std::less<>>{{"alice", "secret"}});
    TestServer server(config);
    {
        NativeTestClient client(server.port());
        const auto error = std::get<ExceptionPacket>(client.hello("alice", "wrong"));
        EXPECT_EQ(error.code, static_cast<int32_t>(ErrorCode::kAuthenticationFailed));
    }
    {
        NativeTestClient client(server.port());
        EXPECT_TRUE(std::holds_alternative<ExceptionPacket>(client.hello("default", "")));
    }
    NativeTestClient client(server.port());
    EXPECT_TRUE(std::holds_alternative<ServerHello>(client.hello("alice", "secret")));
}

TEST(Server, MalformedPacketClosesOnlyThatConnection)
{
    TestServer server;
    NativeTestClient good(server.port());
    good.hello();
    {
        NativeTestClient bad(server.port());
        bad.hello();
        bad.sendRaw("\x63garbage");  // Packet type 99.
        const auto error = std::get<ExceptionPacket>(bad.receive());
        EXPECT_EQ(error.code, static_cast<int32_t>(ErrorCode::kUnknownPacketFromClient));
        EXPECT_THROW(bad.receive(), Exception);  // Closed.
    }
    good.sendQuery("SELECT count() FROM t");
    EXPECT_EQ(dataRowsTsv(good.receiveUntilEnd()), std::vector<std::string>{"100000"});
}

TEST(Server, ConnectionLimitRefusesWithAnException)
{
    ServerConfig config;
    config.max_connections = 2;
    TestServer server(config);
    NativeTestClient first(server.port());
    first.hello();
    NativeTestClient second(server.port());
    second.hello();
    NativeTestClient third(server.port());
    const auto error = std::get<ExceptionPacket>(third.hello());
    EXPECT_EQ(error.code, static_cast<int32_t>(ErrorCode::kTooManyConnections));
}

TEST(Server, IdleConnectionsTimeOutAndStopIsGraceful)
{
    ServerConfig config;
    config.idle_timeout = std::chrono::milliseconds(200);
    TestServer server(config);
    NativeTestClient idle(server.port());
    idle.hello();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_THROW(idle.receive(), Exception);  // Closed by the server.

    NativeTestClient running(server.port());
    running.hello();
    running.sendQuery("SELECT * FROM t LIMIT 100000");
    std::jthread stopper([&] { server.server.stop(); });
    // The query in flight still completes.
    EXPECT_EQ(dataRowsTsv(running.receiveUntilEnd()).size(), 100000u);
    stopper.join();
    EXPECT_EQ(server.server.activeConnections(), 0u);
}

TEST(Server, BatchingSettingIsAcceptedEitherWay)
{
    TestServer server;
    NativeTestClient client(server.port());
    client.hello();
    for (const char* batch : {"0", "1"})
    {
        client.sendQuery("SELECT sum(id) FROM t WITH TOTALS",
                         {{"granary_batch_end_of_query", batch}, {"fake_threads", "8"}});
        const auto messages = client.receiveUntilEnd();
        EXPECT_EQ(countBlocks(messages, ServerPacket::kProfileEvents), 8u);
        EXPECT_TRUE(std::holds_alternative<EndOfStreamPacket>(messages.back()));
    }
}

}  // namespace
}  // namespace granary::server::testing
