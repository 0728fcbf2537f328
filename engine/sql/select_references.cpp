#include "engine/sql/select_references.h"

#include <string>

#include "engine/common/exception.h"

namespace granary::sql
{

const SelectItem* referencedSelectItem(const SelectStatement& select, const Expression& key)
{
    if (const auto* literal = key.as<Literal>())
    {
        const auto* position = std::get_if<uint64_t>(&literal->value);
        if (position == nullptr)
        {
            return nullptr;
        }
        if (*position == 0 || *position > select.items.size())
        {
            const size_t items = select.items.size();
            throw Exception(ErrorCode::kBadArguments,
                            "positional argument " + std::to_string(*position) + " at " +
                                describePosition(key.position) +
                                " is out of range: the select list has " + std::to_string(items) +
                                (items == 1 ? " item" : " items"));
        }
        return &select.items[*position - 1];
    }
    if (const auto* column = key.as<ColumnRef>())
    {
        for (const SelectItem& item : select.items)
        {
            if (item.alias == column->name)
            {
                return &item;
            }
        }
    }
    return nullptr;
}

}  // namespace granary::sql
