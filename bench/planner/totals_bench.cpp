// WITH TOTALS against the same query without it, in the same run, and against computing the
// totals the way a client must without the clause: a second query, one aggregation without
// keys over the rows of the groups HAVING keeps. Totals fold the groups' states, so their
// cost grows with the groups, not the rows. Prints median times and the ratios; checks that
// both ways give the same totals.
// Usage: totals [rows] [repetitions] [threads]

#include <cstdio>
#include <string>
#include <vector>

#include "bench/planner/session_timing.h"
#include "engine/columns/block.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace bench = granary::bench;

namespace
{

/// Rows k (the sort key), g = k % 10,000, h = k % 1,000,000 and v = a 32-bit value.
void fill(granary::Database& database, size_t rows)
{
    uint64_t state = 42;
    std::vector<granary::Block> blocks;
    for (size_t begin = 0; begin < rows; begin += granary::Table::kMaxPartRows)
    {
        const size_t count = std::min(rows - begin, granary::Table::kMaxPartRows);
        granary::Block block;
        block.columns.push_back({"k", granary::Column(granary::TypeId::UInt64)});
        block.columns.push_back({"g", granary::Column(granary::TypeId::UInt32)});
        block.columns.push_back({"h", granary::Column(granary::TypeId::UInt32)});
        block.columns.push_back({"v", granary::Column(granary::TypeId::UInt32)});
        for (size_t i = 0; i < count; ++i)
        {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const uint64_t k = begin + i;
            block.columns[0].column.append(k);
            block.columns[1].column.append(static_cast<uint32_t>(k % 10'000));
            block.columns[2].column.append(static_cast<uint32_t>(k % 1'000'000));
            block.columns[3].column.append(static_cast<uint32_t>(state >> 32));
        }
        blocks.push_back(std::move(block));
    }
    database.insert("t", std::move(blocks));
}

/// A grouped query and the keyless query that gives its totals row.
struct Case
{
    std::string grouped;  ///< Without WITH TOTALS; " WITH TOTALS" goes after GROUP BY's keys.
    std::string totals_clause_at;
    std::string keyless;
};

}  // namespace

int main(int argc, char** argv)
{
    const bench::RunShape shape = bench::runShapeOf(argc, argv, 5);
    const bench::ScratchFolder folder("totals");
    int failures = 0;
    {
        granary::Session session(granary::Session::openDatabase(folder.path()));
        session.execute("CREATE TABLE t (k UInt64, g UInt32, h UInt32, v UInt32) ORDER BY k");
        fill(session.database(), shape.rows);
        const std::vector<Case> cases = {
            {"SELECT g, sum(v), count() FROM t GROUP BY g ORDER BY g LIMIT 3", "GROUP BY g",
             "SELECT 0, sum(v), count() FROM t"},
            {"SELECT h, sum(v), max(v) FROM t GROUP BY h HAVING max(v) > 4000000000 "
             "ORDER BY h LIMIT 3",
             "GROUP BY h",
             "SELECT 0, sum(v), max(v) FROM t WHERE h IN "
             "(SELECT h FROM t GROUP BY h HAVING max(v) > 4000000000)"},
            {"SELECT g, uniqExact(v), avg(v) FROM t GROUP BY g ORDER BY g LIMIT 3", "GROUP BY g",
             "SELECT 0, uniqExact(v), avg(v) FROM t"},
        };
        granary::QueryOptions options;
        options.threads = shape.threads;
        std::printf("%zu rows, %zu threads, median of %d interleaved runs (ms)\n", shape.rows,
                    shape.threads, shape.repetitions);
        std::printf("%-74s %8s %8s %7s %9s %7s\n", "query", "plain", "TOTALS", "ratio", "2 queries",
                    "ratio");
        for (const Case& c : cases)
        {
            std::string with_totals = c.grouped;
            const size_t at = with_totals.find(c.totals_clause_at) + c.totals_clause_at.size();
            with_totals.insert(at, " WITH TOTALS");
            std::vector<double> plain;
            std::vector<double> totals;
            std::vector<double> two_queries;
            bool same = true;
            for (int r = -1; r < shape.repetitions; ++r)  // run -1 warms up
            {
                const bench::TimedQuery base = bench::timeQuery(session, c.grouped, options);
                const bench::TimedQuery clause = bench::timeQuery(session, with_totals, options);
                const bench::TimedQuery second = bench::timeQuery(session, c.keyless, options);
                same = same && clause.rows == base.rows && clause.totals == second.rows;
                if (r >= 0)
                {
                    plain.push_back(base.seconds);
                    totals.push_back(clause.seconds);
                    two_queries.push_back(base.seconds + second.seconds);
                }
            }
            failures += same ? 0 : 1;
            const double base = bench::median(plain);
            std::printf("%-74.74s %8.1f %8.1f %6.2fx %9.1f %6.2fx%s\n", c.grouped.c_str(),
                        base * 1e3, bench::median(totals) * 1e3, bench::median(totals) / base,
                        bench::median(two_queries) * 1e3, bench::median(two_queries) / base,
                        same ? "" : "  ANSWERS DIFFER");
        }
    }
    return failures == 0 ? 0 : 1;
}
