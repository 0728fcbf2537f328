#include "server/server_packets.h"

#include <fmt/format.h>

#include "engine/common/exception.h"
#include "engine/observe/profile_event.h"
#include "server/compression.h"
#include "server/native_block.h"
#include "server/protocol.h"

namespace granary::server
{
namespace
{

constexpr int8_t kProfileEventIncrement = 1;
constexpr std::string_view kProfileEventTypeName = "Enum8('increment' = 1, 'gauge' = 2)";

void writeType(WriteBuffer& out, ServerPacket type)
{
    writeVarUInt(out, static_cast<uint64_t>(type));
}

ServerHello readServerHello(ReadBuffer& in, const ProtocolLimits& limits)
{
    ServerHello hello;
    hello.name = readString(in, limits.max_string_bytes, "server name");
    hello.version_major = readVarUInt(in, "server version major");
    hello.version_minor = readVarUInt(in, "server version minor");
    hello.revision = readVarUInt(in, "server revision");
    if (hello.revision >= revision::kWithServerTimezone)
    {
        hello.timezone = readString(in, limits.max_string_bytes, "server timezone");
    }
    if (hello.revision >= revision::kWithServerDisplayName)
    {
        hello.display_name = readString(in, limits.max_string_bytes, "server display name");
    }
    if (hello.revision >= revision::kWithVersionPatch)
    {
        hello.version_patch = readVarUInt(in, "server version patch");
    }
    return hello;
}

/// ProfileEvents' Enum8 column is read as the Int8 it is stored as.
std::optional<DataType> resolveReceivedType(std::string_view type_name)
{
    return type_name.starts_with("Enum8(") ? std::optional<DataType>(TypeId::Int8)
                                           : nativeType(type_name);
}

ReceivedBlock readReceivedBlock(ReadBuffer& in, ServerPacket type, bool compressed,
                                const ProtocolLimits& limits)
{
    ReceivedBlock received;
    received.type = type;
    readString(in, limits.max_string_bytes, "temporary table name");
    if (!compressed)
    {
        received.block =
            readNativeBlock(in, limits.block, &resolveReceivedType, &received.type_names);
        return received;
    }
    CompressedReadBuffer body(in, limits.max_frame_bytes);
    received.block =
        readNativeBlock(body, limits.block, &resolveReceivedType, &received.type_names);
    return received;
}

}  // namespace

void writeServerHello(WriteBuffer& out, const ServerHello& hello, uint64_t revision)
{
    writeType(out, ServerPacket::kHello);
    writeString(out, hello.name);
    writeVarUInt(out, hello.version_major);
    writeVarUInt(out, hello.version_minor);
    writeVarUInt(out, hello.revision);
    if (revision >= revision::kWithServerTimezone)
    {
        writeString(out, hello.timezone);
    }
    if (revision >= revision::kWithServerDisplayName)
    {
        writeString(out, hello.display_name);
    }
    if (revision >= revision::kWithVersionPatch)
    {
        writeVarUInt(out, hello.version_patch);
    }
}

void writeException(WriteBuffer& out, const ExceptionPacket& exception)
{
    writeType(out, ServerPacket::kException);
    writeFixed<int32_t>(out, exception.code);
    writeString(out, exception.name);
    writeString(out, exception.message);
    writeString(out, "");         // Stack trace: none is sent.
    writeFixed<uint8_t>(out, 0);  // No nested exception.
}

void writeProgress(WriteBuffer& out, const ProgressPacket& progress, uint64_t revision)
{
    writeType(out, ServerPacket::kProgress);
    writeVarUInt(out, progress.rows);
    writeVarUInt(out, progress.bytes);
    if (revision >= revision::kWithTotalRowsInProgress)
    {
        writeVarUInt(out, progress.total_rows);
    }
    if (revision >= revision::kWithClientWriteInfo)
    {
        writeVarUInt(out, progress.written_rows);
        writeVarUInt(out, progress.written_bytes);
    }
}

void writeProfileInfo(WriteBuffer& out, const ProfileInfoPacket& info)
{
    writeType(out, ServerPacket::kProfileInfo);
    writeVarUInt(out, info.rows);
    writeVarUInt(out, info.blocks);
    writeVarUInt(out, info.bytes);
    writeFixed<uint8_t>(out, info.applied_limit ? 1 : 0);
    writeVarUInt(out, info.rows_before_limit);
    writeFixed<uint8_t>(out, info.calculated_rows_before_limit ? 1 : 0);
}

void writePong(WriteBuffer& out)
{
    writeType(out, ServerPacket::kPong);
}

void writeEndOfStream(WriteBuffer& out)
{
    writeType(out, ServerPacket::kEndOfStream);
}

void writeBlockPacket(WriteBuffer& out, ServerPacket type, const Block& block, bool compressed)
{
    writeType(out, type);
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

void writeProfileEvents(WriteBuffer& out, const ProfileEventsBlock& events)
{
    Column host(TypeId::String);
    Column time(TypeId::DateTime);
    Column thread(TypeId::UInt64);
    Column kind(TypeId::Int8);
    Column name(TypeId::String);
    Column value(TypeId::Int64);
    for (const ThreadProfileEvents& thread_events : events.threads)
    {
        for (size_t i = 0; i < kProfileEventCount; ++i)
        {
            const uint64_t count = thread_events.counts.values[i];
            if (count == 0)
            {
                continue;
            }
            host.appendString(events.host_name);
            time.append<uint32_t>(events.current_time);
            thread.append<uint64_t>(thread_events.thread_id);
            kind.append<int8_t>(kProfileEventIncrement);
            name.appendString(profileEventName(static_cast<ProfileEvent>(i)));
            value.append<int64_t>(static_cast<int64_t>(count));
        }
    }
    const std::vector<NativeColumn> columns = {
        {"host_name", "String", &host},   {"current_time", "DateTime", &time},
        {"thread_id", "UInt64", &thread}, {"type", std::string(kProfileEventTypeName), &kind},
        {"name", "String", &name},        {"value", "Int64", &value},
    };
    writeType(out, ServerPacket::kProfileEvents);
    writeString(out, "");
    writeNativeBlock(out, columns, host.size());
}

ServerMessage readServerPacket(ReadBuffer& in, uint64_t revision, bool compressed,
                               const ProtocolLimits& limits)
{
    const uint64_t type = readVarUInt(in, "server packet type");
    switch (static_cast<ServerPacket>(type))
    {
        case ServerPacket::kHello:
            return readServerHello(in, limits);
        case ServerPacket::kException:
        {
            ExceptionPacket exception;
            exception.code = readFixed<int32_t>(in, "exception code");
            exception.name = readString(in, limits.max_string_bytes, "exception name");
            exception.message = readString(in, limits.max_query_bytes, "exception message");
            readString(in, limits.max_query_bytes, "stack trace");
            readFixed<uint8_t>(in, "has nested");
            return exception;
        }
        case ServerPacket::kProgress:
        {
            ProgressPacket progress;
            progress.rows = readVarUInt(in, "progress rows");
            progress.bytes = readVarUInt(in, "progress bytes");
            if (revision >= revision::kWithTotalRowsInProgress)
            {
                progress.total_rows = readVarUInt(in, "progress total rows");
            }
            if (revision >= revision::kWithClientWriteInfo)
            {
                progress.written_rows = readVarUInt(in, "progress written rows");
                progress.written_bytes = readVarUInt(in, "progress written bytes");
            }
            return progress;
        }
        case ServerPacket::kProfileInfo:
        {
            ProfileInfoPacket info;
            info.rows = readVarUInt(in, "profile rows");
            info.blocks = readVarUInt(in, "profile blocks");
            info.bytes = readVarUInt(in, "profile bytes");
            info.applied_limit = readFixed<uint8_t>(in, "applied limit") != 0;
            info.rows_before_limit = readVarUInt(in, "rows before limit");
            info.calculated_rows_before_limit = readFixed<uint8_t>(in, "calculated") != 0;
            return info;
        }
        case ServerPacket::kData:
        case ServerPacket::kTotals:
        case ServerPacket::kExtremes:
            return readReceivedBlock(in, static_cast<ServerPacket>(type), compressed, limits);
        case ServerPacket::kProfileEvents:
        case ServerPacket::kLog:
            return readReceivedBlock(in, static_cast<ServerPacket>(type), false, limits);
        case ServerPacket::kPong:
            return PongPacket{};
        case ServerPacket::kEndOfStream:
            return EndOfStreamPacket{};
    }
    throw Exception(ErrorCode::kUnknownPacketFromClient,
                    fmt::format("Unknown packet {} from server", type));
}

}  // namespace granary::server
