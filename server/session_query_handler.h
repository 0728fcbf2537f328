#pragma once

#include <memory>

#include "server/query_handler.h"

namespace granary
{
class Database;
}

namespace granary::server
{

/// Runs the server's queries with granary::Session over one data directory: one Session per
/// query, all over the same Database.
class SessionQueryHandler : public QueryHandler
{
public:
    explicit SessionQueryHandler(std::shared_ptr<Database> database);
    QueryOutcome run(const QueryRequest& request, const QueryCallbacks& callbacks,
                     const std::atomic<bool>& cancel) override;
    std::optional<Block> insertHeader(const QueryRequest& request) override;

private:
    std::shared_ptr<Database> database_;
};

}  // namespace granary::server
