#include "server/server.h"

#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/common/exception.h"
#include "server/connection.h"
#include "server/server_packets.h"
#include "server/socket_io.h"

namespace granary::server
{
namespace
{

constexpr int kAcceptPollMilliseconds = 100;
constexpr std::chrono::milliseconds kRefusalSendTimeout{100};

int listenOn(const std::string& host, uint16_t port, uint16_t& bound_port)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* addresses = nullptr;
    const std::string service = std::to_string(port);
    if (const int error = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &addresses))
    {
        throw Exception(ErrorCode::kNetworkError,
                        fmt::format("Cannot resolve {}: {}", host, ::gai_strerror(error)));
    }
    std::string last_error = "no address";
    int fd = -1;
    for (addrinfo* address = addresses; address != nullptr && fd < 0; address = address->ai_next)
    {
        fd = ::socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd < 0)
        {
            last_error = std::strerror(errno);
            continue;
        }
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        if (::bind(fd, address->ai_addr, address->ai_addrlen) != 0 || ::listen(fd, 1024) != 0)
        {
            last_error = std::strerror(errno);
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(addresses);
    if (fd < 0)
    {
        throw Exception(ErrorCode::kNetworkError,
                        fmt::format("Cannot listen on {}:{}: {}", host, port, last_error));
    }
    sockaddr_storage local{};
    socklen_t length = sizeof(local);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length);
    bound_port = local.ss_family == AF_INET6
                     ? ntohs(reinterpret_cast<sockaddr_in6*>(&local)->sin6_port)
                     : ntohs(reinterpret_cast<sockaddr_in*>(&local)->sin_port);
    return fd;
}

}  // namespace

Server::Server(ServerConfig config, std::shared_ptr<QueryHandler> handler)
    : config_(std::move(config)), handler_(std::move(handler))
{
}

Server::~Server()
{
    stop();
}

void Server::start()
{
    listen_fd_ = listenOn(config_.host, config_.port, bound_port_);
    acceptor_ = std::thread([this] { acceptLoop(); });
}

void Server::stop()
{
    stopping_ = true;
    if (acceptor_.joinable())
    {
        acceptor_.join();
    }
    if (listen_fd_ >= 0)
    {
        ::close(listen_fd_);
        listen_fd_ = -1;
    }
}

void Server::acceptLoop()
{
    while (!stopping_)
    {
        reapFinished();
        pollfd entry{listen_fd_, POLLIN, 0};
        if (::poll(&entry, 1, kAcceptPollMilliseconds) <= 0)
        {
            continue;
        }
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
        {
            continue;  // The peer left before accept, or descriptors ran out: try again.
        }
        ++accepted_;
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        if (active_.load() >= config_.max_connections)
        {
            refuse(fd);
            continue;
        }
        ++active_;
        auto worker = std::make_unique<Worker>();
        Worker* raw = worker.get();
        try
        {
            raw->thread = std::thread(
                [this, fd, raw]
                {
                    {
                        Connection connection(fd, config_, *handler_, stopping_);
                        connection.run();
                    }
                    --active_;
                    raw->done = true;
                });
        }
        catch (const std::system_error&)
        {
            --active_;
            refuse(fd);
            continue;
        }
        workers_.push_back(std::move(worker));
    }
    for (const std::unique_ptr<Worker>& worker : workers_)
    {
        worker->thread.join();
    }
    workers_.clear();
}

void Server::reapFinished()
{
    for (auto it = workers_.begin(); it != workers_.end();)
    {
        if ((*it)->done)
        {
            (*it)->thread.join();
            it = workers_.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

void Server::refuse(int fd)
{
    WriteBuffer out;
    writeException(out,
                   {static_cast<int32_t>(ErrorCode::kTooManyConnections),
                    std::string(errorCodeName(ErrorCode::kTooManyConnections)),
                    fmt::format("Too many connections: the limit is {}", config_.max_connections)});
    try
    {
        sendAll(fd, out.bytes(), kRefusalSendTimeout);
    }
    catch (const Exception&)
    {
        // The refused client is not reading; closing is all that is left.
    }
    ::close(fd);
}

}  // namespace granary::server
