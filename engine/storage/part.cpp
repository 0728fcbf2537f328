#include "engine/storage/part.h"

#include <atomic>
#include <functional>
#include <string>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

void checkIndex(size_t index, size_t count, const char* what)
{
    if (index >= count)
    {
        throw Exception(ErrorCode::kLogicalError,
                        std::string(what) + " index " + std::to_string(index) + " out of range");
    }
}

uint64_t nextPartId()
{
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Part::Part(PartContents contents)
    : contents_(std::move(contents)),
      checked_(std::make_unique<std::once_flag[]>(contents_.columns.size())),
      id_(nextPartId())
{
}

ColumnView Part::column(size_t column_index) const
{
    checkIndex(column_index, contents_.columns.size(), "column");
    if (!contents_.first_use_checks.empty())
    {
        std::call_once(checked_[column_index], contents_.first_use_checks[column_index],
                       std::cref(contents_));
    }
    return contents_.columns[column_index];
}

size_t Part::columnBytes(size_t column_index) const
{
    checkIndex(column_index, contents_.column_bytes.size(), "column");
    return contents_.column_bytes[column_index];
}

ColumnView Part::granuleMin(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_min.size(), "sort key");
    return contents_.granule_min[sort_key_index].view();
}

ColumnView Part::granuleMax(size_t sort_key_index) const
{
    checkIndex(sort_key_index, contents_.granule_max.size(), "sort key");
    return contents_.granule_max[sort_key_index].view();
}

}  // namespace granary
