#pragma once

#include <string>

namespace granary::scale::testing
{

/// A small CSV as tools/work_inflation.sh writes it (Python's csv module: CRLF line ends, SQL
/// quoted when it holds commas or quotes). At 16 threads the default suite's inflations are
/// 1.2 (Q0, 60 ms), 1.5 (Q1, 10.5 ms) and 1.3 (Q2, 80 ms); official's Q0 lacks a figure there.
inline const std::string kSampleInflationCsv =
    "suite,query,threads,instructions,scheduler_instructions,inflation,one_thread_ms,sql\r\n"
    "default,Q0,1,1000,10,1.0,60.0,SELECT COUNT(*) FROM hits\r\n"
    "default,Q0,16,1200,50,1.2,60.0,SELECT COUNT(*) FROM hits\r\n"
    "default,Q1,1,2000,10,1.0,10.5,\"SELECT RegionID, COUNT(DISTINCT UserID) AS \"\"u\"\" "
    "FROM hits GROUP BY RegionID LIMIT 10\"\r\n"
    "default,Q1,16,3000,10,1.5,10.5,\"SELECT RegionID, COUNT(DISTINCT UserID) AS \"\"u\"\" "
    "FROM hits GROUP BY RegionID LIMIT 10\"\r\n"
    "default,Q2,1,4000,0,1.0,80,SELECT SUM(AdvEngineID) FROM hits\r\n"
    "default,Q2,16,5200,0,1.3,80,SELECT SUM(AdvEngineID) FROM hits\r\n"
    "official,Q0,1,900,0,1.0,,SELECT 1\r\n"
    "official,Q0,16,950,0,,,SELECT 1\r\n";

}  // namespace granary::scale::testing
