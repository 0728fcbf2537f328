// Arrow in, Arrow out: a host that already holds its columns as Arrow C Data arrays hands them
// to Granary in place, and reads the result back as an ArrowArrayStream.
// SELECT region, count(*), sum(amount) GROUP BY region, with NULL amounts skipped.

#include <granary/groupby.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace
{

/// The host's own arrays: a struct of region (int32) and amount (float64, some NULL). The
/// memory stays the host's; release only marks the structs released.
struct HostBatch
{
    static constexpr int64_t kRows = 10'000;
    std::vector<int32_t> region = std::vector<int32_t>(kRows);
    std::vector<double> amount = std::vector<double>(kRows);
    std::vector<uint8_t> amount_valid = std::vector<uint8_t>((kRows + 7) / 8, 0xFF);
    const void* region_buffers[2] = {nullptr, nullptr};
    const void* amount_buffers[2] = {nullptr, nullptr};
    const void* struct_buffers[1] = {nullptr};
    ArrowArray region_array{}, amount_array{}, batch{};
    ArrowArray* children[2] = {&region_array, &amount_array};
    ArrowSchema region_schema{}, amount_schema{}, schema{};
    ArrowSchema* child_schemas[2] = {&region_schema, &amount_schema};

    HostBatch()
    {
        int64_t nulls = 0;
        for (int64_t row = 0; row < kRows; ++row)
        {
            region[row] = static_cast<int32_t>(row % 5);
            amount[row] = static_cast<double>(row % 100) / 4;
            if (row % 10 == 0)
            {
                amount_valid[row / 8] &= static_cast<uint8_t>(~(1u << (row % 8)));
                ++nulls;
            }
        }
        region_buffers[1] = region.data();
        amount_buffers[0] = amount_valid.data();
        amount_buffers[1] = amount.data();
        region_array = {kRows, 0, 0, 2, 0, region_buffers, nullptr, nullptr, releaseArray, nullptr};
        amount_array = {kRows, nulls, 0, 2, 0, amount_buffers, nullptr, nullptr, releaseArray, nullptr};
        batch = {kRows, 0, 0, 1, 2, struct_buffers, children, nullptr, releaseArray, nullptr};
        region_schema = {"i", "region", nullptr, 0, 0, nullptr, nullptr, releaseSchema, nullptr};
        amount_schema = {"g", "amount", nullptr, ARROW_FLAG_NULLABLE, 0, nullptr, nullptr,
                         releaseSchema, nullptr};
        schema = {"+s", "", nullptr, 0, 2, child_schemas, nullptr, releaseSchema, nullptr};
    }
    static void releaseArray(ArrowArray* array) { array->release = nullptr; }
    static void releaseSchema(ArrowSchema* schema) { schema->release = nullptr; }
};

/// Prints every batch of `stream` (columns region, hits, total) and releases them.
int printStream(ArrowArrayStream& stream)
{
    ArrowArray batch;
    int64_t groups = 0;
    int status = 0;
    while ((status = stream.get_next(&stream, &batch)) == 0 && batch.release != nullptr)
    {
        const auto* regions = static_cast<const int32_t*>(batch.children[0]->buffers[1]);
        const auto* hits = static_cast<const uint64_t*>(batch.children[1]->buffers[1]);
        const auto* totals = static_cast<const double*>(batch.children[2]->buffers[1]);
        for (int64_t row = 0; row < batch.length; ++row)
        {
            std::printf("region %d: hits %llu total %.2f\n", regions[row],
                        static_cast<unsigned long long>(hits[row]), totals[row]);
        }
        groups += batch.length;
        batch.release(&batch);
    }
    if (status != 0)
    {
        // A batch that could not be exported ends the stream with an error, not early.
        std::fprintf(stderr, "error: %s\n", stream.get_last_error(&stream));
        return 1;
    }
    std::printf("groups %lld\n", static_cast<long long>(groups));
    return groups == 5 ? 0 : 1;
}

}  // namespace

int main()
{
    HostBatch host;
    try
    {
        granary::GroupBy group_by(host.schema, {"region"},
                                  {{"count", {}, "hits"}, {"sum", {"amount"}, "total"}});
        granary::LocalSink sink = group_by.makeLocalSink();
        sink.sinkArrow(host.batch);  // read in place; the batch stays the host's
        group_by.combine(std::move(sink));

        ArrowArrayStream stream;
        group_by.finish().exportTo(&stream);
        const int status = printStream(stream);
        stream.release(&stream);
        return status;
    }
    catch (const granary::Exception& e)
    {
        std::fprintf(stderr, "error %d: %s\n", static_cast<int>(e.code()), e.what());
    }
    return 1;
}
