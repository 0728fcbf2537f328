#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "engine/columns/types.h"

namespace granary::datagen
{

/// ClickBench's `hits` columns in table order, with Granary's types for ClickBench's SQL types
/// (BIGINT Int64, INTEGER Int32, SMALLINT Int16, TEXT/VARCHAR/CHAR String, TIMESTAMP DateTime).
#define GRANARY_HITS_COLUMNS(X)     \
    X(WatchID, Int64)               \
    X(JavaEnable, Int16)            \
    X(Title, String)                \
    X(GoodEvent, Int16)             \
    X(EventTime, DateTime)          \
    X(EventDate, Date)              \
    X(CounterID, Int32)             \
    X(ClientIP, Int32)              \
    X(RegionID, Int32)              \
    X(UserID, Int64)                \
    X(CounterClass, Int16)          \
    X(OS, Int16)                    \
    X(UserAgent, Int16)             \
    X(URL, String)                  \
    X(Referer, String)              \
    X(IsRefresh, Int16)             \
    X(RefererCategoryID, Int16)     \
    X(RefererRegionID, Int32)       \
    X(URLCategoryID, Int16)         \
    X(URLRegionID, Int32)           \
    X(ResolutionWidth, Int16)       \
    X(ResolutionHeight, Int16)      \
    X(ResolutionDepth, Int16)       \
    X(FlashMajor, Int16)            \
    X(FlashMinor, Int16)            \
    X(FlashMinor2, String)          \
    X(NetMajor, Int16)              \
    X(NetMinor, Int16)              \
    X(UserAgentMajor, Int16)        \
    X(UserAgentMinor, String)       \
    X(CookieEnable, Int16)          \
    X(JavascriptEnable, Int16)      \
    X(IsMobile, Int16)              \
    X(MobilePhone, Int16)           \
    X(MobilePhoneModel, String)     \
    X(Params, String)               \
    X(IPNetworkID, Int32)           \
    X(TraficSourceID, Int16)        \
    X(SearchEngineID, Int16)        \
    X(SearchPhrase, String)         \
    X(AdvEngineID, Int16)           \
    X(IsArtifical, Int16)           \
    X(WindowClientWidth, Int16)     \
    X(WindowClientHeight, Int16)    \
    X(ClientTimeZone, Int16)        \
    X(ClientEventTime, DateTime)    \
    X(SilverlightVersion1, Int16)   \
    X(SilverlightVersion2, Int16)   \
    X(SilverlightVersion3, Int32)   \
    X(SilverlightVersion4, Int16)   \
    X(PageCharset, String)          \
    X(CodeVersion, Int32)           \
    X(IsLink, Int16)                \
    X(IsDownload, Int16)            \
    X(IsNotBounce, Int16)           \
    X(FUniqID, Int64)               \
    X(OriginalURL, String)          \
    X(HID, Int32)                   \
    X(IsOldCounter, Int16)          \
    X(IsEvent, Int16)               \
    X(IsParameter, Int16)           \
    X(DontCountHits, Int16)         \
    X(WithHash, Int16)              \
    X(HitColor, String)             \
    X(LocalEventTime, DateTime)     \
    X(Age, Int16)                   \
    X(Sex, Int16)                   \
    X(Income, Int16)                \
    X(Interests, Int16)             \
    X(Robotness, Int16)             \
    X(RemoteIP, Int32)              \
    X(WindowName, Int32)            \
    X(OpenerName, Int32)            \
    X(HistoryLength, Int16)         \
    X(BrowserLanguage, String)      \
    X(BrowserCountry, String)       \
    X(SocialNetwork, String)        \
    X(SocialAction, String)         \
    X(HTTPError, Int16)             \
    X(SendTiming, Int32)            \
    X(DNSTiming, Int32)             \
    X(ConnectTiming, Int32)         \
    X(ResponseStartTiming, Int32)   \
    X(ResponseEndTiming, Int32)     \
    X(FetchTiming, Int32)           \
    X(SocialSourceNetworkID, Int16) \
    X(SocialSourcePage, String)     \
    X(ParamPrice, Int64)            \
    X(ParamOrderID, String)         \
    X(ParamCurrency, String)        \
    X(ParamCurrencyID, Int16)       \
    X(OpenstatServiceName, String)  \
    X(OpenstatCampaignID, String)   \
    X(OpenstatAdID, String)         \
    X(OpenstatSourceID, String)     \
    X(UTMSource, String)            \
    X(UTMMedium, String)            \
    X(UTMCampaign, String)          \
    X(UTMContent, String)           \
    X(UTMTerm, String)              \
    X(FromTag, String)              \
    X(HasGCLID, Int16)              \
    X(RefererHash, Int64)           \
    X(URLHash, Int64)               \
    X(CLID, Int32)

/// Column positions, named after the columns: HitsColumn::URL is the URL's position.
namespace HitsColumn
{
enum : size_t
{
#define GRANARY_HITS_COLUMN_INDEX(name, type) name,
    GRANARY_HITS_COLUMNS(GRANARY_HITS_COLUMN_INDEX)
#undef GRANARY_HITS_COLUMN_INDEX
        kCount
};
}  // namespace HitsColumn

struct HitsColumnInfo
{
    std::string_view name;
    TypeId type;
};

/// The 105 columns in table order.
std::span<const HitsColumnInfo> hitsSchema();

/// CREATE TABLE hits (...) in Granary's SQL, primary key as ClickBench's; String columns get
/// `CODEC(string_codec)` when it is not empty.
std::string hitsCreateTableSql(std::string_view string_codec = {});

}  // namespace granary::datagen
