// A native-protocol server whose query ends with many packets, for the tail-latency
// reproduction: every query returns max(id) over ids 0..938 as one row, with totals, extremes
// and ProfileEvents for --profile-threads threads (one packet each). The SQL text is not
// parsed: this measures the protocol and TCP, not the engine.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "server/server.h"

namespace
{

using namespace granary;
using namespace granary::server;

Block maxId()
{
    Column column(TypeId::UInt64);
    column.append<uint64_t>(938);
    Block block;
    block.columns.push_back({"max(id)", std::move(column)});
    return block;
}

class ManyPacketEndHandler : public QueryHandler
{
public:
    explicit ManyPacketEndHandler(size_t threads) : threads_(threads) {}

    QueryOutcome run(const QueryRequest& request, const QueryCallbacks& callbacks,
                     const std::atomic<bool>& cancel) override
    {
        QueryOutcome outcome;
        outcome.progress.rows_read = 939;
        outcome.progress.bytes_read = 939 * sizeof(uint64_t);
        callbacks.on_progress(outcome.progress);
        callbacks.on_block(maxId());
        outcome.totals = maxId();
        outcome.extremes = maxId();
        for (size_t thread = 0; thread < threads_; ++thread)
        {
            ThreadProfileEvents events{1000 + thread, {}};
            events.counts[ProfileEvent::RowsRead] = 939 / threads_;
            events.counts[ProfileEvent::BytesRead] = 939 * 8 / threads_;
            events.counts[ProfileEvent::GranulesRead] = 1;
            events.counts[ProfileEvent::ArenaBytes] = 4096;
            outcome.profile_events.push_back(events);
        }
        return outcome;
    }

private:
    size_t threads_;
};

}  // namespace

int main(int argc, char** argv)
{
    CLI::App app{"Native-protocol server for the tail-latency reproduction"};
    ServerConfig config;
    size_t threads = 8;
    app.add_option("--host", config.host)->capture_default_str();
    app.add_option("--port", config.port)->capture_default_str();
    app.add_option("--profile-threads", threads, "ProfileEvents packets per query")
        ->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    Server server(config, std::make_shared<ManyPacketEndHandler>(threads));
    server.start();
    std::cerr << "tail_latency_server: listening on " << config.host << ":" << server.port()
              << std::endl;
    int received = 0;
    sigwait(&signals, &received);
    server.stop();
    return 0;
}
