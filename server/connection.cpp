#include "server/connection.h"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "engine/common/exception.h"
#include "server/protocol.h"
#include "server/query_events.h"
#include "server/settings_catalog.h"

namespace granary::server
{
namespace
{

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kStopCheckInterval{100};
constexpr std::chrono::microseconds kDefaultInteractiveDelay{100'000};

/// The error of a packet the connection did not expect at this point.
Exception unexpectedPacket(std::string_view what, std::string_view expected)
{
    return Exception(ErrorCode::kUnexpectedPacketFromClient,
                     fmt::format("Unexpected {} from client, expected {}", what, expected));
}

std::string_view messageName(const ClientMessage& message)
{
    constexpr std::string_view kNames[] = {"Hello", "Query", "Data", "Cancel", "Ping"};
    return kNames[message.index()];
}

std::string hostName()
{
    char name[256] = {};
    ::gethostname(name, sizeof(name) - 1);
    return name;
}

}  // namespace

/// Everything about the query being served.
struct Connection::QueryState
{
    QueryRequest request;
    bool compression = false;
    bool batch_end_of_query = true;
    std::chrono::microseconds interactive_delay = kDefaultInteractiveDelay;
    std::atomic<bool> cancel{false};
    bool header_sent = false;
    size_t blocks_sent = 0;
    size_t rows_sent = 0;
    size_t bytes_sent = 0;
    ProgressCounters progress_sent;  ///< Cumulative counters already reported to the client.
    Clock::time_point last_progress = Clock::now();
};

Connection::Connection(int fd, const ServerConfig& config, QueryHandler& handler,
                       const std::atomic<bool>& stopping)
    : fd_(fd),
      config_(config),
      handler_(handler),
      stopping_(stopping),
      in_(fd, config.receive_timeout)
{
}

Connection::~Connection()
{
    ::close(fd_);
}

void Connection::run()
{
    try
    {
        if (!handshake())
        {
            return;
        }
        while (waitForPacket())
        {
            ClientMessage message = readClientPacket(in_, revision_, false, config_.limits);
            if (auto* query = std::get_if<QueryPacket>(&message))
            {
                serveQuery(std::move(*query));
            }
            else if (std::holds_alternative<PingPacket>(message))
            {
                writePong(out_);
                flush();
            }
            else if (!std::holds_alternative<CancelPacket>(message))
            {
                // A Cancel that arrives after its query ended is harmless; anything else is not.
                throw unexpectedPacket(messageName(message), "Query or Ping");
            }
        }
    }
    catch (const Exception& error)
    {
        sendException(error);
    }
    catch (const std::exception& error)
    {
        sendException(Exception(ErrorCode::kLogicalError, error.what()));
    }
}

bool Connection::handshake()
{
    if (!in_.waitReadable(config_.handshake_timeout))
    {
        return false;
    }
    ClientMessage message = readClientPacket(in_, 0, false, config_.limits);
    auto* hello = std::get_if<ClientHello>(&message);
    if (hello == nullptr)
    {
        throw unexpectedPacket(messageName(message), "Hello");
    }
    if (!config_.users.authenticate(hello->user, hello->password))
    {
        throw Exception(ErrorCode::kAuthenticationFailed,
                        fmt::format("{}: Authentication failed: password is incorrect, or there "
                                    "is no user with such name",
                                    hello->user));
    }
    revision_ = std::min(hello->revision, kServerRevision);
    user_ = hello->user;
    database_ = hello->database;
    ServerHello reply;
    reply.version_major = kServerVersionMajor;
    reply.version_minor = kServerVersionMinor;
    reply.version_patch = kServerVersionPatch;
    reply.revision = kServerRevision;
    writeServerHello(out_, reply, revision_);
    flush();
    return true;
}

bool Connection::waitForPacket()
{
    const Clock::time_point deadline = Clock::now() + config_.idle_timeout;
    for (;;)
    {
        // A packet the client sent before the server began stopping is still served: stopping
        // only ends the wait for packets that have not arrived yet.
        const bool stopping = stopping_.load(std::memory_order_relaxed);
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const auto wait = stopping
                              ? std::chrono::milliseconds(0)
                              : std::clamp(left, std::chrono::milliseconds(0), kStopCheckInterval);
        if (in_.waitReadable(wait))
        {
            return !in_.eof();
        }
        if (stopping || left.count() <= 0)
        {
            return false;
        }
    }
}

void Connection::serveQuery(QueryPacket query)
{
    QueryState state;
    state.compression = query.compression;
    state.batch_end_of_query = config_.batch_end_of_query;
    state.request.query_id = std::move(query.query_id);
    state.request.sql = std::move(query.sql);
    state.request.user = user_;
    state.request.database = database_;
    state.request.threads = config_.threads;

    // The client follows its Query with the external tables' Data packets, the last one empty.
    ClientMessage next = readClientPacket(in_, revision_, state.compression, config_.limits);
    auto* data = std::get_if<DataPacket>(&next);
    if (data == nullptr)
    {
        throw unexpectedPacket(messageName(next), "the empty Data packet that ends a Query");
    }
    if (data->block.rows() != 0 || !data->block.columns.empty())
    {
        throw Exception(ErrorCode::kNotImplemented,
                        fmt::format("External table '{}' sent with a query: Granary's server "
                                    "does not take external tables",
                                    data->table_name));
    }

    try
    {
        if (query.stage != kQueryStageComplete)
        {
            throw Exception(ErrorCode::kNotImplemented,
                            fmt::format("Query processing stage {} is not served, only "
                                        "Complete (2)",
                                        query.stage));
        }
        for (auto& [name, value] : query.settings)
        {
            if (name == kBatchEndOfQuerySetting)
            {
                state.batch_end_of_query = parseBoolSetting(name, value);
            }
            else if (name == kMaxThreadsSetting)
            {
                state.request.threads = parseUnsignedSetting(name, value);
            }
            else if (name == kInteractiveDelaySetting)
            {
                state.interactive_delay =
                    std::chrono::microseconds(parseUnsignedSetting(name, value));
            }
            else if (name != kSendLogsLevelSetting)  // No server logs are sent at any level.
            {
                state.request.settings[name] = std::move(value);
            }
        }
    }
    catch (const Exception& error)
    {
        // A query-level error: the connection stays usable.
        sendException(error);
        return;
    }
    if (!receiveInsertBlocks(state))
    {
        return;
    }
    streamQuery(state);
}

bool Connection::receiveInsertBlocks(QueryState& state)
{
    std::optional<Block> header;
    try
    {
        header = handler_.insertHeader(state.request);
    }
    catch (const Exception& error)
    {
        sendException(error);
        return false;
    }
    if (!header)
    {
        return true;
    }
    // The client sends its rows as blocks of the header's columns, then an empty block.
    writeBlockPacket(out_, ServerPacket::kData, *header, state.compression);
    flush();
    std::vector<Block> blocks;
    for (;;)
    {
        ClientMessage message = readClientPacket(in_, revision_, state.compression, config_.limits);
        auto* data = std::get_if<DataPacket>(&message);
        if (data == nullptr)
        {
            throw unexpectedPacket(messageName(message), "the Data packets of an INSERT");
        }
        if (data->block.columns.empty())
        {
            break;
        }
        blocks.push_back(std::move(data->block));
    }
    state.request.insert_blocks = std::move(blocks);
    return true;
}

void Connection::streamQuery(QueryState& state)
{
    QueryEvents events;
    QueryCallbacks callbacks;
    callbacks.on_progress = [&events](const ProgressCounters& progress) { events.push(progress); };
    callbacks.on_block = [&events](Block block) { events.push(std::move(block)); };
    std::thread worker(
        [&]
        {
            QueryEvents::Finished finished;
            try
            {
                finished.outcome = handler_.run(state.request, callbacks, state.cancel);
            }
            catch (...)
            {
                finished.error = std::current_exception();
            }
            events.push(std::move(finished));
        });

    std::optional<QueryEvents::Finished> finished;
    std::exception_ptr connection_error;
    bool client_gone = false;
    std::optional<Clock::time_point> stop_seen;
    while (!finished)
    {
        if (stopping_.load(std::memory_order_relaxed) && !state.cancel)
        {
            stop_seen = stop_seen.value_or(Clock::now());
            if (Clock::now() - *stop_seen > config_.shutdown_grace)
            {
                state.cancel = true;
            }
        }
        pollfd fds[2] = {{events.wakeFd(), POLLIN, 0}, {fd_, POLLIN, 0}};
        const nfds_t watched = client_gone || connection_error ? 1 : 2;
        if (in_.buffered() == 0)
        {
            ::poll(fds, watched, static_cast<int>(kStopCheckInterval.count()));
        }
        if (watched == 2 && (in_.buffered() > 0 || fds[1].revents != 0))
        {
            try
            {
                if (in_.eof())
                {
                    client_gone = true;
                    state.cancel = true;
                }
                else
                {
                    ClientMessage message =
                        readClientPacket(in_, revision_, state.compression, config_.limits);
                    if (!std::holds_alternative<CancelPacket>(message))
                    {
                        throw unexpectedPacket(messageName(message), "Cancel during a query");
                    }
                    state.cancel = true;
                }
            }
            catch (...)
            {
                connection_error = std::current_exception();
                state.cancel = true;
            }
        }
        for (QueryEvents::Event& event : events.drain())
        {
            if (auto* block = std::get_if<Block>(&event))
            {
                if (!client_gone && !connection_error && !state.cancel)
                {
                    sendBlock(state, ServerPacket::kData, *block);
                    flush();
                }
            }
            else if (auto* progress = std::get_if<ProgressCounters>(&event))
            {
                if (!client_gone && !connection_error && !state.cancel &&
                    Clock::now() - state.last_progress >= state.interactive_delay)
                {
                    sendProgress(state, *progress);
                    flush();
                }
            }
            else
            {
                finished = std::move(std::get<QueryEvents::Finished>(event));
            }
        }
    }
    worker.join();

    if (connection_error)
    {
        std::rethrow_exception(connection_error);
    }
    if (client_gone)
    {
        throw Exception(ErrorCode::kNetworkError, "Client closed the connection during a query");
    }
    if (state.cancel)
    {
        // Cancelled queries end their stream like finished ones, without an error.
        writeEndOfStream(out_);
        flush();
        return;
    }
    if (finished->error)
    {
        try
        {
            std::rethrow_exception(finished->error);
        }
        catch (const Exception& error)
        {
            sendException(error);
        }
        catch (const std::exception& error)
        {
            sendException(Exception(ErrorCode::kLogicalError, error.what()));
        }
        return;
    }
    sendEndOfQuery(state, *finished->outcome);
}

void Connection::sendEndOfQuery(QueryState& state, const QueryOutcome& outcome)
{
    if (!state.header_sent && !outcome.header.columns.empty())
    {
        sendBlock(state, ServerPacket::kData, outcome.header);
        flush();
    }
    // Everything after the last Data block goes out in one write unless batching is off,
    // where each packet is its own write (and, with TCP_NODELAY, its own segment).
    const auto packetDone = [&]
    {
        if (!state.batch_end_of_query)
        {
            flush();
        }
    };
    if (outcome.totals)
    {
        sendBlock(state, ServerPacket::kTotals, *outcome.totals);
        packetDone();
    }
    if (outcome.extremes)
    {
        sendBlock(state, ServerPacket::kExtremes, *outcome.extremes);
        packetDone();
    }
    if (state.request.insert_blocks)
    {
        // After an INSERT's blocks clients wait for EndOfStream alone (clickhouse-client 18.16
        // and clickhouse-driver reject ProfileInfo there).
        writeEndOfStream(out_);
        flush();
        return;
    }
    ProfileInfoPacket info;
    info.rows = state.rows_sent;
    info.blocks = state.blocks_sent;
    info.bytes = state.bytes_sent;
    // "Not calculated" makes clients such as clickhouse-client 18.16 try to compute it from
    // their (absent) local streams, and crash.
    info.calculated_rows_before_limit = true;
    writeProfileInfo(out_, info);
    packetDone();
    sendProgress(state, outcome.progress);
    packetDone();
    if (revision_ >= revision::kWithProfileEvents)
    {
        const uint32_t now =
            static_cast<uint32_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
        for (const ThreadProfileEvents& thread : outcome.profile_events)
        {
            writeProfileEvents(out_, {hostName(), now, {thread}});
            packetDone();
        }
    }
    writeEndOfStream(out_);
    flush();
}

void Connection::sendBlock(QueryState& state, ServerPacket type, const Block& block)
{
    if (type == ServerPacket::kData && !state.header_sent)
    {
        Block header;
        for (const Block::Entry& entry : block.columns)
        {
            header.columns.push_back({entry.name, entry.column.emptyLike()});
        }
        state.header_sent = true;
        writeBlockPacket(out_, ServerPacket::kData, header, state.compression);
        if (block.rows() == 0)
        {
            return;
        }
        flush();
    }
    const size_t before = out_.size();
    writeBlockPacket(out_, type, block, state.compression);
    if (type == ServerPacket::kData)
    {
        ++state.blocks_sent;
        state.rows_sent += block.rows();
        state.bytes_sent += out_.size() - before;
    }
}

void Connection::sendProgress(QueryState& state, const ProgressCounters& now)
{
    const auto increase = [](size_t current, size_t& sent)
    {
        const size_t delta = current > sent ? current - sent : 0;
        sent = std::max(current, sent);
        return delta;
    };
    ProgressPacket packet;
    packet.rows = increase(now.rows_read, state.progress_sent.rows_read);
    packet.bytes = increase(now.bytes_read, state.progress_sent.bytes_read);
    packet.total_rows = increase(now.total_rows_to_read, state.progress_sent.total_rows_to_read);
    packet.written_rows = increase(now.rows_written, state.progress_sent.rows_written);
    packet.written_bytes = increase(now.bytes_written, state.progress_sent.bytes_written);
    writeProgress(out_, packet, revision_);
    state.last_progress = Clock::now();
}

void Connection::flush()
{
    if (out_.size() == 0)
    {
        return;
    }
    sendAll(fd_, out_.bytes(), config_.send_timeout);
    out_.clear();
}

void Connection::sendException(const Exception& error)
{
    try
    {
        out_.clear();
        writeException(out_, {static_cast<int32_t>(error.code()),
                              std::string(errorCodeName(error.code())), error.what()});
        flush();
    }
    catch (const std::exception&)
    {
        // The peer may be gone; there is no one left to tell.
    }
}

}  // namespace granary::server
