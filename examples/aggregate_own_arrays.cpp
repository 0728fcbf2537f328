// A query engine hands its own arrays to Granary's aggregator, without copying them:
// SELECT region, count(*), sum(amount), count(DISTINCT user) GROUP BY region.

#include <granary/aggregator.h>

#include <cstdint>
#include <cstdio>
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

    granary::BlockView input;
    input.add("region", granary::ColumnView::of(granary::TypeId::UInt32, region.data(), rows));
    input.add("user", granary::ColumnView::of(granary::TypeId::UInt64, user.data(), rows));
    input.add("amount", granary::ColumnView::of(granary::TypeId::Float64, amount.data(), rows));

    granary::AggregationSettings settings;
    settings.max_threads = 4;
    granary::Aggregator aggregator(
        {"region"},
        {{"count", {}, "hits"}, {"sum", {"amount"}, "total"}, {"uniqExact", {"user"}, "users"}},
        settings);
    granary::QueryContext context(settings.max_threads, /*memory_limit_bytes=*/512 << 20);
    try
    {
        const granary::Block result = aggregator.execute(input, context);
        uint64_t total_hits = 0;
        for (size_t row = 0; row < result.rows(); ++row)
        {
            std::printf(
                "region %u: hits %llu total %.2f users %llu\n",
                result.columns[0].column.valueAt<uint32_t>(row),
                static_cast<unsigned long long>(result.columns[1].column.valueAt<uint64_t>(row)),
                result.columns[2].column.valueAt<double>(row),
                static_cast<unsigned long long>(result.columns[3].column.valueAt<uint64_t>(row)));
            total_hits += result.columns[1].column.valueAt<uint64_t>(row);
        }
        std::printf("groups %zu, rows %llu\n%s", result.rows(),
                    static_cast<unsigned long long>(total_hits),
                    context.stats().toString().c_str());
        return total_hits == rows ? 0 : 1;
    }
    catch (const granary::Exception& e)
    {
        std::fprintf(stderr, "error %d: %s\n", static_cast<int>(e.code()), e.what());
    }
    catch (const granary::MemoryLimitExceeded& e)
    {
        std::fprintf(stderr, "%s\n", e.what());
    }
    return 1;
}
