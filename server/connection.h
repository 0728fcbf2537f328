#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/common/exception.h"
#include "server/client_packets.h"
#include "server/query_handler.h"
#include "server/server_config.h"
#include "server/server_packets.h"
#include "server/socket_io.h"
#include "server/wire.h"

namespace granary::server
{

/// One client connection: Hello, then Query/Ping packets until the client leaves, the idle
/// timeout passes, the server stops, or a packet is malformed (an Exception packet is sent
/// where possible, then the connection closes). Owns the socket.
class Connection
{
public:
    Connection(int fd, const ServerConfig& config, QueryHandler& handler,
               const std::atomic<bool>& stopping);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Serves the connection to its end; never throws.
    void run();

private:
    struct QueryState;

    bool handshake();
    /// Waits for the next packet between queries; false when the connection should close.
    bool waitForPacket();
    void serveQuery(QueryPacket query);
    /// For an INSERT whose rows come as blocks: sends the columns wanted and reads the blocks
    /// into the request; false when the query failed (the Exception is sent).
    bool receiveInsertBlocks(QueryState& state);
    void streamQuery(QueryState& state);
    void sendEndOfQuery(QueryState& state, const QueryOutcome& outcome);
    void sendBlock(QueryState& state, ServerPacket type, const Block& block);
    void sendProgress(QueryState& state, const ProgressCounters& now);
    /// Writes what was assembled in out_ to the socket: one send for all of it.
    void flush();
    void sendException(const Exception& error);

    int fd_;
    const ServerConfig& config_;
    QueryHandler& handler_;
    const std::atomic<bool>& stopping_;
    SocketReadBuffer in_;
    WriteBuffer out_;
    uint64_t revision_ = 0;
    std::string user_;
    std::string database_;
};

}  // namespace granary::server
