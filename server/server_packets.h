#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/columns/block.h"
#include "server/client_packets.h"
#include "server/protocol.h"
#include "server/query_handler.h"
#include "server/wire.h"

namespace granary::server
{

struct ServerHello
{
    std::string name = "Granary";
    uint64_t version_major = 0;
    uint64_t version_minor = 0;
    uint64_t revision = 0;
    std::string timezone = "UTC";
    std::string display_name = "granary";
    uint64_t version_patch = 0;
};

struct ExceptionPacket
{
    int32_t code = 0;
    std::string name;
    std::string message;
};

/// Increments since the previous Progress packet.
struct ProgressPacket
{
    uint64_t rows = 0;
    uint64_t bytes = 0;
    uint64_t total_rows = 0;
    uint64_t written_rows = 0;
    uint64_t written_bytes = 0;
};

struct ProfileInfoPacket
{
    uint64_t rows = 0;
    uint64_t blocks = 0;
    uint64_t bytes = 0;
    bool applied_limit = false;
    uint64_t rows_before_limit = 0;
    bool calculated_rows_before_limit = false;
};

/// The ProfileEvents block sent at the end of a query: one row per (thread, nonzero event).
struct ProfileEventsBlock
{
    std::string host_name;
    uint32_t current_time = 0;
    std::vector<ThreadProfileEvents> threads;
};

void writeServerHello(WriteBuffer& out, const ServerHello& hello, uint64_t revision);
void writeException(WriteBuffer& out, const ExceptionPacket& exception);
void writeProgress(WriteBuffer& out, const ProgressPacket& progress, uint64_t revision);
void writeProfileInfo(WriteBuffer& out, const ProfileInfoPacket& info);
void writePong(WriteBuffer& out);
void writeEndOfStream(WriteBuffer& out);
/// Data, Totals or Extremes: the block is compressed when `compressed`.
void writeBlockPacket(WriteBuffer& out, ServerPacket type, const Block& block, bool compressed);
/// Never compressed, as clients expect.
void writeProfileEvents(WriteBuffer& out, const ProfileEventsBlock& events);

/// A server packet as a client sees it (for tests and benchmark clients).
struct ReceivedBlock
{
    ServerPacket type = ServerPacket::kData;
    std::vector<std::string> type_names;
    Block block;  ///< Columns of types Granary does not have (Enum8) are read as raw Int8.
};
struct EndOfStreamPacket
{
};
struct PongPacket
{
};
using ServerMessage = std::variant<ServerHello, ExceptionPacket, ProgressPacket, ProfileInfoPacket,
                                   ReceivedBlock, EndOfStreamPacket, PongPacket>;
ServerMessage readServerPacket(ReadBuffer& in, uint64_t revision, bool compressed,
                               const ProtocolLimits& limits);

}  // namespace granary::server
