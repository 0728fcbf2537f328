#include "server/socket_io.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "engine/common/exception.h"

namespace granary::server
{
namespace
{

constexpr size_t kReadBufferBytes = 64 << 10;

/// poll() for one event on one descriptor, retried on EINTR. Returns revents, 0 on timeout.
short pollOne(int fd, short events, std::chrono::milliseconds timeout)
{
    pollfd entry{fd, events, 0};
    for (;;)
    {
        const int ready = ::poll(&entry, 1, static_cast<int>(timeout.count()));
        if (ready >= 0)
        {
            return ready == 0 ? 0 : entry.revents;
        }
        if (errno != EINTR)
        {
            throw Exception(ErrorCode::kNetworkError,
                            fmt::format("poll failed: {}", std::strerror(errno)));
        }
    }
}

}  // namespace

SocketReadBuffer::SocketReadBuffer(int fd, std::chrono::milliseconds receive_timeout)
    : fd_(fd), receive_timeout_(receive_timeout), buffer_(kReadBufferBytes)
{
    position_ = end_ = buffer_.data();
}

bool SocketReadBuffer::waitReadable(std::chrono::milliseconds timeout)
{
    return buffered() > 0 || pollOne(fd_, POLLIN, timeout) != 0;
}

bool SocketReadBuffer::fill()
{
    for (;;)
    {
        if (pollOne(fd_, POLLIN, receive_timeout_) == 0)
        {
            throw Exception(ErrorCode::kTimeoutExceeded,
                            fmt::format("Client sent nothing for {} ms in the middle of a packet",
                                        receive_timeout_.count()));
        }
        const ssize_t received = ::recv(fd_, buffer_.data(), buffer_.size(), 0);
        if (received > 0)
        {
            position_ = buffer_.data();
            end_ = buffer_.data() + received;
            return true;
        }
        if (received == 0)
        {
            return false;
        }
        if (errno != EINTR && errno != EAGAIN)
        {
            throw Exception(ErrorCode::kNetworkError,
                            fmt::format("recv failed: {}", std::strerror(errno)));
        }
    }
}

void sendAll(int fd, std::string_view bytes, std::chrono::milliseconds timeout)
{
    while (!bytes.empty())
    {
        const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent > 0)
        {
            bytes.remove_prefix(static_cast<size_t>(sent));
            continue;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK)
        {
            if (pollOne(fd, POLLOUT, timeout) == 0)
            {
                throw Exception(ErrorCode::kTimeoutExceeded,
                                fmt::format("Client read nothing for {} ms", timeout.count()));
            }
            continue;
        }
        if (errno != EINTR)
        {
            throw Exception(ErrorCode::kNetworkError,
                            fmt::format("send failed: {}", std::strerror(errno)));
        }
    }
}

}  // namespace granary::server
