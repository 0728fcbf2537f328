// Nullable columns without NULLs against the same columns declared NOT NULL, in the same run:
// a scan with an aggregate, a filter, an expression and a GROUP BY over each table, on disk.
// Prints each query's median time over both tables and their ratio (target: within 5%).
// Usage: nullable [rows] [repetitions] [threads]

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

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

double secondsOf(granary::Session& session, const std::string& query,
                 const granary::QueryOptions& options, std::string& answer)
{
    const auto start = std::chrono::steady_clock::now();
    const granary::QueryResult result = session.execute(query, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream text;
    granary::writeBlockRows(result.block, granary::OutputFormat::kTSV, text);
    answer = text.str();
    return seconds;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
    const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const int repetitions = argc > 2 ? std::atoi(argv[2]) : 7;
    const size_t threads = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2;
    const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                         ("granary-nullable-bench-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    int failures = 0;
    {
        granary::Session session(granary::Session::openDatabase(folder));
        session.execute("CREATE TABLE plain (k UInt64, g UInt32, v UInt32) ORDER BY k");
        session.execute(
            "CREATE TABLE nullable (k UInt64, g Nullable(UInt32), v Nullable(UInt32)) ORDER BY k");
        fill(session.database(), "plain", rows);
        fill(session.database(), "nullable", rows);
        const std::vector<std::string> queries = {
            "SELECT sum(v), count() FROM {}",
            "SELECT count() FROM {} WHERE v > 3000000000",
            "SELECT sum(v % 7 + g) FROM {} WHERE g < 5000",
            "SELECT g, sum(v), max(v) FROM {} GROUP BY g ORDER BY g LIMIT 3",
        };
        granary::QueryOptions options;
        options.threads = threads;
        std::printf("%zu rows, %zu threads, median of %d interleaved runs (ms)\n", rows, threads,
                    repetitions);
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
            secondsOf(session, over("plain"), options, plain_answer);  // warm-up
            secondsOf(session, over("nullable"), options, nullable_answer);
            for (int r = 0; r < repetitions; ++r)
            {
                plain.push_back(secondsOf(session, over("plain"), options, plain_answer));
                nullable.push_back(secondsOf(session, over("nullable"), options, nullable_answer));
            }
            const bool same = plain_answer == nullable_answer;
            failures += same ? 0 : 1;
            std::printf("%-68s %9.2f %9.2f %6.3fx%s\n", query.c_str(), median(plain) * 1e3,
                        median(nullable) * 1e3, median(nullable) / median(plain),
                        same ? "" : "  ANSWERS DIFFER");
        }
    }
    std::filesystem::remove_all(folder);
    return failures == 0 ? 0 : 1;
}
