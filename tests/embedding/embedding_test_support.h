#pragma once

// Helpers of the embedding suites: a host that sinks a block's rows from many threads through
// the public API, and the result gathered back into one Block for the reference's comparison.

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/columns/block.h"
#include "granary/groupby.h"

namespace granary::testing
{

/// The input fields of `block` (every column nullable when `nullable`).
inline std::vector<Field> fieldsOf(const Block& block, bool nullable = false)
{
    std::vector<Field> fields;
    for (const Block::Entry& entry : block.columns)
    {
        fields.push_back({entry.name, entry.column.type(), nullable});
    }
    return fields;
}

/// Views of rows [begin, begin + rows) of every column of `block`.
inline std::vector<ColumnView> sliceOf(const Block& block, size_t begin, size_t rows)
{
    std::vector<ColumnView> views;
    for (const Block::Entry& entry : block.columns)
    {
        views.push_back(entry.column.view().slice(begin, rows));
    }
    return views;
}

/// Sinks `block` into `group_by` from `hosts` threads with a sink each: host h takes batches
/// of uneven lengths (1 to 3 * base rows, by h) of the rows in its share, also empty ones,
/// so hosts sink different batch counts. A host's error is rethrown here once all have ended.
inline void sinkFromHosts(GroupBy& group_by, const Block& block, size_t hosts, size_t base_rows)
{
    const size_t rows = block.rows();
    std::vector<std::thread> threads;
    std::mutex error_mutex;
    std::exception_ptr error;
    for (size_t h = 0; h < hosts; ++h)
    {
        threads.emplace_back(
            [&, h]
            {
                try
                {
                    LocalSink sink = group_by.makeLocalSink();
                    // Uneven shares: host h takes rows [rows * h^2 / hosts^2, ...).
                    const size_t begin = rows * h * h / (hosts * hosts);
                    const size_t end = rows * (h + 1) * (h + 1) / (hosts * hosts);
                    const size_t batch = base_rows * (1 + h % 3);
                    sink.sink(sliceOf(block, begin, 0), 0);
                    for (size_t row = begin; row < end; row += batch)
                    {
                        const size_t count = std::min(batch, end - row);
                        sink.sink(sliceOf(block, row, count), count);
                    }
                    group_by.combine(std::move(sink));
                }
                catch (...)
                {
                    std::lock_guard lock(error_mutex);
                    error = std::current_exception();
                }
            });
    }
    for (std::thread& thread : threads)
    {
        thread.join();
    }
    if (error)
    {
        std::rethrow_exception(error);
    }
}

/// Every batch of `stream` appended into one Block (NULLs kept).
inline Block collect(ResultStream& stream)
{
    Block result;
    for (const Field& field : stream.schema())
    {
        result.columns.push_back(
            {field.name, Column(field.type == TypeId::Array ? DataType::array(field.element_type)
                                                            : DataType(field.type))});
    }
    ResultBatch batch;
    while (stream.next(batch))
    {
        for (size_t c = 0; c < batch.columnCount(); ++c)
        {
            result.columns[c].column.appendRange(batch.column(c), 0, batch.rows());
        }
    }
    return result;
}

}  // namespace granary::testing
