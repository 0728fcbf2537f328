#include "server/client_packets.h"

#include <fmt/format.h>

#include "engine/common/exception.h"
#include "server/compression.h"
#include "server/protocol.h"
#include "server/settings_catalog.h"

namespace granary::server
{
namespace
{

constexpr uint8_t kQueryKindNone = 0;
constexpr uint8_t kInterfaceTcp = 1;

ClientHello readHello(ReadBuffer& in, const ProtocolLimits& limits)
{
    ClientHello hello;
    hello.client_name = readString(in, limits.max_string_bytes, "client name");
    hello.version_major = readVarUInt(in, "client version major");
    hello.version_minor = readVarUInt(in, "client version minor");
    hello.revision = readVarUInt(in, "client revision");
    hello.database = readString(in, limits.max_string_bytes, "default database");
    hello.user = readString(in, limits.max_string_bytes, "user");
    hello.password = readString(in, limits.max_string_bytes, "password");
    return hello;
}

/// The client info of a Query: who sent it. Only the client name is kept.
void readClientInfo(ReadBuffer& in, uint64_t revision, const ProtocolLimits& limits,
                    QueryPacket& query)
{
    const size_t max = limits.max_string_bytes;
    if (readFixed<uint8_t>(in, "query kind") == kQueryKindNone)
    {
        return;
    }
    readString(in, max, "initial user");
    readString(in, max, "initial query id");
    readString(in, max, "initial address");
    if (revision >= revision::kWithInitialQueryStartTime)
    {
        readFixed<uint64_t>(in, "initial query start time");
    }
    const uint8_t interface = readFixed<uint8_t>(in, "client interface");
    if (interface != kInterfaceTcp)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        fmt::format("Client info names interface {}, not TCP (1)", interface));
    }
    readString(in, max, "OS user");
    readString(in, max, "client host name");
    query.client_name = readString(in, max, "client name");
    readVarUInt(in, "client version major");
    readVarUInt(in, "client version minor");
    readVarUInt(in, "client revision");
    if (revision >= revision::kWithQuotaKeyInClientInfo)
    {
        readString(in, max, "quota key");
    }
    if (revision >= revision::kWithDistributedDepth)
    {
        readVarUInt(in, "distributed depth");
    }
    if (revision >= revision::kWithVersionPatch)
    {
        readVarUInt(in, "client version patch");
    }
    if (revision >= revision::kWithOpenTelemetry && readFixed<uint8_t>(in, "trace flag") != 0)
    {
        readFixed<uint64_t>(in, "trace id");
        readFixed<uint64_t>(in, "trace id");
        readFixed<uint64_t>(in, "span id");
        readString(in, max, "trace state");
        readFixed<uint8_t>(in, "trace flags");
    }
    if (revision >= revision::kWithParallelReplicas)
    {
        readVarUInt(in, "collaborate_with_initiator");
        readVarUInt(in, "count_participating_replicas");
        readVarUInt(in, "number_of_current_replica");
    }
}

void readSettings(ReadBuffer& in, uint64_t revision, const ProtocolLimits& limits,
                  QueryPacket& query)
{
    for (;;)
    {
        std::string name = readString(in, limits.max_string_bytes, "setting name");
        if (name.empty())
        {
            return;
        }
        if (query.settings.size() >= limits.max_settings)
        {
            throw Exception(ErrorCode::kTooLargeSize,
                            fmt::format("Query has more than {} settings", limits.max_settings));
        }
        std::string value;
        if (revision >= revision::kWithSettingsAsStrings)
        {
            readVarUInt(in, "setting flags");
            value = readString(in, limits.max_string_bytes, "setting value");
        }
        else
        {
            // A binary value's length depends on its type: an unknown name cannot be skipped.
            const std::optional<SettingWireKind> kind = settingWireKind(name);
            if (!kind)
            {
                throw Exception(ErrorCode::kUnknownSetting,
                                fmt::format("Unknown setting {}", name));
            }
            value = readBinarySettingValue(in, *kind, limits.max_string_bytes);
        }
        query.settings.emplace_back(std::move(name), std::move(value));
    }
}

