#pragma once

#include <httplib.h>

#include <memory>
#include <string>
#include <string_view>

#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "server/http_server.h"
#include "server/session_query_handler.h"

namespace granary::server::testing
{

/// Percent-encodes a URL parameter value.
std::string urlEncode(std::string_view text);

/// An HTTP interface on a free loopback port over an in-memory database, stopped on
/// destruction.
struct HttpTestServer
{
    explicit HttpTestServer(ServerConfig config = {});
    ~HttpTestServer();

    uint16_t port() const { return server->port(); }
    httplib::Client client() const;
    /// POSTs `body` to /?query=<query>&<extra> (extra already encoded).
    httplib::Result post(std::string_view query, const std::string& body,
                         std::string_view extra = {}, const httplib::Headers& headers = {}) const;
    /// count() of a table, straight from the engine.
    uint64_t count(std::string_view table);

    std::shared_ptr<Database> database;
    std::unique_ptr<HttpServer> server;
};

/// A plain TCP connection for requests no HTTP client library would send.
class RawConnection
{
public:
    explicit RawConnection(uint16_t port);
    ~RawConnection();
    void send(std::string_view bytes);
    /// Reads until `marker` has arrived (true) or `timeout_ms` passes without data or the
    /// server closes (false); everything read is in received().
    bool receiveUntil(std::string_view marker, int timeout_ms = 5000);
    /// Closes the connection without reading the answer.
    void close();
    const std::string& received() const { return received_; }

private:
    int fd_ = -1;
    std::string received_;
};

}  // namespace granary::server::testing
