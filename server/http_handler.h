#pragma once

#include <cstddef>
#include <string>

#include "server/http_request.h"
#include "server/query_handler.h"
#include "server/server_config.h"
#include "server/worker_pool.h"

namespace granary::server
{

/// ClickHouse's HTTP interface over a QueryHandler: `GET /` and `/ping` answer "Ok.\n"; a
/// query comes in `query=` and/or the body (joined by a newline); `INSERT ... FORMAT name`
/// takes the rest of that text as its data; `SELECT ... [FORMAT name]` answers in that format
/// (else default_format, else TabSeparated). Bodies are decoded (Content-Encoding, then
/// decompress=1 frames) and queries run on the worker pool. Errors answer with ClickHouse's
/// status, X-ClickHouse-Exception-Code and `Code: N. DB::Exception: ...` body.
class HttpHandler
{
public:
    HttpHandler(const ServerConfig& config, QueryHandler& handler);

    /// Never throws: every failure is an error response.
    HttpResponse handle(HttpRequest request);

private:
    HttpResponse runQuery(HttpRequest& request);
    /// The body after its Content-Encoding and, with decompress=1, its frames.
    std::string decodeBody(HttpRequest& request, const HttpQueryParams& params) const;

    const ServerConfig& config_;
    QueryHandler& handler_;
    WorkerPool workers_;
};

}  // namespace granary::server
