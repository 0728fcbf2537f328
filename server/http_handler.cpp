#include "server/http_handler.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <chrono>
#include <random>
#include <sstream>
#include <thread>

#include "engine/common/ascii.h"
#include "engine/formats/output_format.h"
#include "engine/ingest/insert_input.h"
#include "engine/sql/query_text.h"
#include "server/compression.h"
#include "server/http_body.h"
#include "server/http_errors.h"
#include "server/settings_catalog.h"

namespace granary::server
{
namespace
{

/// Statements a GET may run: ClickHouse treats GET as readonly.
constexpr std::array<std::string_view, 6> kReadOnlyStatements = {"SELECT", "SHOW",   "DESCRIBE",
                                                                 "DESC",   "EXISTS", "WITH"};

/// A query's text split from its data: `sql` without a trailing FORMAT clause, the INSERT's
/// data (a view into the body, or into `owned_data` when the query parameter held some).
struct RequestText
{
    std::string sql;
    std::optional<std::string> format;
    std::optional<std::string_view> insert_data;
    std::string owned_data;
};

RequestText splitRequestText(const std::optional<std::string>& query, const std::string& body)
{
    RequestText text;
    if (query)
    {
        // The parameter and the body are one text joined by a newline (ClickHouse's rule).
        const std::string head = *query + "\n";
        if (const std::optional<sql::InsertWithData> insert = sql::splitInsertData(head))
        {
            text.sql = std::string(insert->statement);
            const std::string_view rest = std::string_view(head).substr(insert->data_offset);
            if (rest.empty())
            {
                text.insert_data = body;
            }
            else
            {
                text.owned_data.reserve(rest.size() + body.size() + ingest::kInputPaddingBytes);
                text.owned_data.append(rest).append(body);
                text.insert_data = text.owned_data;
            }
            return text;
        }
    }
    else if (const std::optional<sql::InsertWithData> insert = sql::splitInsertData(body))
    {
        text.sql = std::string(insert->statement);
        text.insert_data = std::string_view(body).substr(insert->data_offset);
        return text;
    }
    const std::string whole = query ? (body.empty() ? *query : *query + "\n" + body) : body;
    const sql::QueryWithFormat split = sql::splitFormatClause(whole);
    text.sql = std::string(split.statement);
    text.format = split.format;
    return text;
}

void checkReadOnly(std::string_view sql)
{
    const std::string_view word = sql::leadingWord(sql);
    for (const std::string_view allowed : kReadOnlyStatements)
    {
        if (equalsIgnoringCase(word, allowed))
        {
            return;
        }
    }
    throw Exception(ErrorCode::kReadonly,
                    fmt::format("Cannot execute {} in readonly mode: a GET request may only "
                                "read (send it as POST)",
                                word));
}

std::string newQueryId()
{
    thread_local std::mt19937_64 random(std::random_device{}());
    const uint64_t high = random();
    const uint64_t low = random();
    return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                       high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFF);
}

std::string_view contentTypeOf(OutputFormat format)
{
    switch (format)
    {
        case OutputFormat::kJSON:
        case OutputFormat::kJSONEachRow:
            return "application/json; charset=UTF-8";
        case OutputFormat::kCSV:
        case OutputFormat::kCSVWithNames:
            return "text/csv; charset=UTF-8";
        case OutputFormat::kRowBinary:
        case OutputFormat::kRowBinaryWithNamesAndTypes:
            return "application/octet-stream";
        default:
            return "text/tab-separated-values; charset=UTF-8";
    }
}

HttpResponse errorResponse(ErrorCode code, std::string_view message)
{
    HttpResponse response;
    response.status = httpStatusForError(code);
    response.headers.emplace_back("X-ClickHouse-Exception-Code",
                                  std::to_string(static_cast<int>(code)));
    if (response.status == 401)
    {
        response.headers.emplace_back("WWW-Authenticate", "Basic realm=\"ClickHouse server\"");
    }
    response.body = httpErrorBody(code, message);
    return response;
}

/// Moves max_threads out of the settings into the request's thread count.
void takeThreads(QueryRequest& query)
{
    const auto found = query.settings.find(kMaxThreadsSetting);
    if (found != query.settings.end())
    {
        query.threads = parseUnsignedSetting(found->first, found->second);
        query.settings.erase(found);
    }
}

/// The result as `format`; an empty result still has its columns (JSON's meta, WithNames).
std::string formatResult(Block& result, QueryOutcome& outcome, OutputFormat format,
                         std::chrono::steady_clock::time_point start)
{
    if (result.columns.empty())
    {
        result = std::move(outcome.header);
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream out;
    writeBlock(result, format, out,
               {elapsed, outcome.progress.rows_read, outcome.progress.bytes_read},
               outcome.totals ? &*outcome.totals : nullptr);
    return std::move(out).str();
}

/// X-ClickHouse-Summary: every value a string, as ClickHouse writes them and clients parse.
std::string summaryOf(const ProgressCounters& progress, size_t written_bytes, size_t result_rows,
                      size_t result_bytes, std::chrono::steady_clock::time_point start)
{
    const auto elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count();
    return fmt::format(R"({{"read_rows":"{}","read_bytes":"{}","written_rows":"{}",)"
                       R"("written_bytes":"{}","total_rows_to_read":"{}","result_rows":"{}",)"
                       R"("result_bytes":"{}","elapsed_ns":"{}"}})",
                       progress.rows_read, progress.bytes_read, progress.rows_written,
                       written_bytes, progress.total_rows_to_read, result_rows, result_bytes,
                       elapsed_ns);
}

}  // namespace

HttpHandler::HttpHandler(const ServerConfig& config, QueryHandler& handler)
    : config_(config),
      handler_(handler),
      workers_(config.http_workers > 0 ? config.http_workers
                                       : std::max(1u, std::thread::hardware_concurrency()))
{
}

HttpResponse HttpHandler::handle(HttpRequest request)
{
    try
    {
        const bool has_query = request.param("query").has_value();
        if (request.path == "/ping" || (request.path == "/" && !has_query && request.body.empty()))
        {
            HttpResponse response;
            response.body = "Ok.\n";
            return response;
        }
        if (request.path != "/")
        {
            HttpResponse response;
            response.status = 404;
            response.body = fmt::format("There is no handle {}\n", request.path);
            return response;
        }
        return runQuery(request);
    }
    catch (const Exception& error)
    {
        return errorResponse(error.code(), error.what());
    }
    catch (const std::bad_alloc&)
    {
        return errorResponse(ErrorCode::kMemoryLimitExceeded, "out of memory");
    }
    catch (const std::exception& error)
    {
        return errorResponse(ErrorCode::kLogicalError, error.what());
    }
}

std::string HttpHandler::decodeBody(HttpRequest& request, const HttpQueryParams& params) const
{
    std::string body = decodeContentEncoding(request.header("content-encoding").value_or(""),
                                             std::move(request.body), config_.http_max_body_bytes);
    if (params.decompress)
    {
        body = decodeCompressedFrames(body, config_.limits.max_frame_bytes,
                                      config_.http_max_body_bytes);
    }
    body.reserve(body.size() + ingest::kInputPaddingBytes);  // free when already there
    return body;
}

HttpResponse HttpHandler::runQuery(HttpRequest& request)
{
    const auto start = std::chrono::steady_clock::now();
    const HttpQueryParams params = parseQueryParams(request);
    if (!config_.users.authenticate(params.user, params.password))
    {
        throw Exception(ErrorCode::kAuthenticationFailed,
                        fmt::format("{}: Authentication failed: password is incorrect, or there "
                                    "is no user with such name",
                                    params.user));
    }
    QueryRequest query;
    query.query_id = params.query_id.empty() ? newQueryId() : params.query_id;
    query.user = params.user;
    query.database = params.database;
    query.settings = params.settings;
    takeThreads(query);

    HttpResponse response;
    Block result;
    std::string format_name = "TabSeparated";
    size_t written_bytes = 0;
    const QueryOutcome outcome = workers_.run(
        [&]
        {
            const std::string body = decodeBody(request, params);
            const RequestText text = splitRequestText(params.query, body);
            if (sql::isBlank(text.sql))
            {
                throw Exception(ErrorCode::kSyntaxError, "Empty query");
            }
            if (request.method == "GET")
            {
                checkReadOnly(text.sql);
            }
            if (text.format || !params.default_format.empty())
            {
                format_name = text.format.value_or(params.default_format);
            }
            const OutputFormat format = outputFormatFromName(format_name);
            query.sql = text.sql;
            query.insert_data = text.insert_data;
            // Both places the data lies in keep kInputPaddingBytes of capacity past it.
            query.insert_data_padded = true;
            written_bytes = text.insert_data ? text.insert_data->size() : 0;
            const std::atomic<bool> never_cancelled{false};
            QueryCallbacks callbacks;
            callbacks.on_progress = [](const ProgressCounters&) {};
            callbacks.on_block = [&result](Block block) { appendBlock(result, block); };
            QueryOutcome done = handler_.run(query, callbacks, never_cancelled);
            if (!done.header.columns.empty())
            {
                response.body = formatResult(result, done, format, start);
                response.content_type = contentTypeOf(format);
            }
            if (params.compress)
            {
                WriteBuffer frames;
                compressFrames(response.body, frames);
                response.body = std::move(frames.bytes());
            }
            return done;
        });
    response.headers = {
        {"X-ClickHouse-Query-Id", query.query_id},
        {"X-ClickHouse-Format", format_name},
        {"X-ClickHouse-Timezone", "UTC"},
        {"X-ClickHouse-Server-Display-Name", "granary"},
        {"X-ClickHouse-Summary",
         summaryOf(outcome.progress, written_bytes, result.rows(), response.body.size(), start)},
    };
    return response;
}

}  // namespace granary::server
