#include "engine/expressions/collection_functions.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "engine/common/ascii.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/row_function_node.h"
#include "engine/formats/json_column.h"

namespace granary
{
namespace
{

/// Row `row` of a fixed-width view as the type `Wide`.
template <typename Wide>
Wide numberAt(const ColumnView& view, size_t row)
{
    return dispatchFixedType(
        view.type, [&]<typename T>(TypeTag<T>) { return static_cast<Wide>(view.valueAt<T>(row)); });
}

/// Finds the first of elements [begin, end) equal to a needle: one value per row, or one for
/// all rows. Integers compare by value whatever their widths (as 128-bit integers), floats as
/// doubles, strings bytewise.
class ElementMatcher
{
public:
    ElementMatcher(const ColumnView& elements, const Operand& needle)
        : elements_(elements), needle_(needle)
    {
    }

    /// The index of the match in [begin, end), or end.
    uint64_t find(uint64_t begin, uint64_t end, size_t row) const
    {
        const size_t needle_row = needle_.scalar ? 0 : row;
        if (isString(elements_.type))
        {
            const std::string_view wanted = needle_.view.stringAt(needle_row);
            for (uint64_t i = begin; i < end; ++i)
            {
                if (elements_.stringAt(i) == wanted)
                {
                    return i;
                }
            }
            return end;
        }
        if (isFloat(elements_.type) || isFloat(needle_.view.type))
        {
            const double wanted = numberAt<double>(needle_.view, needle_row);
            for (uint64_t i = begin; i < end; ++i)
            {
                if (numberAt<double>(elements_, i) == wanted)
                {
                    return i;
                }
            }
            return end;
        }
        const __int128 wanted = numberAt<__int128>(needle_.view, needle_row);
        for (uint64_t i = begin; i < end; ++i)
        {
            if (numberAt<__int128>(elements_, i) == wanted)
            {
                return i;
            }
        }
        return end;
    }

private:
    const ColumnView& elements_;
    const Operand& needle_;
};

DataType elementType(const DataType& container)
{
    return container.id == TypeId::Map ? container.value() : container.element();
}

class ArrayElementNode final : public ExpressionNode
{
public:
    ArrayElementNode(NodePtr container, NodePtr index)
        : ExpressionNode(elementType(container->dataType()), {container, std::move(index)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column container_holder;
        const ColumnView container = children()[0]->evaluate(input, begin, count, container_holder);
        Operand index;
        evaluateOperand(*children()[1], input, begin, count, index);
        holder = Column(dataType());
        const bool is_map = container.type == TypeId::Map;
        const ColumnView& values = container.children[is_map ? 1 : 0];
        const ElementMatcher keys(container.children[0], index);
        for (size_t row = 0; row < count; ++row)
        {
            const uint64_t first = container.offsets[row];
            const uint64_t end = container.offsets[row + 1];
            const uint64_t at =
                is_map ? keys.find(first, end, row) : arrayPosition(first, end, index, row);
            if (at < end)
            {
                holder.appendRange(values, at, 1);
            }
            else
            {
                holder.appendDefaults(1);
            }
        }
        return holder.view();
    }

private:
    /// The element an Array index names: 1 is the first, -1 the last; end when out of range.
    static uint64_t arrayPosition(uint64_t first, uint64_t end, const Operand& index, size_t row)
    {
        const __int128 position = numberAt<__int128>(index.view, index.scalar ? 0 : row);
        const auto size = static_cast<__int128>(end - first);
        if (position >= 1 && position <= size)
        {
            return first + static_cast<uint64_t>(position - 1);
        }
        if (position < 0 && -position <= size)
        {
            return static_cast<uint64_t>(static_cast<__int128>(end) + position);
        }
        return end;
    }
};

class MapPartNode final : public ExpressionNode
{
public:
    MapPartNode(NodePtr map, bool keys)
        : ExpressionNode(DataType::array(keys ? map->dataType().key() : map->dataType().value()),
                         {map}),
          part_(keys ? 0 : 1)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column map_holder;
        const ColumnView map = children()[0]->evaluate(input, begin, count, map_holder);
        // The part shares the map's offsets: one Array row per map row, over the part's rows.
        ColumnView part = map;
        part.type = TypeId::Array;
        part.validity = nullptr;
        part.children = map.children + part_;
        holder = Column(dataType());
        holder.appendRange(part, 0, count);
        return holder.view();
    }

private:
    size_t part_;
};

class ContainsNode final : public ExpressionNode
{
public:
    ContainsNode(NodePtr container, NodePtr value)
        : ExpressionNode(TypeId::UInt8, {std::move(container), std::move(value)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column container_holder;
        const ColumnView container = children()[0]->evaluate(input, begin, count, container_holder);
        Operand value;
        evaluateOperand(*children()[1], input, begin, count, value);
        const ElementMatcher matcher(container.children[0], value);
        holder = Column(TypeId::UInt8);
        holder.resizeFixed(count);
        uint8_t* out = holder.mutableData<uint8_t>();
        for (size_t row = 0; row < count; ++row)
        {
            const uint64_t end = container.offsets[row + 1];
            out[row] = matcher.find(container.offsets[row], end, row) != end ? 1 : 0;
        }
        return holder.view();
    }
};

/// One path of a JSON column: as text, or in a typed path's type; rows without it give the
/// default (the empty string as text).
class JsonPathNode final : public ExpressionNode
{
public:
    JsonPathNode(NodePtr json, std::string path, std::optional<DataType> typed)
        : ExpressionNode(typed ? *typed : DataType(TypeId::String), {std::move(json)}),
          path_(std::move(path)),
          typed_(typed.has_value())
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column json_holder;
        const ColumnView json = children()[0]->evaluate(input, begin, count, json_holder);
        holder = Column(dataType());
        std::string text;
        for (size_t row = 0; row < count; ++row)
        {
            if (typed_)
            {
                appendJsonPathValue(json, row, path_, holder);
                continue;
            }
            text.clear();
            appendJsonPathText(json, row, path_, text);
            holder.appendString(text);
        }
        return holder.view();
    }

private:
    std::string path_;
    bool typed_;
};

}  // namespace

NodePtr makeJsonPath(NodePtr json, std::string path, std::optional<DataType> typed)
{
    return std::make_shared<JsonPathNode>(std::move(json), std::move(path), std::move(typed));
}

bool comparableElements(const DataType& element_type, TypeId value_type)
{
    if (isNested(element_type.id) || isNested(value_type))
    {
        return false;
    }
    return isString(element_type.id) == isString(value_type);
}

NodePtr makeArrayElement(NodePtr container, NodePtr index)
{
    return std::make_shared<ArrayElementNode>(std::move(container), std::move(index));
}

NodePtr makeMapPart(NodePtr map, bool keys)
{
    return std::make_shared<MapPartNode>(std::move(map), keys);
}

NodePtr makeContains(NodePtr container, NodePtr value)
{
    return std::make_shared<ContainsNode>(std::move(container), std::move(value));
}

namespace
{

/// mapKeys(m) and mapValues(m).
NodePtr buildMapPart(CallContext& call)
{
    if (call.argument(0)->type() != TypeId::Map)
    {
        call.failArgumentType(0, "a Map");
    }
    return makeMapPart(call.argument(0), call.lowerName() == "mapkeys");
}

/// arrayElement (a[i], m[k]), has(array, x) and mapContains(map, k).
NodePtr buildLookup(CallContext& call)
{
    const std::string& name = call.lowerName();
    const DataType& container = call.argument(0)->dataType();
    const bool accepted = name == "mapcontains" ? container.id == TypeId::Map
                          : name == "has"
                              ? container.id == TypeId::Array
                              : container.id == TypeId::Array || container.id == TypeId::Map;
    if (!accepted)
    {
        call.failArgumentType(0, name == "mapcontains" ? "a Map"
                                 : name == "has"       ? "an Array"
                                                       : "an Array or Map");
    }
    const bool by_key = name != "has" && container.id == TypeId::Map;
    const bool by_position = name == "arrayelement" && container.id == TypeId::Array;
    const TypeId value_type = call.argument(1)->type();
    if (by_position
            ? !isInteger(value_type) || isParametric(value_type)
            : !comparableElements(by_key ? container.key() : container.element(), value_type))
    {
        call.fail(ErrorCode::kTypeMismatch, "Function " + call.name() + " cannot look up " +
                                                call.quotedArgument(1) + " of type " +
                                                std::string(typeName(value_type)) + " in " +
                                                dataTypeName(container));
    }
    if (name == "arrayelement")
    {
        return makeArrayElement(call.argument(0), call.argument(1));
    }
    return makeContains(call.argument(0), call.argument(1));
}

/// Orders two elements of type T, ascending or (`descending`) descending: numbers by value
/// with every NaN after the others either way (and equal to another NaN), strings bytewise.
template <typename T>
bool elementBefore(const T& left, const T& right, bool descending)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        if (std::isnan(left) || std::isnan(right))
        {
            return !std::isnan(left) && std::isnan(right);
        }
    }
    return descending ? right < left : left < right;
}