QueryPacket readQuery(ReadBuffer& in, uint64_t revision, const ProtocolLimits& limits)
{
    QueryPacket query;
    query.query_id = readString(in, limits.max_string_bytes, "query id");
    if (revision >= revision::kWithClientInfo)
    {
        readClientInfo(in, revision, limits, query);
    }
    readSettings(in, revision, limits, query);
    if (revision >= revision::kWithInterserverSecret)
    {
        readString(in, limits.max_string_bytes, "interserver secret");
    }
    query.stage = readVarUInt(in, "query stage");
    query.compression = readVarUInt(in, "compression flag") != 0;
    const uint64_t size = readVarUInt(in, "query text length");
    if (size > limits.max_query_bytes)
    {
        throw Exception(ErrorCode::kQueryIsTooLarge,
                        fmt::format("Query is {} bytes, more than the limit of {}", size,
                                    limits.max_query_bytes));
    }
    query.sql.resize(size);
    in.readBytes(query.sql.data(), size, "query text");
    return query;
}

DataPacket readData(ReadBuffer& in, uint64_t revision, bool compressed,
                    const ProtocolLimits& limits)
{
    DataPacket packet;
    if (revision >= revision::kWithTemporaryTables)
    {
        packet.table_name = readString(in, limits.max_string_bytes, "temporary table name");
    }
    if (!compressed)
    {
        packet.block = readNativeBlock(in, limits.block);
        return packet;
    }
    CompressedReadBuffer decompressed(in, limits.max_frame_bytes);
    packet.block = readNativeBlock(decompressed, limits.block);
    if (decompressed.buffered() != 0)
    {
        throw Exception(ErrorCode::kCannotParseInput,
                        "Compressed Data packet has bytes after its block");
    }
    return packet;
}

}  // namespace

ClientMessage readClientPacket(ReadBuffer& in, uint64_t revision, bool compressed_data,
                               const ProtocolLimits& limits)
{
    const uint64_t type = readVarUInt(in, "packet type");
    switch (static_cast<ClientPacket>(type))
    {
        case ClientPacket::kHello:
            return readHello(in, limits);
        case ClientPacket::kQuery:
            return readQuery(in, revision, limits);
        case ClientPacket::kData:
            return readData(in, revision, compressed_data, limits);
        case ClientPacket::kCancel:
            return CancelPacket{};
        case ClientPacket::kPing:
            return PingPacket{};
        case ClientPacket::kTablesStatusRequest:
            break;
    }
    throw Exception(ErrorCode::kUnknownPacketFromClient,
                    fmt::format("Unknown packet {} from client", type));
}

void writeClientHello(WriteBuffer& out, const ClientHello& hello)
{
    writeVarUInt(out, static_cast<uint64_t>(ClientPacket::kHello));
    writeString(out, hello.client_name);
    writeVarUInt(out, hello.version_major);
    writeVarUInt(out, hello.version_minor);
    writeVarUInt(out, hello.revision);
    writeString(out, hello.database);
    writeString(out, hello.user);
    writeString(out, hello.password);
}

void writeQueryPacket(WriteBuffer& out, const QueryPacket& query, uint64_t revision)
{
    writeVarUInt(out, static_cast<uint64_t>(ClientPacket::kQuery));
    writeString(out, query.query_id);
    if (revision >= revision::kWithClientInfo)
    {
        writeFixed<uint8_t>(out, kQueryKindNone);
    }
    for (const auto& [name, value] : query.settings)
    {
        writeString(out, name);
        if (revision >= revision::kWithSettingsAsStrings)
        {
            writeVarUInt(out, 0);
            writeString(out, value);
        }
        else if (settingWireKind(name) == SettingWireKind::kUnsigned)
        {
            writeVarUInt(out, parseUnsignedSetting(name, value));
        }
        else
        {
            writeString(out, value);
        }
    }
    writeString(out, "");
    if (revision >= revision::kWithInterserverSecret)
    {
        writeString(out, "");
    }
    writeVarUInt(out, query.stage);
    writeVarUInt(out, query.compression ? 1 : 0);
    writeString(out, query.sql);
}

void writeClientDataPacket(WriteBuffer& out, const Block& block, bool compressed)
{
    writeVarUInt(out, static_cast<uint64_t>(ClientPacket::kData));
    writeString(out, "");
    if (!compressed)
    {
        writeNativeBlock(out, nativeColumns(block), block.rows());
        return;
    }
    WriteBuffer body;
    writeNativeBlock(body, nativeColumns(block), block.rows());
    compressFrames(body.bytes(), out);
}

}  // namespace granary::server
