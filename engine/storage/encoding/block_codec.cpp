#include "engine/storage/encoding/block_codec.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"

namespace granary::encoding
{
namespace
{

/// A codec must save at least 1/kMinSavingFraction of a block to be kept.
constexpr size_t kMinSavingFraction = 8;
/// Blocks smaller than this are stored as they are: the codec's framing would eat the gain.
constexpr size_t kMinCompressedPayload = 64;

/// ClickHouse codecs that transform values before compression (some take a parameter).
constexpr std::array<std::string_view, 5> kValueTransforms = {"Delta", "DoubleDelta", "T64",
                                                               "Gorilla", "FPC"};

[[noreturn]] void unknownCodec(std::string_view text)
{
    throw Exception(
        ErrorCode::kUnknownCompressionMethod,
        "unknown codec '" + std::string(text) + "' (expected LZ4, ZSTD, ZSTD(level) or NONE)");
}

}  // namespace

std::string CodecChoice::toString() const
{
    switch (codec)
    {
        case Codec::kNone:
            return "NONE";
        case Codec::kLZ4:
            return "LZ4";
        case Codec::kZSTD:
            return "ZSTD(" + std::to_string(level) + ")";
    }
    return "?";
}

CodecChoice CodecChoice::parse(std::string_view text)
{
    if (equalsIgnoringCase(text, "NONE"))
    {
        return {Codec::kNone, 0};
    }
    if (equalsIgnoringCase(text, "LZ4"))
    {
        return {Codec::kLZ4, 0};
    }
    if (equalsIgnoringCase(text, "ZSTD"))
    {
        return {Codec::kZSTD, 1};
    }
    if (text.size() > 6 && equalsIgnoringCase(text.substr(0, 5), "ZSTD(") && text.back() == ')')
    {
        const std::string_view digits = text.substr(5, text.size() - 6);
        int level = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), level);
        if (error != std::errc() || end != digits.data() + digits.size() || level < 1 ||
            level > ZSTD_maxCLevel())
        {
            throw Exception(ErrorCode::kBadArguments, "ZSTD level must be 1 to " +
                                                          std::to_string(ZSTD_maxCLevel()) +
                                                          ", got '" + std::string(digits) + "'");
        }
        return {Codec::kZSTD, level};
    }
    unknownCodec(text);
}

CodecChoice CodecChoice::parseChain(std::string_view text)
{
    CodecChoice choice;
    while (!text.empty())
    {
        const size_t comma = text.find(',');
        const std::string_view entry = trimAscii(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const bool transform = std::any_of(
            kValueTransforms.begin(), kValueTransforms.end(),
            [&](std::string_view name)
            {
                return equalsIgnoringCase(entry, name) ||
                       (entry.size() > name.size() && entry[name.size()] == '(' &&
                        equalsIgnoringCase(entry.substr(0, name.size()), name));
            });
        if (!transform)
        {
            choice = parse(entry);
        }
    }
    return choice;
}

bool operator==(const CodecChoice& left, const CodecChoice& right)
{
    return left.codec == right.codec && (left.codec != Codec::kZSTD || left.level == right.level);
}

Codec compressPayload(std::string_view payload, const CodecChoice& choice, std::string& out)
{
    if (choice.codec == Codec::kNone || payload.size() < kMinCompressedPayload)
    {
        return Codec::kNone;
    }
    const size_t limit = payload.size() - payload.size() / kMinSavingFraction;
    size_t compressed = 0;
    if (choice.codec == Codec::kLZ4)
    {
        out.resize(size_t(LZ4_compressBound(int(payload.size()))));
        compressed =
            size_t(std::max(0, LZ4_compress_default(payload.data(), out.data(), int(payload.size()),
                                                    int(out.size()))));
    }
    else
    {
        out.resize(ZSTD_compressBound(payload.size()));
        const size_t result =
            ZSTD_compress(out.data(), out.size(), payload.data(), payload.size(), choice.level);
        compressed = ZSTD_isError(result) ? 0 : result;
    }
    if (compressed == 0 || compressed > limit)
    {
        return Codec::kNone;
    }
    out.resize(compressed);
    return choice.codec;
}

bool plausiblePayloadSize(Codec codec, std::string_view stored, size_t payload_size)
{
    constexpr size_t kLZ4MaxExpansion = 255;
    switch (codec)
    {
        case Codec::kNone:
            return stored.size() == payload_size;
        case Codec::kLZ4:
            return payload_size <= stored.size() * kLZ4MaxExpansion;
        case Codec::kZSTD:
            return ZSTD_getFrameContentSize(stored.data(), stored.size()) == payload_size;
    }
    return true;  // An unknown codec byte: decompressPayload names it.
}

void decompressPayload(Codec codec, std::string_view stored, char* out, size_t payload_size)
{
    bool exact = false;
    switch (codec)
    {
        case Codec::kNone:
            exact = stored.size() == payload_size;
            if (exact)
            {
                std::copy(stored.begin(), stored.end(), out);
            }
            break;
        case Codec::kLZ4:
        {
            const int written =
                LZ4_decompress_safe(stored.data(), out, int(stored.size()), int(payload_size));
            exact = written >= 0 && size_t(written) == payload_size;
            break;
        }
        case Codec::kZSTD:
        {
            const size_t written = ZSTD_decompress(out, payload_size, stored.data(), stored.size());
            exact = !ZSTD_isError(written) && written == payload_size;
            break;
        }
        default:
            throw Exception(ErrorCode::kUnknownCompressionMethod,
                            "unknown codec byte " + std::to_string(int(codec)));
    }
    if (!exact)
    {
        throw Exception(ErrorCode::kCorruptedData, "block does not decompress to its recorded " +
                                                       std::to_string(payload_size) + " bytes");
    }
}

}  // namespace granary::encoding
