#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

#include "server/query_handler.h"
#include "server/server_config.h"

namespace granary::server
{

/// Accepts connections and serves each on its own thread, up to max_connections at once
/// (one more is told so with an Exception packet and closed).
class Server
{
public:
    Server(ServerConfig config, std::shared_ptr<QueryHandler> handler);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// Binds and listens (Exception(kNetworkError) naming the address if it cannot), then
    /// accepts on a background thread.
    void start();
    /// The bound port (the chosen one when the config asked for port 0).
    uint16_t port() const { return bound_port_; }
    /// Graceful: stops accepting, lets connections finish their query (cancelled after the
    /// grace period), closes idle ones, and returns once every connection thread has ended.
    void stop();
    size_t activeConnections() const { return active_.load(); }
    size_t acceptedConnections() const { return accepted_.load(); }

private:
    struct Worker
    {
        std::thread thread;
        std::atomic<bool> done{false};
    };

    void acceptLoop();
    void reapFinished();
    void refuse(int fd);

    ServerConfig config_;
    std::shared_ptr<QueryHandler> handler_;
    int listen_fd_ = -1;
    uint16_t bound_port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<size_t> active_{0};
    std::atomic<size_t> accepted_{0};
    std::thread acceptor_;
    std::list<std::unique_ptr<Worker>> workers_;  ///< Touched by the acceptor thread only.
};

}  // namespace granary::server
