#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace granary::server
{

/// An HTTP request as the HTTP interface sees it, independent of the library that read it.
struct HttpRequest
{
    std::string method;  ///< "GET", "POST"
    std::string path;
    /// Decoded URL parameters in order.
    std::vector<std::pair<std::string, std::string>> params;
    /// Header names lower-cased.
    std::map<std::string, std::string, std::less<>> headers;
    /// The body after the transfer coding (chunks) and any gzip/deflate/br Content-Encoding.
    std::string body;

    std::optional<std::string_view> param(std::string_view name) const;
    std::optional<std::string_view> header(std::string_view lower_case_name) const;
};

struct HttpResponse
{
    int status = 200;
    std::string content_type = "text/plain; charset=UTF-8";
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

/// What the URL parameters and headers of a query request say.
struct HttpQueryParams
{
    std::optional<std::string> query;  ///< `query=`
    std::string user = "default";
    std::string password;
    std::string database;
    std::string query_id;
    std::string default_format;  ///< `default_format=` or X-ClickHouse-Format; empty: TSV
    bool compress = false;       ///< Answer in compressed frames.
    bool decompress = false;     ///< The body is compressed frames.
    /// Every other parameter: settings for the query (those clients send that Granary has
    /// no use for are dropped here).
    std::map<std::string, std::string, std::less<>> settings;
};

/// Reads the parameters and headers of a query request. Credentials come from
/// X-ClickHouse-User/-Key, HTTP Basic or user=/password=; using two of these ways is
/// kAuthenticationFailed, as are malformed Basic credentials; `param_*` query parameters are
/// kNotImplemented.
HttpQueryParams parseQueryParams(const HttpRequest& request);

}  // namespace granary::server
