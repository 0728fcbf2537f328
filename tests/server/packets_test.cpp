#include <gtest/gtest.h>

#include <string>

#include "engine/common/exception.h"
#include "engine/formats/value_text.h"
#include "server/client_packets.h"
#include "server/native_block.h"
#include "server/server_packets.h"

namespace granary::server
{
namespace
{

Block sampleBlock()
{
    Column id(TypeId::UInt64);
    Column name(TypeId::String);
    Column day(TypeId::Date);
    for (uint64_t i = 0; i < 100; ++i)
    {
        id.append<uint64_t>(i * 3);
        name.appendString(std::string(i % 7, 'x'));
        day.append<uint16_t>(static_cast<uint16_t>(i));
    }
    Block block;
    block.columns.push_back({"id", std::move(id)});
    block.columns.push_back({"name", std::move(name)});
    block.columns.push_back({"day", std::move(day)});
    return block;
}

TEST(Packets, QueryRoundTripsAtOldAndNewRevisions)
{
    for (const uint64_t revision : {uint64_t(54412), uint64_t(54453)})
    {
        QueryPacket query;
        query.query_id = "q1";
        query.sql = "SELECT 1";
        query.stage = 2;
        query.compression = true;
        query.settings = {{"max_threads", "3"}, {"send_logs_level", "fatal"}};
        WriteBuffer out;
        writeQueryPacket(out, query, revision);
        MemoryReadBuffer in(out.bytes());
        const ClientMessage message = readClientPacket(in, revision, false, {});
        const auto& read = std::get<QueryPacket>(message);
        EXPECT_EQ(read.query_id, "q1");
        EXPECT_EQ(read.sql, "SELECT 1");
        EXPECT_TRUE(read.compression);
        EXPECT_EQ(read.settings, query.settings);
        EXPECT_TRUE(in.eof());
    }
}

TEST(Packets, UnknownBinarySettingIsAnErrorNotADesync)
{
    // Pre-54429 form: name then a value whose encoding only the name tells.
    WriteBuffer out;
    writeVarUInt(out, 1);
    writeString(out, "");
    writeFixed<uint8_t>(out, 0);  // Client info: no query kind.
    writeString(out, "no_such_setting");
    writeVarUInt(out, 5);
    MemoryReadBuffer in(out.bytes());
    try
    {
        readClientPacket(in, 54412, false, {});
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownSetting);
    }
}

TEST(Packets, BlocksRoundTripCompressedAndNot)
{
    const Block block = sampleBlock();
    for (const bool compressed : {false, true})
    {
        WriteBuffer out;
        writeClientDataPacket(out, block, compressed);
        MemoryReadBuffer in(out.bytes());
        const auto data = std::get<DataPacket>(readClientPacket(in, 54453, compressed, {}));
        ASSERT_EQ(data.block.rows(), 100u);
        ASSERT_EQ(data.block.columns.size(), 3u);
        for (size_t row = 0; row < 100; ++row)
        {
            EXPECT_EQ(data.block.columns[0].column.valueAt<uint64_t>(row), row * 3);
            EXPECT_EQ(data.block.columns[1].column.stringAt(row), std::string(row % 7, 'x'));
            EXPECT_EQ(data.block.columns[2].column.valueAt<uint16_t>(row), row);
        }
        EXPECT_TRUE(in.eof());
    }
}

/// A Data packet's start, by hand: no table name, empty block info, one row of one column
/// `name` of `type`, whose values the caller writes.
WriteBuffer oneCellDataPacket(const std::string& name, const std::string& type)
{
    WriteBuffer packet;
    writeVarUInt(packet, 2);
    writeString(packet, "");
    writeVarUInt(packet, 0);  // Block info ends at once.
    writeVarUInt(packet, 1);
    writeVarUInt(packet, 1);
    writeString(packet, name);
    writeString(packet, type);
    return packet;
}

/// The error code reading `packet` as a client packet throws (none: a test failure).
ErrorCode readError(const WriteBuffer& packet)
{
    MemoryReadBuffer in(packet.bytes());
    try
    {
        readClientPacket(in, 54453, false, {});
    }
    catch (const Exception& error)
    {
        return error.code();
    }
    ADD_FAILURE() << "the packet was read without an error";
    return ErrorCode{};
}

TEST(Packets, BlockLimitsAndUnknownTypesAreErrors)
{
    const Block block = sampleBlock();
    WriteBuffer out;
    writeClientDataPacket(out, block, false);
    ProtocolLimits tight;
    tight.block.max_rows = 10;
    MemoryReadBuffer in(out.bytes());
    EXPECT_THROW(readClientPacket(in, 54453, false, tight), Exception);

    EXPECT_EQ(readError(oneCellDataPacket("c", "Tuple(UInt8, String)")), ErrorCode::kUnknownType);
    // LowCardinality's native form is a dictionary Granary does not read: refused by name.
    EXPECT_EQ(readError(oneCellDataPacket("c", "LowCardinality(String)")),
              ErrorCode::kNotImplemented);
    // An Array's offsets must not decrease.
    WriteBuffer decreasing;
    writeVarUInt(decreasing, 2);
    writeString(decreasing, "");
    writeVarUInt(decreasing, 0);
    writeVarUInt(decreasing, 1);
    writeVarUInt(decreasing, 2);
    writeString(decreasing, "a");
    writeString(decreasing, "Array(UInt8)");
    writeFixed<uint64_t>(decreasing, 2);
    writeFixed<uint64_t>(decreasing, 1);
    EXPECT_EQ(readError(decreasing), ErrorCode::kIncorrectData);
}

TEST(Packets, ArraysAndMapsRoundTrip)
{
    Block block;
    Column tags(DataType::array(TypeId::String));
    Column attributes(DataType::map(TypeId::String, TypeId::UInt64));
    for (size_t row = 0; row < 50; ++row)
    {
        for (size_t i = 0; i < row % 4; ++i)
        {
            tags.child(0).appendString("t" + std::to_string(row + i));
            attributes.child(0).appendString("k" + std::to_string(i));
            attributes.child(1).append<uint64_t>(row * 10 + i);
        }
        tags.closeNestedRow();
        attributes.closeNestedRow();
    }
    block.columns.push_back({"tags", tags});
    block.columns.push_back({"attributes", attributes});
    for (const bool compressed : {false, true})
    {
        WriteBuffer out;
        writeClientDataPacket(out, block, compressed);
        MemoryReadBuffer in(out.bytes());
        const auto data = std::get<DataPacket>(readClientPacket(in, 54453, compressed, {}));
        ASSERT_EQ(data.block.rows(), 50u);
        for (size_t c = 0; c < 2; ++c)
        {
            EXPECT_EQ(data.block.columns[c].column.dataType(), block.columns[c].column.dataType());
            for (size_t row = 0; row < 50; ++row)
            {
                EXPECT_EQ(formatValue(data.block.columns[c].column.view(), row),
                          formatValue(block.columns[c].column.view(), row));
            }
        }
    }
}

TEST(Packets, StringLengthNearTwoToTheSixtyFourIsRefused)
{
    // Found by the packet fuzzer: the length plus the offset's 8 bytes wrapped past the block
    // budget and reached std::string's constructor.
    WriteBuffer packet = oneCellDataPacket("s", "String");
    writeVarUInt(packet, ~uint64_t{0} - 3);
    EXPECT_EQ(readError(packet), ErrorCode::kTooLargeSize);
}

TEST(Packets, ProfileEventsListNonzeroEventsPerThread)
{
    ProfileEventsBlock events;
    events.host_name = "h";
    ThreadProfileEvents thread;
    thread.thread_id = 7;
    thread.counts[ProfileEvent::RowsRead] = 10;
    thread.counts[ProfileEvent::MergeTasks] = 2;
    events.threads = {thread};
    WriteBuffer out;
    writeProfileEvents(out, events);
    MemoryReadBuffer in(out.bytes());
    const auto received = std::get<ReceivedBlock>(readServerPacket(in, 54453, false, {}));
    EXPECT_EQ(received.type, ServerPacket::kProfileEvents);
    ASSERT_EQ(received.block.rows(), 2u);
    EXPECT_EQ(received.block.find("name")->stringAt(0), "RowsRead");
    EXPECT_EQ(received.block.find("value")->valueAt<int64_t>(0), 10);
    EXPECT_EQ(received.block.find("name")->stringAt(1), "MergeTasks");
    EXPECT_TRUE(received.type_names[3].starts_with("Enum8("));
}

}  // namespace
}  // namespace granary::server