/// How arraySort, arrayReverseSort, arrayDistinct and arrayReverse reorder a row's elements.
enum class ArrayReorder
{
    kSort,
    kReverseSort,
    kDistinct,
    kReverse,
};

/// The positions of elements [begin, end) of `elements` in the order `reorder` gives them
/// (arrayDistinct: each value's first position, in the array's order).
template <typename T>
std::vector<uint64_t> reorderedPositions(const ColumnView& elements, uint64_t begin, uint64_t end,
                                         ArrayReorder reorder)
{
    std::vector<uint64_t> positions(end - begin);
    std::iota(positions.begin(), positions.end(), begin);
    const auto value = [&](uint64_t position)
    {
        if constexpr (std::is_same_v<T, std::string_view>)
        {
            return elements.stringAt(position);
        }
        else
        {
            return elements.valueAt<T>(position);
        }
    };
    const auto less = [&](uint64_t a, uint64_t b)
    { return elementBefore(value(a), value(b), false); };
    switch (reorder)
    {
        case ArrayReorder::kSort:
            std::stable_sort(positions.begin(), positions.end(), less);
            break;
        case ArrayReorder::kReverseSort:
            std::stable_sort(positions.begin(), positions.end(),
                             [&](uint64_t a, uint64_t b)
                             { return elementBefore(value(a), value(b), true); });
            break;
        case ArrayReorder::kDistinct:
        {
            std::vector<uint64_t> sorted = positions;
            std::stable_sort(sorted.begin(), sorted.end(), less);
            std::vector<bool> first(end - begin, false);
            for (size_t i = 0; i < sorted.size(); ++i)
            {
                first[sorted[i] - begin] = i == 0 || less(sorted[i - 1], sorted[i]);
            }
            std::erase_if(positions, [&](uint64_t position) { return !first[position - begin]; });
            break;
        }
        case ArrayReorder::kReverse:
            std::reverse(positions.begin(), positions.end());
            break;
    }
    return positions;
}

