#pragma once

#include <cstdint>
#include <memory>
#include <thread>

#include "server/query_handler.h"
#include "server/server_config.h"

namespace httplib
{
class Server;
}

namespace granary::server
{

class HttpHandler;

/// The HTTP interface (port 8123 by convention): cpp-httplib reads requests (keep-alive,
/// chunked bodies, Expect: 100-continue, gzip/deflate/br bodies) on one thread per
/// connection, up to max_connections; HttpHandler answers them.
class HttpServer
{
public:
    HttpServer(ServerConfig config, std::shared_ptr<QueryHandler> handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds (Exception(kNetworkError) naming the address if it cannot) and serves on a
    /// background thread.
    void start();
    uint16_t port() const { return bound_port_; }
    /// Stops accepting and waits for the connection threads.
    void stop();

private:
    ServerConfig config_;
    std::shared_ptr<QueryHandler> handler_;
    std::unique_ptr<HttpHandler> http_handler_;
    std::unique_ptr<httplib::Server> server_;
    uint16_t bound_port_ = 0;
    std::thread listener_;
};

}  // namespace granary::server
