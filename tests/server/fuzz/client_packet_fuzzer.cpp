// libFuzzer target: the first byte picks the negotiated revision and whether Data blocks are
// compressed; the rest is parsed as a stream of client packets, as a connection would.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/common/exception.h"
#include "server/client_packets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
    {
        return 0;
    }
    const uint64_t revisions[] = {54412, 54429, 54441, 54453};
    const uint64_t revision = revisions[data[0] & 3];
    const bool compressed = (data[0] & 4) != 0;
    granary::server::ProtocolLimits limits;
    limits.max_frame_bytes = 1 << 20;
    limits.block.max_bytes = 1 << 20;
    granary::server::MemoryReadBuffer in(
        std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    try
    {
        while (!in.eof())
        {
            granary::server::readClientPacket(in, revision, compressed, limits);
        }
    }
    catch (const granary::Exception&)
    {
        // Malformed input must end in an Exception, which the connection reports and closes.
    }
    return 0;
}