/// arraySort, arrayReverseSort, arrayDistinct and arrayReverse of an Array of numbers or
/// strings: the same elements, reordered (or thinned) per row.
NodePtr buildArrayReorder(CallContext& call)
{
    const DataType& type = call.argument(0)->dataType();
    if (type.id != TypeId::Array || isNested(type.element().id))
    {
        call.failArgumentType(0, "an Array of numbers, dates or strings");
    }
    const std::string& name = call.lowerName();
    const ArrayReorder reorder = name == "arraysort"          ? ArrayReorder::kSort
                                 : name == "arrayreversesort" ? ArrayReorder::kReverseSort
                                 : name == "arraydistinct"    ? ArrayReorder::kDistinct
                                                              : ArrayReorder::kReverse;
    return makeRowFunction(type, {call.argument(0)},
                           [reorder](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               const ColumnView& array = values[0].view;
                               const size_t at = values[0].scalar ? 0 : row;
                               const ColumnView& elements = array.children[0];
                               const std::vector<uint64_t> positions = dispatchType(
                                   elements.type,
                                   [&]<typename T>(TypeTag<T>) {
                                       return reorderedPositions<T>(elements, array.offsets[at],
                                                                    array.offsets[at + 1], reorder);
                                   });
                               for (const uint64_t position : positions)
                               {
                                   out.child(0).appendRange(elements, position, 1);
                               }
                               out.closeNestedRow();
                           });
}

/// getSubcolumn(json, 'path'[, 'Type']): the path as text, or in a typed path's type (the
/// planner passes it for `j.a.b` when the column declares `a.b` typed).
NodePtr buildGetSubcolumn(CallContext& call)
{
    if (call.argument(0)->type() != TypeId::Json)
    {
        call.failArgumentType(0, "a JSON value");
    }
    std::string path = call.constantString(1, "path");
    std::optional<DataType> typed;
    if (call.argumentCount() == 3)
    {
        typed = parseDataType(call.constantString(2, "type"));
        // Arrays and maps of a typed path read as text.
        typed = isNested(typed->id) ? std::nullopt : std::optional(typed->valueType());
    }
    return makeJsonPath(call.argument(0), std::move(path), std::move(typed));
}

}  // namespace

std::vector<ScalarFunction> collectionFunctionEntries()
{
    return {
        {"arrayElement", "arrayElement(container, key), container[key]",
         "An Array's element at a 1-based index (negative from the end), a Map's value for a "
         "key; the type's default when absent.",
         2, 2, true, buildLookup},
        {"has", "has(array, x)", "1 when an element of the Array equals x.", 2, 2, true,
         buildLookup},
        {"mapContains", "mapContains(map, key)", "1 when the Map has the key.", 2, 2, true,
         buildLookup},
        {"arraySort", "arraySort(array)",
         "The Array's elements in ascending order (NaN last; strings bytewise).", 1, 1, true,
         buildArrayReorder},
        {"arrayReverseSort", "arrayReverseSort(array)",
         "The Array's elements in descending order (NaN last).", 1, 1, true, buildArrayReorder},
        {"arrayDistinct", "arrayDistinct(array)",
         "The Array's distinct elements, each where it first occurs (every NaN one value).", 1, 1,
         true, buildArrayReorder},
        {"arrayReverse", "arrayReverse(array)", "The Array's elements in reverse order.", 1, 1,
         true, buildArrayReorder},
        {"mapKeys", "mapKeys(map)", "The Map's keys as an Array.", 1, 1, true, buildMapPart},
        {"mapValues", "mapValues(map)", "The Map's values as an Array.", 1, 1, true, buildMapPart},
        {"getSubcolumn", "getSubcolumn(json, 'path'[, 'Type']), json.path",
         "A JSON path's value as text, or in a typed path's type; '' or the default where a row "
         "lacks it.",
         2, 3, true, buildGetSubcolumn},
    };
}

}  // namespace granary
