#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/columns/block.h"
#include "server/native_block.h"
#include "server/wire.h"

namespace granary::server
{

/// Bounds on what a client may send; anything larger closes the connection.
struct ProtocolLimits
{
    size_t max_string_bytes = 1 << 16;  ///< Names, users, passwords, ids, setting values.
    size_t max_query_bytes = 1 << 20;
    size_t max_settings = 1024;
    size_t max_frame_bytes = 64 << 20;  ///< One compressed frame, compressed or not.
    NativeBlockLimits block;
};

struct ClientHello
{
    std::string client_name;
    uint64_t version_major = 0;
    uint64_t version_minor = 0;
    uint64_t revision = 0;
    std::string database;
    std::string user;
    std::string password;
};

struct QueryPacket
{
    std::string query_id;
    std::string client_name;  ///< From the client info, when sent.
    std::vector<std::pair<std::string, std::string>> settings;
    uint64_t stage = 0;
    bool compression = false;
    std::string sql;
};

struct DataPacket
{
    std::string table_name;
    Block block;
};

struct CancelPacket
{
};
struct PingPacket
{
};

using ClientMessage = std::variant<ClientHello, QueryPacket, DataPacket, CancelPacket, PingPacket>;

/// Reads the next packet. `revision` is the negotiated one (any value before Hello: a Hello
/// does not depend on it); `compressed_data` says whether Data blocks arrive compressed (as
/// the last Query asked). Malformed input throws granary::Exception.
ClientMessage readClientPacket(ReadBuffer& in, uint64_t revision, bool compressed_data,
                               const ProtocolLimits& limits);

/// The writers a client uses; tests and the benchmark client speak through them.
void writeClientHello(WriteBuffer& out, const ClientHello& hello);
void writeQueryPacket(WriteBuffer& out, const QueryPacket& query, uint64_t revision);
void writeClientDataPacket(WriteBuffer& out, const Block& block, bool compressed);

}  // namespace granary::server
