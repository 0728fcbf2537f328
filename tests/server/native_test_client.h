#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "server/client_packets.h"
#include "server/server_packets.h"
#include "server/socket_io.h"

namespace granary::server::testing
{

int connectTo(uint16_t port);

/// A minimal native-protocol client for tests, speaking through Granary's own packet code.
class NativeTestClient
{
public:
    explicit NativeTestClient(uint16_t port, uint64_t revision = 54453);
    ~NativeTestClient();

    /// Sends Hello and returns the server's first answer (ServerHello or ExceptionPacket).
    ServerMessage hello(const std::string& user = "default", const std::string& password = "");
    void sendQuery(const std::string& sql,
                   std::vector<std::pair<std::string, std::string>> settings = {},
                   bool compression = false);
    void sendCancel();
    void sendPing();
    void sendRaw(std::string_view bytes);
    ServerMessage receive();
    /// Receives until EndOfStream or Exception (included).
    std::vector<ServerMessage> receiveUntilEnd();
    int fd() const { return fd_; }

private:
    int fd_;
    uint64_t revision_;
    bool compression_ = false;
    SocketReadBuffer in_;
    ProtocolLimits limits_;
};

/// The rows of every Data block in `messages`, as TSV lines (UInt64, String, Float64 columns).
std::vector<std::string> dataRowsTsv(const std::vector<ServerMessage>& messages);

}  // namespace granary::server::testing
