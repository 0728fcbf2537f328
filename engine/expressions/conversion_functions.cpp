#include <algorithm>
#include <array>

#include "engine/columns/row_key.h"
#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/expressions/conversions.h"
#include "engine/expressions/date_functions.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/null_functions.h"
#include "engine/expressions/row_function_node.h"
#include "engine/formats/value_text.h"
#include "engine/storage/value_parser.h"

namespace granary
{
namespace
{

/// Fixed-width values converted by convertFixed.
class FixedConversionNode final : public ExpressionNode
{
public:
    FixedConversionNode(NodePtr value, TypeId target) : ExpressionNode(target, {std::move(value)})
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        Column value_holder;
        const ColumnView values = children()[0]->evaluate(input, begin, count, value_holder);
        Column storage;
        const ColumnView converted = convertFixed(values, type(), storage);
        holder = Column(type());
        holder.appendRange(converted, 0, converted.rows);
        return holder.view();
    }
};

NodePtr parseText(NodePtr text, const DataType& target)
{
    return makeRowFunction(target, {std::move(text)},
                           [](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               const std::string_view field = textAt(values[0], row);
                               const ParseStatus status = appendParsedValue(field, out);
                               if (status != ParseStatus::kOk)
                               {
                                   throw Exception(ErrorCode::kCannotParseInput,
                                                   parseFailureMessage(field, out.type(), status));
                               }
                           });
}

constexpr std::array<std::string_view, 11> kConversionNames = {
    "toUInt8", "toUInt16", "toUInt32",  "toUInt64",  "toInt8",   "toInt16",
    "toInt32", "toInt64",  "toFloat32", "toFloat64", "toString",
};

/// toInt8(x) ... toFloat64(x), toString(x): the type is the name's.
NodePtr buildToType(CallContext& call)
{
    const auto named = std::find_if(kConversionNames.begin(), kConversionNames.end(),
                                    [&](std::string_view name)
                                    { return equalsIgnoringCase(name, call.lowerName()); });
    const DataType target = parseDataType(named->substr(2));
    if (NodePtr converted = makeConversion(call.argument(0), target))
    {
        return converted;
    }
    call.failArgumentType(0, "a String, number, Date or DateTime");
}

/// _rowKey(a, b, ...): the values' exact key (columns/row_key.h), which count(DISTINCT a, b)
/// counts.
NodePtr buildRowKey(CallContext& call)
{
    return makeJoinedText(call.arguments(), appendRowKey);
}

/// CAST(x AS T), which the parser writes CAST(x, 'T'), and _CAST.
NodePtr buildCast(CallContext& call)
{
    const std::string type_text = call.constantString(1, "type");
    DataType target;
    try
    {
        target = parseDataType(type_text);
    }
    catch (const Exception& error)
    {
        call.fail(error.code(), error.what());
    }
    if (isNullConstant(*call.argument(0)))
    {
        if (!target.nullable)
        {
            call.fail(ErrorCode::kTypeMismatch,
                      "Cannot convert NULL to " + dataTypeName(target) + ", which is not Nullable");
        }
        return nullConstant(target.withoutNullable());
    }
    // Nullable(T): T's conversion, NULL where x is.
    target = target.withoutNullable();
    if (NodePtr converted = makeConversion(call.argument(0), target))
    {
        return converted;
    }
    call.fail(ErrorCode::kTypeMismatch, "Cannot convert " + call.quotedArgument(0) + " of type " +
                                            dataTypeName(call.argument(0)->dataType()) + " to " +
                                            dataTypeName(target));
}

}  // namespace

NodePtr makeConversion(NodePtr value, const DataType& target)
{
    const TypeId source = value->type();
    if (value->dataType().withoutNullable() == target.withoutNullable())
    {
        return value;
    }
    if (isString(target.id))
    {
        return makeJoinedText({std::move(value)}, appendValue);
    }
    if (isNested(source) || isNested(target.id) || target.id == TypeId::DateTime64 ||
        source == TypeId::DateTime64)
    {
        return nullptr;
    }
    if (isString(source))
    {
        return parseText(std::move(value), target);
    }
    if (source == TypeId::Date && target.id == TypeId::DateTime)
    {
        return makeDateFunction(DateFunction::ToDateTime, std::move(value));
    }
    if (source == TypeId::DateTime && target.id == TypeId::Date)
    {
        return makeDateFunction(DateFunction::ToDate, std::move(value));
    }
    return std::make_shared<FixedConversionNode>(std::move(value), target.id);
}

std::vector<ScalarFunction> conversionFunctionEntries()
{
    std::vector<ScalarFunction> entries;
    for (const std::string_view name : kConversionNames)
    {
        const bool to_string = name == "toString";
        entries.push_back({name, name,
                           to_string ? "The value's text, as TSV writes it (arrays and maps too)."
                                     : "CAST(x AS the named type): numbers wrap or truncate, "
                                       "Strings parse (an error names a row that does not).",
                           1, 1, to_string, buildToType});
    }
    constexpr std::string_view kCastText =
        "x converted to type T: numbers wrap or truncate toward zero, Strings parse as T's text, "
        "a Date and a DateTime convert by their day, anything becomes its text as a String.";
    entries.push_back(
        {"CAST", "CAST(x AS T), CAST(x, 'T')", kCastText, 2, 2, true, buildCast, true});
    entries.push_back({"_CAST", "_CAST(x, 'T')", kCastText, 2, 2, true, buildCast, true});
    entries.push_back({"_rowKey", "_rowKey(a, b, ...)",
                       "Bytes equal exactly for equal tuples of values (fixed values as they lie, "
                       "strings and arrays with their lengths): what count(DISTINCT a, b) counts.",
                       1, kAnyArgumentCount, true, buildRowKey});
    return entries;
}

}  // namespace granary
