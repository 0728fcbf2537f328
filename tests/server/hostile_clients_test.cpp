// 1000 connections send garbage, truncated and oversized packets while a well-behaved client
// keeps querying: the server must answer it correctly throughout and never crash.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <random>
#include <thread>

#include "tests/server/native_test_client.h"
#include "tests/server/test_server.h"

namespace granary::server::testing
{
namespace
{

std::string helloBytes()
{
    WriteBuffer out;
    writeClientHello(out, {"hostile", 1, 0, 54453, "", "default", ""});
    return out.bytes();
}

/// One hostile payload per kind: random bytes, a truncated Hello, a huge string length, a
/// Query with an oversized compressed frame, a bad checksum, a Data packet with no Query.
std::string hostilePayload(size_t kind, std::mt19937& random)
{
    const std::string hello = helloBytes();
    WriteBuffer out;
    switch (kind % 6)
    {
        case 0:
        {
            std::string bytes(1 + random() % 512, '\0');
            for (char& byte : bytes)
            {
                byte = static_cast<char>(random());
            }
            return bytes;
        }
        case 1:
            return hello.substr(0, 1 + random() % (hello.size() - 1));
        case 2:
            writeVarUInt(out, 0);
            writeVarUInt(out, uint64_t(1) << 40);  // Client name "length".
            return out.bytes();
        case 3:
        {
            out.writeBytes(hello.data(), hello.size());
            QueryPacket query;
            query.sql = "SELECT count() FROM t";
            query.stage = 2;
            query.compression = true;
            writeQueryPacket(out, query, 54453);
            writeVarUInt(out, 2);
            writeString(out, "");
            const std::string frame_header(16, '\0');
            out.writeBytes(frame_header.data(), frame_header.size());
            out.writeByte(0x82);
            writeFixed<uint32_t>(out, 0x7fffffff);
            writeFixed<uint32_t>(out, 0x7fffffff);
            return out.bytes();
        }
        case 4:
        {
            out.writeBytes(hello.data(), hello.size());
            QueryPacket query;
            query.sql = "SELECT count() FROM t";
            query.stage = 2;
            query.compression = true;
            writeQueryPacket(out, query, 54453);
            WriteBuffer data;
            writeClientDataPacket(data, Block{}, true);
            std::string corrupted = data.bytes();
            corrupted[corrupted.size() - 1] ^= 1;
            out.writeBytes(corrupted.data(), corrupted.size());
            return out.bytes();
        }
        default:
            out.writeBytes(hello.data(), hello.size());
            writeClientDataPacket(out, Block{}, false);
            return out.bytes();
    }
}

TEST(HostileClients, ThousandBadConnectionsDoNotDisturbAGoodOne)
{
    ServerConfig config;
    config.handshake_timeout = std::chrono::milliseconds(2000);
    config.receive_timeout = std::chrono::milliseconds(500);
    TestServer server(config);

    std::atomic<bool> done{false};
    std::atomic<size_t> good_queries{0};
    std::atomic<size_t> wrong_answers{0};
    std::thread good(
        [&]
        {
            NativeTestClient client(server.port());
            client.hello();
            while (!done)
            {
                client.sendQuery("SELECT * FROM t LIMIT 20", {}, good_queries % 2 == 1);
                const auto rows = dataRowsTsv(client.receiveUntilEnd());
                wrong_answers +=
                    rows.size() == 20 && rows[19].starts_with("19\tname-19\t9.5") ? 0 : 1;
                ++good_queries;
            }
        });

    constexpr size_t kConnections = 1000;
    constexpr size_t kThreads = 8;
    std::vector<std::thread> attackers;
    for (size_t t = 0; t < kThreads; ++t)
    {
        attackers.emplace_back(
            [&, t]
            {
                std::mt19937 random(static_cast<unsigned>(t));
                for (size_t i = t; i < kConnections; i += kThreads)
                {
                    const int fd = connectTo(server.port());
                    const std::string payload = hostilePayload(i, random);
                    ::send(fd, payload.data(), payload.size(), MSG_NOSIGNAL);
                    if (i % 3 == 0)
                    {
                        ::shutdown(fd, SHUT_WR);  // Truncated: the peer sees the end mid-packet.
                    }
                    char sink[4096];
                    timeval timeout{3, 0};
                    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
                    while (::recv(fd, sink, sizeof(sink), 0) > 0)
                    {
                    }
                    ::close(fd);
                }
            });
    }
    for (std::thread& attacker : attackers)
    {
        attacker.join();
    }
    done = true;
    good.join();
    EXPECT_GE(server.server.acceptedConnections(), kConnections + 1);
    EXPECT_GT(good_queries.load(), 0u);
    EXPECT_EQ(wrong_answers.load(), 0u);
    // Every hostile connection was closed by the server.
    for (int i = 0; i < 50 && server.server.activeConnections() > 0; ++i)
    {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(server.server.activeConnections(), 0u);
}

}  // namespace
}  // namespace granary::server::testing
