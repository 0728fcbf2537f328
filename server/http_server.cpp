#include "server/http_server.h"

#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/ingest/insert_input.h"
#include "server/http_errors.h"
#include "server/http_handler.h"

namespace granary::server
{
namespace
{

/// Requests one keep-alive connection may carry before the server closes it.
constexpr size_t kKeepAliveRequests = 1'000'000;

/// cpp-httplib listens with a backlog of 5, which drops connections when many clients connect
/// at once (64 inserters): the socket is listened on again with the system's maximum.
class ListeningServer : public httplib::Server
{
public:
    void widenBacklog() { ::listen(svr_sock_, SOMAXCONN); }
};

HttpRequest toRequest(const httplib::Request& from, std::string body)
{
    HttpRequest request;
    request.method = from.method;
    request.path = from.path;
    for (const auto& [name, value] : from.params)
    {
        request.params.emplace_back(name, value);
    }
    for (const auto& [name, value] : from.headers)
    {
        request.headers.emplace(lowerCaseAscii(name), value);
    }
    request.body = std::move(body);
    return request;
}

void toResponse(HttpResponse from, httplib::Response& to)
{
    to.status = from.status;
    for (const auto& [name, value] : from.headers)
    {
        to.set_header(name, value);
    }
    to.set_content(std::move(from.body), from.content_type);
}

}  // namespace

HttpServer::HttpServer(ServerConfig config, std::shared_ptr<QueryHandler> handler)
    : config_(std::move(config)), handler_(std::move(handler))
{
}

HttpServer::~HttpServer()
{
    stop();
}

void HttpServer::start()
{
    http_handler_ = std::make_unique<HttpHandler>(config_, *handler_);
    server_ = std::make_unique<ListeningServer>();
    const size_t connections = config_.max_connections;
    server_->new_task_queue = [connections] { return new httplib::ThreadPool(connections); };
    server_->set_keep_alive_max_count(kKeepAliveRequests);
    server_->set_keep_alive_timeout(config_.http_keep_alive_timeout.count());
    server_->set_read_timeout(
        std::chrono::duration_cast<std::chrono::seconds>(config_.receive_timeout).count());
    server_->set_write_timeout(
        std::chrono::duration_cast<std::chrono::seconds>(config_.send_timeout).count());
    server_->set_payload_max_length(config_.http_max_body_bytes);

    HttpHandler& handler = *http_handler_;
    server_->Get(".*", [&handler](const httplib::Request& request, httplib::Response& response)
                 { toResponse(handler.handle(toRequest(request, {})), response); });
    const size_t max_body_bytes = config_.http_max_body_bytes;
    server_->Post(
        ".*",
        [&handler, max_body_bytes](const httplib::Request& request, httplib::Response& response,
                                   const httplib::ContentReader& read_body)
        {
            std::string body;
            // Grown once to the announced size, never past the cap.
            const std::string length = request.get_header_value("Content-Length");
            size_t announced = 0;
            std::from_chars(length.data(), length.data() + length.size(), announced);
            body.reserve(std::min(announced, max_body_bytes) + ingest::kInputPaddingBytes);
            const bool complete = read_body(
                [&body](const char* data, size_t size)
                {
                    body.append(data, size);
                    return true;
                });
            if (!complete)
            {
                // A body past the cap (the library set 413), broken chunks, or a
                // client gone mid-body: nothing of it is run.
                if (response.status < 400)
                {
                    response.status = 400;
                }
                return;
            }
            toResponse(handler.handle(toRequest(request, std::move(body))), response);
        });
    // Failures the library answers itself (a body past the cap, a broken chunk) get a
    // ClickHouse-shaped body too.
    server_->set_error_handler(
        [](const httplib::Request&, httplib::Response& response)
        {
            if (!response.body.empty())
            {
                return;
            }
            const ErrorCode code = response.status == 413 ? ErrorCode::kQueryIsTooLarge
                                                          : ErrorCode::kCannotReadAllData;
            response.set_header("X-ClickHouse-Exception-Code",
                                std::to_string(static_cast<int>(code)));
            response.set_content(
                httpErrorBody(code,
                              fmt::format("HTTP request rejected with status {}", response.status)),
                "text/plain; charset=UTF-8");
        });

    const uint16_t port = config_.http_port.value_or(0);
    const int bound = port == 0 ? server_->bind_to_any_port(config_.host)
                                : (server_->bind_to_port(config_.host, port) ? port : -1);
    if (bound < 0)
    {
        throw Exception(ErrorCode::kNetworkError,
                        fmt::format("Cannot listen for HTTP on {}:{}", config_.host, port));
    }
    static_cast<ListeningServer&>(*server_).widenBacklog();
    bound_port_ = static_cast<uint16_t>(bound);
    listener_ = std::thread([this] { server_->listen_after_bind(); });
}

void HttpServer::stop()
{
    if (server_)
    {
        server_->stop();
    }
    if (listener_.joinable())
    {
        listener_.join();
    }
}

}  // namespace granary::server
