#pragma once

#include <string>
#include <string_view>

#include "programs/clickbench/duckdb_client.h"
#include "programs/clickbench/suite_runner.h"

namespace granary::clickbench
{

/// DuckDB as the runner's engine. dropCaches has nothing to drop: an in-memory DuckDB database
/// keeps no query result cache.
class DuckDbEngine final : public QueryEngine
{
public:
    explicit DuckDbEngine(DuckDbClient& client) : client_(client) {}

    std::string name() const override { return "duckdb"; }
    TimedResult run(std::string_view sql) override { return client_.query(sql); }
    void dropCaches() override {}

private:
    DuckDbClient& client_;
};

}  // namespace granary::clickbench
