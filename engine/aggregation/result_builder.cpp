#include "engine/aggregation/result_builder.h"

#include <algorithm>
#include <cstring>

namespace granary
{
namespace
{

/// Rows of fragments one concatenation task copies at least.
constexpr size_t kConcatRowsPerTask = 16384;

/// Marks in `result` the NULLs of every fragment (rows from first_row[f]). Serial: the tasks
/// that copy values would share the bitmap's bytes at fragment boundaries.
void copyNullMarks(const std::vector<Block>& fragments, const std::vector<size_t>& first_row,
                   Block& result)
{
    for (size_t f = 0; f < fragments.size(); ++f)
    {
        for (size_t c = 0; c < result.columns.size(); ++c)
        {
            const Column& part = fragments[f].columns[c].column;
            for (size_t row = 0; part.hasNulls() && row < part.size(); ++row)
            {
                if (part.isNull(row))
                {
                    result.columns[c].column.setNull(first_row[f] + row);
                }
            }
        }
    }
}

/// Copies fragment `f` into `result` at its rows (first_row) and, for String columns, its
/// bytes (first_char), then frees it. Nested columns were appended before.
void copyFragment(Block& fragment, size_t f, const std::vector<size_t>& first_row,
                  const std::vector<std::vector<size_t>>& first_char, Block& result)
{
    for (size_t c = 0; c < fragment.columns.size(); ++c)
    {
        const ColumnView part = fragment.columns[c].column.view();
        Column& column = result.columns[c].column;
        // An empty fragment's buffers may be null: memcpy must not see them.
        if (part.rows == 0 || isNested(column.type()))
        {
            continue;
        }
        if (isString(column.type()))
        {
            const size_t base = first_char[c][f];
            if (part.offsets[part.rows] > 0)
            {
                std::memcpy(column.mutableChars() + base, part.chars, part.offsets[part.rows]);
            }
            uint64_t* offsets = column.mutableOffsets() + first_row[f];
            for (size_t row = 0; row < part.rows; ++row)
            {
                offsets[row + 1] = base + part.offsets[row + 1];
            }
        }
        else
        {
            const size_t width = fixedWidth(column.type());
            std::memcpy(column.mutableData<char>() + first_row[f] * width, part.data,
                        part.rows * width);
        }
    }
    fragment = Block();
}

}  // namespace

Block concatenateFragments(std::vector<Block>& fragments, QueryContext& context,
                           PhaseRecorder& recorder)
{
    Block result;
    if (fragments.empty())
    {
        return result;
    }
    if (fragments.size() == 1)
    {
        return std::move(fragments.front());
    }
    const size_t column_count = fragments.front().columns.size();
    std::vector<size_t> first_row(fragments.size() + 1, 0);
    for (size_t f = 0; f < fragments.size(); ++f)
    {
        first_row[f + 1] = first_row[f] + fragments[f].rows();
    }
    const size_t total_rows = first_row.back();

    // Per String column, where each fragment's bytes start.
    std::vector<std::vector<size_t>> first_char(column_count);
    for (size_t c = 0; c < column_count; ++c)
    {
        const Block::Entry& prototype = fragments.front().columns[c];
        result.columns.push_back({prototype.name, prototype.column.emptyLike()});
        Column& column = result.columns.back().column;
        if (isNested(column.type()))
        {
            // Rows of nested columns (topK's, quantiles' arrays) follow their children's:
            // appended in order here, skipped by the tasks below.
            for (const Block& fragment : fragments)
            {
                column.appendRange(fragment.columns[c].column.view(), 0, fragment.rows());
            }
        }
        else if (isString(column.type()))
        {
            first_char[c].assign(fragments.size() + 1, 0);
            for (size_t f = 0; f < fragments.size(); ++f)
            {
                const ColumnView part = fragments[f].columns[c].column.view();
                first_char[c][f + 1] = first_char[c][f] + part.offsets[part.rows];
            }
            column.resizeStrings(total_rows, first_char[c].back());
        }
        else
        {
            column.resizeFixed(total_rows);
        }
    }

    copyNullMarks(fragments, first_row, result);
    // Fragments are copied in ranges of at least kConcatRowsPerTask rows: a top-N's 256
    // fragments of ten rows each are one task's work, not 256 tasks'.
    const size_t tasks = std::clamp<size_t>(total_rows / kConcatRowsPerTask, 1, fragments.size());
    context.runTasks(recorder, tasks,
                     [&](size_t task, TaskTimer&)
                     {
                         const size_t end = (task + 1) * fragments.size() / tasks;
                         for (size_t f = task * fragments.size() / tasks; f < end; ++f)
                         {
                             copyFragment(fragments[f], f, first_row, first_char, result);
                         }
                     });
    return result;
}

Block concatenateResult(std::vector<Block> fragments, const GroupByPlan& plan,
                        QueryContext& context)
{
    if (fragments.empty())
    {
        return emptyResult(plan);
    }
    if (fragments.size() == 1)
    {
        return std::move(fragments.front());
    }
    PhaseRecorder finalize(context.stats().phase(QueryPhase::kFinalize));
    return concatenateFragments(fragments, context, finalize);
}

}  // namespace granary
