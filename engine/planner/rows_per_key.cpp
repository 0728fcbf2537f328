#include "engine/planner/rows_per_key.h"

#include <absl/container/flat_hash_map.h>

#include <string>

namespace granary
{
namespace
{

template <typename T>
void appendBytes(std::string& out, const T& value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

/// Appends row `row` of `view` to `out` so that two rows append the same bytes exactly when
/// they are equal: fixed values by their bytes, strings and nested rows prefixed by their
/// length, a NULL as a flag of its own.
void appendRowKey(const ColumnView& view, size_t row, std::string& out)
{
    if (view.hasValidity())
    {
        const bool valid = view.isValid(row);
        out.push_back(valid ? 1 : 0);
        if (!valid)
        {
            return;
        }
    }
    if (isString(view.type))
    {
        const std::string_view value = view.stringAt(row);
        appendBytes(out, value.size());
        out.append(value);
        return;
    }
    if (isNested(view.type))
    {
        const uint64_t begin = view.offsets[row];
        const uint64_t end = view.offsets[row + 1];
        appendBytes(out, end - begin);
        for (size_t child = 0; child < nestedChildCount(view.type); ++child)
        {
            for (uint64_t element = begin; element < end; ++element)
            {
                appendRowKey(view.children[child], element, out);
            }
        }
        return;
    }
    const size_t width = fixedWidth(view.type);
    out.append(static_cast<const char*>(view.data) + row * width, width);
}

}  // namespace

std::vector<uint32_t> rowsWithinKeyLimit(const std::vector<ColumnView>& keys,
                                         std::span<const uint32_t> rows, uint64_t offset,
                                         uint64_t limit)
{
    absl::flat_hash_map<std::string, uint64_t> seen;
    std::vector<uint32_t> kept;
    std::string key;
    for (const uint32_t row : rows)
    {
        key.clear();
        for (const ColumnView& column : keys)
        {
            appendRowKey(column, row, key);
        }
        const uint64_t occurrence = seen[key]++;
        if (occurrence >= offset && occurrence - offset < limit)
        {
            kept.push_back(row);
        }
    }
    return kept;
}

}  // namespace granary
