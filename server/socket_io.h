#pragma once

#include <chrono>
#include <string_view>
#include <vector>

#include "server/wire.h"

namespace granary::server
{

/// Reads a connected socket through a buffer. A read that waits longer than the receive
/// timeout throws Exception(kTimeoutExceeded); the peer closing mid-packet throws too.
class SocketReadBuffer : public ReadBuffer
{
public:
    SocketReadBuffer(int fd, std::chrono::milliseconds receive_timeout);

    /// True once a byte can be read without blocking; false if `timeout` passed first.
    bool waitReadable(std::chrono::milliseconds timeout);

protected:
    bool fill() override;

private:
    int fd_;
    std::chrono::milliseconds receive_timeout_;
    std::vector<char> buffer_;
};

/// Sends every byte (one send() call where the kernel takes them all), or throws
/// Exception(kNetworkError / kTimeoutExceeded).
void sendAll(int fd, std::string_view bytes, std::chrono::milliseconds timeout);

}  // namespace granary::server
