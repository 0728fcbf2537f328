#pragma once

#include <array>
#include <cstdint>

// Published facts about ClickBench's `hits` (99,997,497 rows) that the generator reproduces at
// any row count N and that `gen-hits --check` measures. Shares are fractions of all rows unless
// said otherwise. Source: ../shared/clickbench/HITS-STATISTICS.md ([F] published, [E] estimate).
namespace granary::datagen::hits_targets
{

inline constexpr double kRealRows = 99'997'497;

/// UserID: 17,630,976 distinct [F]; AVG 2.528953029789716e18 over signed values [F].
inline constexpr double kUserDistinctShare = 17'630'976 / kRealRows;
inline constexpr double kUserIdMean = 2.528953029789716e18;
/// Q20's literal occurs in exactly 4 rows [F].
inline constexpr int64_t kPlantedUserId = 435090932899640449;
inline constexpr int kPlantedUserRows = 4;
/// The ten heaviest users' row counts [F]; the heaviest one's id [F].
inline constexpr std::array<double, 10> kHeavyUserRows = {29097, 25333, 10597, 7584, 6678,
                                                          6411,  6197,  6019,  5211, 4906};
inline constexpr int64_t kHeaviestUserId = 1313338681122956954;

/// SearchPhrase: 6,019,103 distinct values counting '' [F]; about 13% non-empty [E].
inline constexpr double kPhraseDistinctShare = 6'019'103 / kRealRows;
inline constexpr double kPhraseNonEmptyShare = 0.13;
/// The top phrase's share [F: 70,263 rows].
inline constexpr double kTopPhraseShare = 70'263 / kRealRows;

/// AdvEngineID: the complete non-zero distribution [F]; 0 elsewhere.
struct ValueRows
{
    int value;
    double rows;
};
inline constexpr std::array<ValueRows, 18> kAdvEngineRows = {{
    {2, 404602},
    {27, 113167},
    {13, 45631},
    {45, 38960},
    {44, 9730},
    {3, 6896},
    {62, 5266},
    {52, 3554},
    {50, 938},
    {28, 836},
    {53, 350},
    {25, 343},
    {61, 158},
    {21, 38},
    {42, 20},
    {16, 7},
    {7, 3},
    {22, 1},
}};
inline constexpr double kAdvEngineNonZeroShare = 630'500 / kRealRows;
inline constexpr double kAdvEngineSum = 7'280'088 / kRealRows;  ///< SUM per row.

/// AVG(ResolutionWidth) [F].
inline constexpr double kResolutionWidthMean = 1513.4879349030107;

/// RegionID rows [F: Q10] (158 and 55 are estimated from their user counts in Q9).
inline constexpr std::array<ValueRows, 12> kRegionRows = {{
    {229, 18295832},
    {2, 6687587},
    {208, 4261812},
    {169, 3320229},
    {32, 1843518},
    {34, 1792369},
    {184, 1755192},
    {42, 1542717},
    {107, 1516690},
    {51, 1435578},
    {158, 1200000},
    {55, 1100000},
}};

/// CounterID rows with URL <> '' [F: Q28]. The first counter is raised from 8,527,069 to 10.5%
/// so that Q28's HAVING COUNT(*) > 100000 keeps a row at 1M generated rows.
inline constexpr std::array<ValueRows, 11> kCounterRows = {{
    {3922, 10500000},
    {199550, 7115413},
    {122612, 3574007},
    {233773, 2938865},
    {245438, 2510103},
    {256004, 858171},
    {186300, 802561},
    {62, 738150},
    {146891, 605286},
    {38, 507770},
    {220992, 494614},
}};
inline constexpr int32_t kHotCounter = 62;
inline constexpr double kHotCounterShare = 738'150 / kRealRows;

/// URL: 15,911 rows contain 'google' [F]; top URL 3.29% [F]; top 10 hold 8.63% [D];
/// about 18M distinct [E].
inline constexpr double kUrlGoogleShare = 15'911 / kRealRows;
inline constexpr double kUrlDistinctShare = 0.18;
inline constexpr double kUrlEmptyShare = 0.001;
inline constexpr std::array<double, 10> kTopUrlShares = {
    0.0329, 0.01625, 0.00791, 0.00582, 0.0045, 0.0040, 0.0036, 0.0033, 0.0031, 0.00289};
/// Within counter 62, the top URL has 102,341 of 738,150 rows [F]; its URLHash is Q42's literal.
inline constexpr double kHotCounterTopUrlShare = 102'341.0 / 738'150;
inline constexpr int64_t kPlantedUrlHash = 2868770270353813622;
/// Q41's literal: at least 2,750 counter-62 rows [D]; generated as 5% of them.
inline constexpr int64_t kPlantedRefererHash = 3594120000172545465;
inline constexpr double kHotCounterPlantedRefererShare = 0.05;

/// Title: about 10% empty, 8% distinct [E]; 'Google' in titles is not published.
inline constexpr double kTitleEmptyShare = 0.10;
inline constexpr double kTitleGoogleShare = 0.001;
/// Referer: about 25% empty, 15% distinct [E]. The top domain is raised to 10.5% (8.2% [F]) so
/// that Q29's HAVING COUNT(*) > 100000 keeps a row at 1M rows.
inline constexpr double kRefererEmptyShare = 0.25;
inline constexpr double kRefererDistinctShare = 0.15;
/// MobilePhoneModel non-empty: 3-5% [E], 1.96% in a sample [T].
inline constexpr double kMobileModelShare = 0.03;

/// Flags [E].
inline constexpr double kIsRefreshShare = 0.05;
inline constexpr double kDontCountHitsShare = 0.03;
inline constexpr double kIsLinkShare = 0.015;
inline constexpr double kIsDownloadShare = 0.002;

/// EventDate spans 2013-07-02..2013-07-31 [F] (days since 1970-01-01); EventDate is the
/// Moscow (UTC+4) date of EventTime [F]; counter 62 lives on 2013-07-15 [E].
inline constexpr uint16_t kFirstDate = 15888;
inline constexpr uint16_t kLastDate = 15917;
inline constexpr uint16_t kHotCounterDate = 15901;
inline constexpr int64_t kMoscowOffsetSeconds = 4 * 3600;

}  // namespace granary::datagen::hits_targets
