#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "server/client_packets.h"

namespace granary::server
{

/// Users and their passwords. Without a config file there is one user, "default", with an
/// empty password.
class UserTable
{
public:
    UserTable() { passwords_.emplace("default", ""); }
    explicit UserTable(std::map<std::string, std::string, std::less<>> passwords)
        : passwords_(std::move(passwords))
    {
    }
    bool authenticate(std::string_view user, std::string_view password) const;

private:
    std::map<std::string, std::string, std::less<>> passwords_;
};

struct ServerConfig
{
    std::string host = "127.0.0.1";
    uint16_t port = 9000;  ///< 0: any free port (see Server::port()).
    /// The HTTP interface's port: 0 any free one; nullopt: no HTTP interface.
    std::optional<uint16_t> http_port = 8123;
    /// Largest HTTP request body, before and after decoding (413 past it).
    size_t http_max_body_bytes = size_t{1} << 30;
    /// Threads that decode HTTP bodies and run their queries; 0: one per hardware thread.
    size_t http_workers = 0;
    std::chrono::seconds http_keep_alive_timeout{30};
    size_t max_connections = 1024;
    size_t threads = 0;  ///< Per query; 0: the handler's default.
    std::chrono::milliseconds handshake_timeout{10'000};
    std::chrono::milliseconds idle_timeout{3'600'000};
    std::chrono::milliseconds receive_timeout{300'000};
    std::chrono::milliseconds send_timeout{300'000};
    /// After SIGTERM, running queries get this long before they are cancelled.
    std::chrono::milliseconds shutdown_grace{10'000};
    /// Default of the granary_batch_end_of_query setting.
    bool batch_end_of_query = true;
    ProtocolLimits limits;
    UserTable users;
};

/// Reads a JSON config: {"users": {"name": {"password": "..."}}, "max_connections": N,
/// "idle_timeout_seconds": N, "max_query_size": N, ...}. Unknown keys are errors.
void loadServerConfig(const std::filesystem::path& path, ServerConfig& config);
void parseServerConfig(std::string_view json_text, ServerConfig& config);

}  // namespace granary::server
