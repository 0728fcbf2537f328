#pragma once

#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <variant>

#include "server/query_handler.h"

namespace granary::server
{

/// What a query thread hands to its connection thread: progress, result blocks, then the
/// outcome or the error. An eventfd wakes the connection thread, which also polls its socket.
class QueryEvents
{
public:
    struct Finished
    {
        std::optional<QueryOutcome> outcome;
        std::exception_ptr error;
    };
    using Event = std::variant<ProgressCounters, Block, Finished>;

    QueryEvents();
    ~QueryEvents();
    QueryEvents(const QueryEvents&) = delete;
    QueryEvents& operator=(const QueryEvents&) = delete;

    void push(Event event);
    /// Takes every queued event and clears the wake-up signal.
    std::deque<Event> drain();
    int wakeFd() const { return wake_fd_; }

private:
    int wake_fd_;
    std::mutex mutex_;
    std::deque<Event> events_;
};

}  // namespace granary::server
