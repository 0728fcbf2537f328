#include "engine/distributed/rank_exchange.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <optional>

#include "engine/common/exception.h"
#include "engine/distributed/block_wire.h"

namespace granary::distributed
{
namespace
{

/// A failure as agreement bytes: its code, a newline, its message; empty for success.
std::string encodeFailure(const std::exception_ptr& failure)
{
    if (!failure)
    {
        return {};
    }
    try
    {
        std::rethrow_exception(failure);
    }
    catch (const Exception& e)
    {
        return std::to_string(static_cast<int>(e.code())) + "\n" + e.what();
    }
    catch (const std::exception& e)
    {
        return std::to_string(static_cast<int>(ErrorCode::kLogicalError)) + "\n" + e.what();
    }
    catch (...)
    {
        return std::to_string(static_cast<int>(ErrorCode::kLogicalError)) +
               "\nan exception of an unknown type";
    }
}

Exception decodeFailure(size_t rank, std::string_view bytes)
{
    const size_t newline = bytes.find('\n');
    int code = static_cast<int>(ErrorCode::kLogicalError);
    std::from_chars(bytes.data(), bytes.data() + std::min(newline, bytes.size()), code);
    const std::string_view message =
        newline == std::string_view::npos ? bytes : bytes.substr(newline + 1);
    return Exception(static_cast<ErrorCode>(code),
                     "rank " + std::to_string(rank) + ": " + std::string(message));
}

}  // namespace

RankExchange::RankExchange(Transport& transport, ExchangeStats& stats)
    : transport_(transport), stats_(stats)
{
    stats_.ranks = transport_.ranks();
    stats_.rank = transport_.rank();
}

void RankExchange::agreeAfter(const std::function<void()>& work)
{
    std::exception_ptr failure;
    try
    {
        work();
    }
    catch (...)
    {
        failure = std::current_exception();
    }
    const std::vector<std::string> failures =
        timed([&] { return transport_.allGather(encodeFailure(failure)); });
    for (size_t rank = 0; rank < failures.size(); ++rank)
    {
        if (!failures[rank].empty())
        {
            throw decodeFailure(rank, failures[rank]);
        }
    }
}

void RankExchange::exchangeInRounds(
    std::vector<std::vector<std::string>> outgoing,
    const std::function<void(std::vector<ArrivedMessage>&)>& on_round)
{
    const size_t self = rank();
    size_t own_rounds = 0;
    for (size_t to = 0; to < outgoing.size(); ++to)
    {
        own_rounds = std::max(own_rounds, outgoing[to].size());
        for (const std::string& message : outgoing[to])
        {
            stats_.state_bytes += message.size();
        }
    }
    std::string own_rounds_bytes;
    appendWireValue<uint64_t>(own_rounds_bytes, own_rounds);
    size_t rounds = 0;
    const std::vector<std::string> ranks_rounds =
        timed([&] { return transport_.allGather(std::move(own_rounds_bytes)); });
    for (size_t from = 0; from < ranks_rounds.size(); ++from)
    {
        WireReader reader(ranks_rounds[from], "the round count from rank " + std::to_string(from));
        rounds = std::max<size_t>(rounds, reader.get<uint64_t>());
        reader.expectEnd();
    }
    stats_.rounds += rounds;
    for (size_t round = 0; round < rounds; ++round)
    {
        std::vector<std::string> sending(ranks());
        for (size_t to = 0; to < ranks(); ++to)
        {
            if (round < outgoing[to].size())
            {
                sending[to] = std::move(outgoing[to][round]);
                if (to != self)
                {
                    stats_.bytes_sent += sending[to].size();
                    ++stats_.messages_sent;
                }
            }
        }
        std::vector<std::string> received =
            timed([&] { return transport_.allToAll(std::move(sending)); });
        std::vector<ArrivedMessage> arrived;
        for (size_t from = 0; from < received.size(); ++from)
        {
            if (!received[from].empty())
            {
                if (from != self)
                {
                    stats_.bytes_received += received[from].size();
                }
                arrived.push_back({from, std::move(received[from])});
            }
        }
        on_round(arrived);
    }
}

std::vector<std::string> RankExchange::gatherAtRoot(std::string bytes)
{
    stats_.result_bytes += bytes.size();
    if (rank() != 0)
    {
        stats_.bytes_sent += bytes.size();
    }
    std::vector<std::string> gathered = timed([&] { return transport_.gather(std::move(bytes)); });
    for (size_t from = 1; from < gathered.size(); ++from)
    {
        stats_.bytes_received += gathered[from].size();
    }
    return gathered;
}

void RankExchange::gatherStatistics()
{
    std::string own;
    appendWireValue<uint64_t>(own, stats_.state_bytes);
    appendWireValue<uint64_t>(own, stats_.result_bytes);
    appendWireValue<uint64_t>(own, stats_.bytes_sent);
    appendWireValue<uint64_t>(own, stats_.bytes_received);
    appendWireValue<double>(own, stats_.local_seconds);
    appendWireValue<double>(own, stats_.exchange_seconds);
    // Not counted as traffic: the figures would change what they measure.
    const std::vector<std::string> gathered = transport_.gather(std::move(own));
    stats_.per_rank.clear();
    for (size_t from = 0; from < gathered.size(); ++from)
    {
        WireReader reader(gathered[from], "the statistics from rank " + std::to_string(from));
        ExchangeStats::Rank rank;
        rank.state_bytes = reader.get<uint64_t>();
        rank.result_bytes = reader.get<uint64_t>();
        rank.bytes_sent = reader.get<uint64_t>();
        rank.bytes_received = reader.get<uint64_t>();
        rank.local_seconds = reader.get<double>();
        rank.exchange_seconds = reader.get<double>();
        reader.expectEnd();
        stats_.per_rank.push_back(rank);
    }
}

}  // namespace granary::distributed
