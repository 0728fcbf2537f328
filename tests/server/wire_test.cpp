#include "server/wire.h"

#include <gtest/gtest.h>

#include <random>

#include "engine/common/exception.h"
#include "server/city_hash.h"
#include "server/compression.h"

namespace granary::server
{
namespace
{

TEST(Wire, VarUIntMatchesLeb128Encoding)
{
    // Known LEB128 encodings.
    const std::pair<uint64_t, std::string> cases[] = {
        {0, std::string("\x00", 1)},
        {127, "\x7f"},
        {128, "\x80\x01"},
        {300, "\xac\x02"},
        {UINT64_MAX, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"},
    };
    for (const auto& [value, encoded] : cases)
    {
        WriteBuffer out;
        writeVarUInt(out, value);
        EXPECT_EQ(out.bytes(), encoded);
        MemoryReadBuffer in(encoded);
        EXPECT_EQ(readVarUInt(in, "value"), value);
        EXPECT_TRUE(in.eof());
    }
}

TEST(Wire, OverlongVarUIntAndTruncationAreErrors)
{
    const std::string eleven_bytes(11, '\xff');
    MemoryReadBuffer overlong(eleven_bytes);
    EXPECT_THROW(readVarUInt(overlong, "value"), Exception);
    MemoryReadBuffer truncated("\x80");
    EXPECT_THROW(readVarUInt(truncated, "value"), Exception);
}

TEST(Wire, StringLengthAboveLimitIsRefusedBeforeReading)
{
    WriteBuffer out;
    writeString(out, "hello");
    MemoryReadBuffer in(out.bytes());
    EXPECT_EQ(readString(in, 5, "s"), "hello");
    MemoryReadBuffer again(out.bytes());
    try
    {
        readString(again, 4, "s");
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kTooLargeSize);
    }
    // A length of 2^60 with no bytes behind it must not allocate.
    WriteBuffer huge;
    writeVarUInt(huge, uint64_t(1) << 60);
    MemoryReadBuffer huge_in(huge.bytes());
    EXPECT_THROW(readString(huge_in, 1 << 20, "s"), Exception);
}

/// Known CityHash128 v1.0.2 values (low, high) of short ASCII inputs.
TEST(CityHash, MatchesPublishedVersion102Vectors)
{
    const struct
    {
        std::string input;
        uint64_t low;
        uint64_t high;
    } vectors[] = {
        {"", 4463240938071824939ULL, 4374473821787594281ULL},
        {"1", 6359294370932160835ULL, 9352172043616825891ULL},
        {"12", 16369832005849840265ULL, 11285803613326688650ULL},
        {"123", 11385344155619871181ULL, 565130349297615695ULL},
        {"1234", 2764810728135862028ULL, 5901424084875196719ULL},
        {"12345", 11980518989907363833ULL, 93456746504981291ULL},
        {"123456", 2350911489181485812ULL, 12095241732236332703ULL},
        {"123456789", 14140762465907274276ULL, 13893707330375041594ULL},
        {"1234567890", 8211333661328737896ULL, 17823093577549856754ULL},
        {"1234567890A", 1841684041954399514ULL, 6623964278873157363ULL},
        {"1234567890Ab", 3349064628685767173ULL, 12952593207096460945ULL},
        {"1234567890Abc", 6572961695122645386ULL, 13774858861848724400ULL},
        {"1234567890AbcD", 18041930573402443112ULL, 5778672772533284640ULL},
        {"1234567890AbcDE", 11266190325599732773ULL, 348002394938205539ULL},
        {"1234567890AbcDEF", 15073733098592741404ULL, 5913034415582713572ULL},
        {"this is somewhat long string", 2957911805285034456ULL, 6923665615086076251ULL},
        {"DMqhuXQxgAmJ9EOkT1n2lpzu7YD6zKc6ESSDWfJfohaQDwu0ba61bfGMiuS5GXpr0bIVcCtLwRtIVGmK",
         9681404383092874918ULL, 15631953994107571989ULL},
        {"abc", 0x900ff195577748feULL, 0x13a9176355b20d7eULL},
    };
    for (const auto& vector : vectors)
    {
        const Hash128 hash = cityHash128(vector.input.data(), vector.input.size());
        EXPECT_EQ(hash.low, vector.low) << vector.input;
        EXPECT_EQ(hash.high, vector.high) << vector.input;
    }
}

std::string randomBytes(size_t size, unsigned seed, int alphabet)
{
    std::mt19937 random(seed);
    std::string bytes(size, '\0');
    for (char& byte : bytes)
    {
        byte = static_cast<char>('a' + random() % alphabet);
    }
    return bytes;
}

std::string decompressAll(std::string_view frames)
{
    MemoryReadBuffer source(frames);
    CompressedReadBuffer in(source, 64 << 20);
    std::string result;
    char chunk[1000];
    while (!in.eof())
    {
        const size_t size = std::min(sizeof(chunk), in.buffered());
        in.readBytes(chunk, size, "data");
        result.append(chunk, size);
    }
    return result;
}

TEST(Compression, RoundTripsAcrossFrames)
{
    for (const size_t size : {size_t(0), size_t(1), size_t(200), size_t(3 << 20) + 17})
    {
        const std::string data = randomBytes(size, 7, 5);
        WriteBuffer frames;
        compressFrames(data, frames);
        EXPECT_EQ(decompressAll(frames.bytes()), data) << size;
    }
}

TEST(Compression, CorruptionIsDetectedByTheChecksum)
{
    const std::string data = randomBytes(5000, 3, 20);
    WriteBuffer frames;
    compressFrames(data, frames);
    for (size_t position : {size_t(0), size_t(16), size_t(30), frames.size() - 1})
    {
        std::string corrupted = frames.bytes();
        corrupted[position] ^= 0x40;
        EXPECT_THROW(decompressAll(corrupted), Exception) << position;
    }
}

TEST(Compression, OversizedFrameHeaderIsRefused)
{
    std::string frame(16, '\0');
    frame += static_cast<char>(kMethodLz4);
    const uint32_t sizes[2] = {0xfffffff0u, 0xfffffff0u};
    frame.append(reinterpret_cast<const char*>(sizes), sizeof(sizes));
    try
    {
        decompressAll(frame);
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kTooLargeSize);
    }
}

}  // namespace
}  // namespace granary::server
