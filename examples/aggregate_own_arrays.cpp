// A query engine hands its own arrays to Granary's GROUP BY operator, without copying them,
// from two threads with a local sink each:
// SELECT region, count(*), sum(amount), count(DISTINCT user) GROUP BY region.

#include <granary/groupby.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

int main()
{
    const size_t rows = 1'000'000;
    std::vector<uint32_t> region(rows);
    std::vector<uint64_t> user(rows);
    std::vector<double> amount(rows);
    for (size_t i = 0; i < rows; ++i)
    {
        region[i] = static_cast<uint32_t>(i % 7);
        user[i] = (i * 2654435761u) % 50'000;
        amount[i] = static_cast<double>(i % 100) / 4;
    }

    granary::GroupBySettings settings;
    settings.threads = 4;
    settings.max_memory_usage = 512 << 20;
    try
    {
        granary::GroupBy group_by(
            {{"region", granary::TypeId::UInt32},
             {"user", granary::TypeId::UInt64},
             {"amount", granary::TypeId::Float64}},
            {"region"},
            {{"count", {}, "hits"}, {"sum", {"amount"}, "total"}, {"uniqExact", {"user"}, "users"}},
            settings);
        // Each host thread sinks its half in batches of 10,000 rows.
        auto host = [&](size_t begin, size_t end)
        {
            granary::LocalSink sink = group_by.makeLocalSink();
            for (size_t row = begin; row < end; row += 10'000)
            {
                const size_t count = std::min<size_t>(10'000, end - row);
                const granary::ColumnView batch[] = {
                    granary::ColumnView::of(granary::TypeId::UInt32, region.data() + row, count),
                    granary::ColumnView::of(granary::TypeId::UInt64, user.data() + row, count),
                    granary::ColumnView::of(granary::TypeId::Float64, amount.data() + row, count)};
                sink.sink(batch, count);
            }
            group_by.combine(std::move(sink));
        };
        std::thread first(host, 0, rows / 2);
        host(rows / 2, rows);
        first.join();

        granary::ResultStream result = group_by.finish();
        granary::ResultBatch batch;
        uint64_t total_hits = 0;
        while (result.next(batch))
        {
            for (size_t row = 0; row < batch.rows(); ++row)
            {
                const uint64_t hits = batch.column(1).valueAt<uint64_t>(row);
                std::printf("region %u: hits %llu total %.2f users %llu\n",
                            batch.column(0).valueAt<uint32_t>(row),
                            static_cast<unsigned long long>(hits),
                            batch.column(2).valueAt<double>(row),
                            static_cast<unsigned long long>(batch.column(3).valueAt<uint64_t>(row)));
                total_hits += hits;
            }
        }
        const granary::GroupByStatistics stats = group_by.statistics();
        std::printf("groups %zu, rows %llu\nmerge path %s\n", stats.result_rows,
                    static_cast<unsigned long long>(total_hits), stats.merge_path.c_str());
        return total_hits == rows ? 0 : 1;
    }
    catch (const granary::Exception& e)
    {
        std::fprintf(stderr, "error %d (%s): %s\n", static_cast<int>(e.code()),
                     std::string(granary::errorCodeName(e.code())).c_str(), e.what());
    }
    return 1;
}
