#include "tests/server/http_test_support.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace granary::server::testing
{

std::string urlEncode(std::string_view text)
{
    std::string encoded;
    for (const char c : text)
    {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~')
        {
            encoded += c;
        }
        else
        {
            encoded += fmt::format("%{:02X}", byte);
        }
    }
    return encoded;
}

HttpTestServer::HttpTestServer(ServerConfig config) : database(Database::openInMemory())
{
    config.http_port = 0;
    server = std::make_unique<HttpServer>(config, std::make_shared<SessionQueryHandler>(database));
    server->start();
}

HttpTestServer::~HttpTestServer()
{
    server->stop();
}

httplib::Client HttpTestServer::client() const
{
    httplib::Client client("127.0.0.1", port());
    client.set_keep_alive(true);
    client.set_read_timeout(30, 0);
    return client;
}

httplib::Result HttpTestServer::post(std::string_view query, const std::string& body,
                                     std::string_view extra, const httplib::Headers& headers) const
{
    std::string path = "/?query=" + urlEncode(query);
    if (!extra.empty())
    {
        path += "&" + std::string(extra);
    }
    return client().Post(path, headers, body, "application/octet-stream");
}

uint64_t HttpTestServer::count(std::string_view table)
{
    Session session(database);
    return session.execute(fmt::format("SELECT count() FROM {}", table))
        .block.columns[0]
        .column.valueAt<uint64_t>(0);
}

RawConnection::RawConnection(uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0))
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    {
        close();
        throw std::runtime_error("cannot connect");
    }
}

RawConnection::~RawConnection()
{
    close();
}

void RawConnection::send(std::string_view bytes)
{
    size_t sent = 0;
    while (sent < bytes.size())
    {
        const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
        {
            return;
        }
        sent += static_cast<size_t>(n);
    }
}

bool RawConnection::receiveUntil(std::string_view marker, int timeout_ms)
{
    pollfd poll_fd{fd_, POLLIN, 0};
    char buffer[65536];
    while (received_.find(marker) == std::string::npos)
    {
        if (::poll(&poll_fd, 1, timeout_ms) <= 0)
        {
            return false;
        }
        const ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
        if (n <= 0)
        {
            return false;
        }
        received_.append(buffer, static_cast<size_t>(n));
    }
    return true;
}

void RawConnection::close()
{
    if (fd_ >= 0)
    {
        ::close(fd_);
        fd_ = -1;
    }
}

}  // namespace granary::server::testing
