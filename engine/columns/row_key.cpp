#include "engine/columns/row_key.h"

namespace granary
{
namespace
{

template <typename T>
void appendBytes(std::string& out, const T& value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

}  // namespace

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

}  // namespace granary
