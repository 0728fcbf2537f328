// Nullable columns without NULLs against the same columns declared NOT NULL, in the same run:
// a scan with an aggregate, a filter, an expression and a GROUP BY over each table, on disk.
// Prints each query's median time over both tables and their ratio (target: within 5%).
// Usage: nullable [rows] [repetitions] [threads]

#include <algorithm>
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

/// Rows k (the sort key), g = a group below 10,000 and v = a 32-bit value, identical in both
/// tables: each part a block of Table::kMaxPartRows rows.
void fill(granary::Database& database, const std::string& table, size_t rows)
{
    uint64_t state = 42;
    std::vector<granary::Block> blocks;
    for (size_t begin = 0; begin < rows; begin += granary::Table::kMaxPartRows)
    {
        const size_t count = std::min(rows - begin, granary::Table::kMaxPartRows);
        granary::Block block;
        block.columns.push_back({"k", granary::Column(granary::TypeId::UInt64)});
        block.columns.push_back({"g", granary::Column(granary::TypeId::UInt32)});
        block.columns.push_back({"v", granary::Column(granary::TypeId::UInt32)});
        for (size_t i = 0; i < count; ++i)
        {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            block.columns[0].column.append(static_cast<uint64_t>(begin + i));
            block.columns[1].column.append(static_cast<uint32_t>((state >> 20) % 10'000));
            block.columns[2].column.append(static_cast<uint32_t>(state >> 32));
        }
        blocks.push_back(std::move(block));
    }
    database.insert(table, std::move(blocks));
}

}  // namespace

int main(int argc, char** argv)
{
    const bench::RunShape shape = bench::runShapeOf(argc, argv, 7);
    const bench::ScratchFolder folder("nullable");
    int failures = 0;
    {
        granary::Session session(granary::Session::openDatabase(folder.path()));
        session.execute("CREATE TABLE plain (k UInt64, g UInt32, v UInt32) ORDER BY k");
        session.execute(
            "CREATE TABLE nullable (k UInt64, g Nullable(UInt32), v Nullable(UInt32)) ORDER BY k");
        fill(session.database(), "plain", shape.rows);
        fill(session.database(), "nullable", shape.rows);
        const std::vector<std::string> queries = {
            "SELECT sum(v), count() FROM {}",
            "SELECT count() FROM {} WHERE v > 3000000000",
            "SELECT sum(v % 7 + g) FROM {} WHERE g < 5000",
            "SELECT g, sum(v), max(v) FROM {} GROUP BY g ORDER BY g LIMIT 3",
        };
        granary::QueryOptions options;
        options.threads = shape.threads;
        std::printf("%zu rows, %zu threads, median of %d interleaved runs (ms)\n", shape.rows,
                    shape.threads, shape.repetitions);
        std::printf("%-68s %9s %9s %7s\n", "query", "NOT NULL", "Nullable", "ratio");
        for (const std::string& query : queries)
        {
            const auto over = [&](const std::string& table)
            {
                std::string text = query;
                return text.replace(text.find("{}"), 2, table);
            };
            std::vector<double> plain;
            std::vector<double> nullable;
            std::string plain_answer;
            std::string nullable_answer;
            for (int r = -1; r < shape.repetitions; ++r)  // run -1 warms up
            {
                const bench::TimedQuery over_plain =
                    bench::timeQuery(session, over("plain"), options);
                const bench::TimedQuery over_nullable =
                    bench::timeQuery(session, over("nullable"), options);
                plain_answer = over_plain.rows;
                nullable_answer = over_nullable.rows;
                if (r >= 0)
                {
                    plain.push_back(over_plain.seconds);
                    nullable.push_back(over_nullable.seconds);
                }
            }
            const bool same = plain_answer == nullable_answer;
            failures += same ? 0 : 1;
            std::printf("%-68s %9.2f %9.2f %6.3fx%s\n", query.c_str(), bench::median(plain) * 1e3,
                        bench::median(nullable) * 1e3,
                        bench::median(nullable) / bench::median(plain),
                        same ? "" : "  ANSWERS DIFFER");
        }
    }
    return failures == 0 ? 0 : 1;
}
