#include "server/http_request.h"

#include <absl/strings/escaping.h>
#include <fmt/format.h>

#include <array>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "server/settings_catalog.h"

namespace granary::server
{
namespace
{

/// Parameters the interface consumes or has no use for, which are therefore not settings.
constexpr std::array<std::string_view, 12> kReservedParams = {
    "quota_key",     "stacktrace",      "buffer_size",   "wait_end_of_query",
    "session_id",    "session_timeout", "session_check", "client_protocol_version",
    "close_session", "query",           "database",      "default_format",
};

/// Settings clients send that change nothing here: responses are not HTTP-compressed, and
/// progress is not sent in headers. (async_insert and its companions are settings.)
constexpr std::array<std::string_view, 8> kIgnoredSettings = {
    "allow_experimental_json_type",
    "allow_experimental_object_type",
    "enable_http_compression",
    "send_progress_in_http_headers",
    "http_headers_progress_interval_ms",
    "output_format_json_quote_64bit_integers",
    "max_execution_time",
    "readonly",
};

template <size_t N>
bool isOneOf(std::string_view name, const std::array<std::string_view, N>& names)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

struct Credentials
{
    std::string user;
    std::string password;
};

std::optional<Credentials> basicCredentials(const HttpRequest& request)
{
    const std::optional<std::string_view> authorization = request.header("authorization");
    if (!authorization)
    {
        return std::nullopt;
    }
    constexpr std::string_view kBasic = "Basic ";
    std::string decoded;
    if (authorization->size() < kBasic.size() ||
        !equalsIgnoringCase(authorization->substr(0, kBasic.size()), kBasic) ||
        !absl::Base64Unescape(absl::string_view(authorization->data() + kBasic.size(),
                                                authorization->size() - kBasic.size()),
                              &decoded))
    {
        throw Exception(ErrorCode::kAuthenticationFailed,
                        "Authorization header is not HTTP Basic credentials");
    }
    const size_t colon = decoded.find(':');
    if (colon == std::string::npos)
    {
        throw Exception(ErrorCode::kAuthenticationFailed,
                        "HTTP Basic credentials have no ':' between user and password");
    }
    return Credentials{decoded.substr(0, colon), decoded.substr(colon + 1)};
}

/// The one way the request gives credentials; none: the default user.
void readCredentials(const HttpRequest& request, HttpQueryParams& params)
{
    std::vector<Credentials> given;
    const std::optional<std::string_view> header_user = request.header("x-clickhouse-user");
    const std::optional<std::string_view> header_key = request.header("x-clickhouse-key");
    if (header_user || header_key)
    {
        given.push_back(
            {std::string(header_user.value_or("default")), std::string(header_key.value_or(""))});
    }
    if (std::optional<Credentials> basic = basicCredentials(request))
    {
        given.push_back(std::move(*basic));
    }
    const std::optional<std::string_view> param_user = request.param("user");
    const std::optional<std::string_view> param_password = request.param("password");
    if (param_user || param_password)
    {
        given.push_back({std::string(param_user.value_or("default")),
                         std::string(param_password.value_or(""))});
    }
    if (given.size() > 1)
    {
        throw Exception(ErrorCode::kAuthenticationFailed,
                        "Credentials are given in more than one way (X-ClickHouse-User/-Key, "
                        "HTTP Basic, user/password parameters): use one");
    }
    if (!given.empty())
    {
        params.user = std::move(given.front().user);
        params.password = std::move(given.front().password);
    }
}

}  // namespace

std::optional<std::string_view> HttpRequest::param(std::string_view name) const
{
    for (const auto& [key, value] : params)
    {
        if (key == name)
        {
            return value;
        }
    }
    return std::nullopt;
}

std::optional<std::string_view> HttpRequest::header(std::string_view lower_case_name) const
{
    const auto found = headers.find(lower_case_name);
    if (found == headers.end())
    {
        return std::nullopt;
    }
    return found->second;
}

HttpQueryParams parseQueryParams(const HttpRequest& request)
{
    HttpQueryParams params;
    readCredentials(request, params);
    if (const auto query = request.param("query"))
    {
        params.query = std::string(*query);
    }
    params.database =
        request.param("database").value_or(request.header("x-clickhouse-database").value_or(""));
    params.query_id =
        request.param("query_id").value_or(request.header("x-clickhouse-query-id").value_or(""));
    params.default_format = request.param("default_format")
                                .value_or(request.header("x-clickhouse-format").value_or(""));
    for (const auto& [name, value] : request.params)
    {
        if (name == "compress")
        {
            params.compress = parseBoolSetting(name, value);
        }
        else if (name == "decompress")
        {
            params.decompress = parseBoolSetting(name, value);
        }
        else if (name.starts_with("param_"))
        {
            throw Exception(ErrorCode::kNotImplemented,
                            fmt::format("Query parameters ({}) are not supported", name));
        }
        else if (name != "user" && name != "password" && name != "query_id" &&
                 !isOneOf(name, kReservedParams) && !isOneOf(name, kIgnoredSettings))
        {
            params.settings[name] = value;
        }
    }
    return params;
}

}  // namespace granary::server
