#include "server/query_events.h"

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/common/exception.h"

namespace granary::server
{

QueryEvents::QueryEvents() : wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    if (wake_fd_ < 0)
    {
        throw Exception(ErrorCode::kNetworkError,
                        fmt::format("eventfd failed: {}", std::strerror(errno)));
    }
}

QueryEvents::~QueryEvents()
{
    ::close(wake_fd_);
}

void QueryEvents::push(Event event)
{
    {
        std::lock_guard lock(mutex_);
        events_.push_back(std::move(event));
    }
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(wake_fd_, &one, sizeof(one));
}

std::deque<QueryEvents::Event> QueryEvents::drain()
{
    uint64_t count;
    [[maybe_unused]] const ssize_t read = ::read(wake_fd_, &count, sizeof(count));
    std::lock_guard lock(mutex_);
    return std::exchange(events_, {});
}

}  // namespace granary::server
