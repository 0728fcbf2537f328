#include "tests/server/native_test_client.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace granary::server::testing
{

int connectTo(uint16_t port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    {
        throw std::runtime_error(fmt::format("cannot connect to port {}", port));
    }
    return fd;
}

NativeTestClient::NativeTestClient(uint16_t port, uint64_t revision)
    : fd_(connectTo(port)), revision_(revision), in_(fd_, std::chrono::seconds(20))
{
}

NativeTestClient::~NativeTestClient()
{
    ::close(fd_);
}

ServerMessage NativeTestClient::hello(const std::string& user, const std::string& password)
{
    WriteBuffer out;
    writeClientHello(out, {"granary-test", 1, 0, revision_, "", user, password});
    sendRaw(out.bytes());
    ServerMessage reply = readServerPacket(in_, revision_, false, limits_);
    if (const auto* server_hello = std::get_if<ServerHello>(&reply))
    {
        revision_ = std::min(revision_, server_hello->revision);
    }
    return reply;
}

void NativeTestClient::sendQuery(const std::string& sql,
                                 std::vector<std::pair<std::string, std::string>> settings,
                                 bool compression)
{
    compression_ = compression;
    QueryPacket query;
    query.sql = sql;
    query.settings = std::move(settings);
    query.stage = 2;
    query.compression = compression;
    WriteBuffer out;
    writeQueryPacket(out, query, revision_);
    writeClientDataPacket(out, Block{}, compression);
    sendRaw(out.bytes());
}

void NativeTestClient::sendCancel()
{
    WriteBuffer out;
    writeVarUInt(out, static_cast<uint64_t>(ClientPacket::kCancel));
    sendRaw(out.bytes());
}

void NativeTestClient::sendPing()
{
    WriteBuffer out;
    writeVarUInt(out, static_cast<uint64_t>(ClientPacket::kPing));
    sendRaw(out.bytes());
}

void NativeTestClient::sendRaw(std::string_view bytes)
{
    sendAll(fd_, bytes, std::chrono::seconds(20));
}

ServerMessage NativeTestClient::receive()
{
    return readServerPacket(in_, revision_, compression_, limits_);
}

std::vector<ServerMessage> NativeTestClient::receiveUntilEnd()
{
    std::vector<ServerMessage> messages;
    for (;;)
    {
        messages.push_back(receive());
        if (std::holds_alternative<EndOfStreamPacket>(messages.back()) ||
            std::holds_alternative<ExceptionPacket>(messages.back()))
        {
            return messages;
        }
    }
}

std::vector<std::string> dataRowsTsv(const std::vector<ServerMessage>& messages)
{
    std::vector<std::string> rows;
    for (const ServerMessage& message : messages)
    {
        const auto* received = std::get_if<ReceivedBlock>(&message);
        if (received == nullptr || received->type != ServerPacket::kData)
        {
            continue;
        }
        const Block& block = received->block;
        for (size_t row = 0; row < block.rows(); ++row)
        {
            std::string line;
            for (const Block::Entry& entry : block.columns)
            {
                if (!line.empty())
                {
                    line += '\t';
                }
                const Column& column = entry.column;
                switch (column.type())
                {
                    case TypeId::UInt64:
                        line += std::to_string(column.valueAt<uint64_t>(row));
                        break;
                    case TypeId::String:
                        line += column.stringAt(row);
                        break;
                    case TypeId::Float64:
                        line += fmt::format("{}", column.valueAt<double>(row));
                        break;
                    default:
                        line += fmt::format("<{}>", typeName(column.type()));
                }
            }
            rows.push_back(std::move(line));
        }
    }
    return rows;
}

}  // namespace granary::server::testing
