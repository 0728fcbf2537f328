#include "server/server_config.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/common/exception.h"

namespace granary::server
{
namespace
{

/// Compares every byte whatever the first difference, so timing does not reveal a prefix.
bool equalInConstantTime(std::string_view left, std::string_view right)
{
    unsigned char difference = left.size() == right.size() ? 0 : 1;
    const size_t common = std::min(left.size(), right.size());
    for (size_t i = 0; i < common; ++i)
    {
        difference |= static_cast<unsigned char>(left[i] ^ right[i]);
    }
    return difference == 0;
}

std::chrono::milliseconds seconds(const nlohmann::json& value)
{
    return std::chrono::milliseconds(static_cast<int64_t>(value.get<double>() * 1000));
}

}  // namespace

bool UserTable::authenticate(std::string_view user, std::string_view password) const
{
    const auto found = passwords_.find(user);
    return found != passwords_.end() && equalInConstantTime(password, found->second);
}

void parseServerConfig(std::string_view json_text, ServerConfig& config)
{
    nlohmann::json root;
    try
    {
        root = nlohmann::json::parse(json_text);
        for (const auto& [key, value] : root.items())
        {
            if (key == "users")
            {
                std::map<std::string, std::string, std::less<>> passwords;
                for (const auto& [name, user] : value.items())
                {
                    passwords[name] = user.at("password").get<std::string>();
                }
                config.users = UserTable(std::move(passwords));
            }
            else if (key == "max_connections")
            {
                config.max_connections = value.get<size_t>();
            }
            else if (key == "idle_timeout_seconds")
            {
                config.idle_timeout = seconds(value);
            }
            else if (key == "receive_timeout_seconds")
            {
                config.receive_timeout = seconds(value);
            }
            else if (key == "send_timeout_seconds")
            {
                config.send_timeout = seconds(value);
            }
            else if (key == "handshake_timeout_seconds")
            {
                config.handshake_timeout = seconds(value);
            }
            else if (key == "shutdown_grace_seconds")
            {
                config.shutdown_grace = seconds(value);
            }
            else if (key == "max_query_size")
            {
                config.limits.max_query_bytes = value.get<size_t>();
            }
            else if (key == "max_block_bytes")
            {
                config.limits.block.max_bytes = value.get<size_t>();
            }
            else if (key == "http_max_body_bytes")
            {
                config.http_max_body_bytes = value.get<size_t>();
            }
            else if (key == "http_workers")
            {
                config.http_workers = value.get<size_t>();
            }
            else if (key == "batch_end_of_query")
            {
                config.batch_end_of_query = value.get<bool>();
            }
            else
            {
                throw Exception(ErrorCode::kBadArguments,
                                fmt::format("Unknown server config key '{}'", key));
            }
        }
    }
    catch (const nlohmann::json::exception& error)
    {
        throw Exception(ErrorCode::kBadArguments,
                        fmt::format("Server config is not valid: {}", error.what()));
    }
}

void loadServerConfig(const std::filesystem::path& path, ServerConfig& config)
{
    std::ifstream file(path);
    if (!file)
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        fmt::format("Cannot open server config {}", path.string()));
    }
    std::stringstream text;
    text << file.rdbuf();
    parseServerConfig(text.str(), config);
}

}  // namespace granary::server
