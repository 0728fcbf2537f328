// `granary server`: serves a data directory over the ClickHouse native protocol and the HTTP
// interface until SIGTERM or SIGINT, then shuts down gracefully.
#include <signal.h>

#include <iostream>
#include <memory>
#include <optional>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "programs/command_registry.h"
#include "server/http_server.h"
#include "server/server.h"
#include "server/session_query_handler.h"

namespace granary::programs
{
namespace
{

struct ServerOptions
{
    std::string data_dir;
    std::string config_path;
    std::optional<size_t> max_connections;
    std::optional<size_t> uncompressed_cache_size;
    bool no_http = false;
    server::ServerConfig config;
};

int runServer(ServerOptions& options)
{
    if (!options.config_path.empty())
    {
        const server::ServerConfig command_line = options.config;
        server::loadServerConfig(options.config_path, options.config);
        // Options given on the command line win over the file.
        options.config.host = command_line.host;
        options.config.port = command_line.port;
        options.config.http_port = command_line.http_port;
        options.config.threads = command_line.threads;
    }
    if (options.max_connections)
    {
        options.config.max_connections = *options.max_connections;
    }
    if (options.no_http)
    {
        options.config.http_port.reset();
    }
    // Signals are taken by sigwait below, on this thread only: block them before any thread
    // starts so that every thread inherits the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    const std::shared_ptr<Database> database = Session::openDatabase(options.data_dir);
    if (options.uncompressed_cache_size)
    {
        database->decodedCache().setMaxBytes(*options.uncompressed_cache_size);
    }
    // Collectors insert a batch per request: small parts are merged behind them.
    database->startBackgroundMerges();
    auto handler = std::make_shared<server::SessionQueryHandler>(database);
    server::Server server(options.config, handler);
    server.start();
    std::cerr << "granary server: listening on " << options.config.host << ":" << server.port()
              << std::endl;
    std::optional<server::HttpServer> http;
    if (options.config.http_port)
    {
        http.emplace(options.config, handler);
        http->start();
        std::cerr << "granary server: HTTP on " << options.config.host << ":" << http->port()
                  << std::endl;
    }
    int received = 0;
    sigwait(&signals, &received);
    std::cerr << "granary server: signal " << received << ", shutting down" << std::endl;
    if (http)
    {
        http->stop();
    }
    server.stop();
    return 0;
}

const CommandRegistrar kRegistrar{Command{
    "server", "Serve a data directory over the ClickHouse native protocol and HTTP",
    [](CLI::App& app) -> std::function<int()>
    {
        auto options = std::make_shared<ServerOptions>();
        app.add_option("--data", options->data_dir, "Data directory")->required();
        app.add_option("--port", options->config.port, "TCP port")->capture_default_str();
        app.add_option("--host", options->config.host, "Address to bind")->capture_default_str();
        app.add_option("--http-port", options->config.http_port,
                       "HTTP interface port (default 8123; 0: any free port)");
        app.add_flag("--no-http", options->no_http, "Serve the native protocol only");
        app.add_option("--config", options->config_path, "JSON file: users, limits, timeouts");
        app.add_option("--threads", options->config.threads, "Threads per query (0: all)");
        app.add_option("--max-connections", options->max_connections,
                       "Connections served at once (default 1024)");
        app.add_option("--uncompressed-cache-size", options->uncompressed_cache_size,
                       "Bytes of decoded chunks of compressed columns kept for later queries "
                       "(default: a quarter of memory, at most 8 GiB; 0: none)");
        return [options] { return runServer(*options); };
    }}};

}  // namespace
}  // namespace granary::programs
