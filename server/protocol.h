#pragma once

#include <cstdint>

namespace granary::server
{

/// Revisions of the ClickHouse native protocol at which a field or packet appeared. Both sides
/// work at the minimum of their revisions; each reader and writer checks the negotiated one.
namespace revision
{
inline constexpr uint64_t kWithTemporaryTables = 50264;
inline constexpr uint64_t kWithTotalRowsInProgress = 51554;
inline constexpr uint64_t kWithBlockInfo = 51903;
inline constexpr uint64_t kWithClientInfo = 54032;
inline constexpr uint64_t kWithServerTimezone = 54058;
inline constexpr uint64_t kWithQuotaKeyInClientInfo = 54060;
inline constexpr uint64_t kWithServerDisplayName = 54372;
inline constexpr uint64_t kWithVersionPatch = 54401;
inline constexpr uint64_t kWithClientWriteInfo = 54420;
inline constexpr uint64_t kWithSettingsAsStrings = 54429;
inline constexpr uint64_t kWithInterserverSecret = 54441;
inline constexpr uint64_t kWithOpenTelemetry = 54442;
inline constexpr uint64_t kWithDistributedDepth = 54448;
inline constexpr uint64_t kWithInitialQueryStartTime = 54449;
inline constexpr uint64_t kWithProfileEvents = 54451;
inline constexpr uint64_t kWithParallelReplicas = 54453;
}  // namespace revision

/// The revision Granary speaks: new enough for ProfileEvents, old enough that no field after
/// parallel replicas (custom serialization, nonces, password rules) is needed.
inline constexpr uint64_t kServerRevision = revision::kWithParallelReplicas;
inline constexpr uint64_t kServerVersionMajor = 23;
inline constexpr uint64_t kServerVersionMinor = 1;
inline constexpr uint64_t kServerVersionPatch = 0;

enum class ClientPacket : uint64_t
{
    kHello = 0,
    kQuery = 1,
    kData = 2,
    kCancel = 3,
    kPing = 4,
    kTablesStatusRequest = 5,
};

enum class ServerPacket : uint64_t
{
    kHello = 0,
    kData = 1,
    kException = 2,
    kProgress = 3,
    kPong = 4,
    kEndOfStream = 5,
    kProfileInfo = 6,
    kTotals = 7,
    kExtremes = 8,
    kLog = 10,
    kProfileEvents = 14,
};

/// The stage a client asks a query to be run to; only Complete is served.
inline constexpr uint64_t kQueryStageComplete = 2;

}  // namespace granary::server
