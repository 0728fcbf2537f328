#include "engine/expressions/null_functions.h"

#include "engine/expressions/column_reference.h"
#include "engine/expressions/comparison.h"
#include "engine/expressions/conditional.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/type_rules.h"

namespace granary
{
namespace
{

class IsNullNode final : public ExpressionNode
{
public:
    IsNullNode(NodePtr value, bool negated)
        : ExpressionNode(TypeId::UInt8, {std::move(value)}, Nulls::kOwn), negated_(negated)
    {
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        std::vector<uint8_t> valid;
        validityBytes(*children()[0], input, begin, count, valid);
        holder = Column(TypeId::UInt8);
        holder.resizeFixed(count);
        uint8_t* out = holder.mutableData<uint8_t>();
        for (size_t row = 0; row < count; ++row)
        {
            const uint8_t is_valid = valid.empty() ? 1 : valid[row];
            out[row] = negated_ ? is_valid : is_valid ^ 1;
        }
        return holder.view();
    }

private:
    bool negated_;
};

NodePtr buildIsNull(CallContext& call)
{
    return makeIsNull(call.argument(0), call.lowerName() == "isnotnull");
}

/// coalesce(a, b, ...) and ifNull(a, b): CASE WHEN isNotNull(a) THEN a ... ELSE last END, NULL
/// only where every argument is.
NodePtr buildCoalesce(CallContext& call)
{
    std::vector<NodePtr> arguments = call.arguments();
    NodePtr last = arguments.back();
    arguments.pop_back();
    std::vector<NodePtr> conditions;
    for (const NodePtr& argument : arguments)
    {
        conditions.push_back(makeIsNull(argument, true));
    }
    return makeCaseOfBranches(conditions, arguments, last, call.quotedCall(), call.position(),
                              CaseNulls::kFromOtherwise);
}

/// nullIf(a, b): NULL where a = b, else a.
NodePtr buildNullIf(CallContext& call)
{
    const NodePtr& value = call.argument(0);
    const NodePtr& other = call.argument(1);
    if (isString(value->type()) != isString(other->type()))
    {
        call.failArgumentType(
            1, std::string("a value comparable with ") + std::string(typeName(value->type())));
    }
    return makeCaseOfBranches({makeComparison(ComparisonOperator::Equals, value, other)},
                              {nullConstant(DataType(TypeId::UInt8))}, value, call.quotedCall(),
                              call.position());
}

}  // namespace

NodePtr nullConstant(DataType type)
{
    Column value(DataType::makeNullable(std::move(type)));
    value.appendNull();
    return std::make_shared<ConstantNode>(std::move(value));
}

bool isNullConstant(const ExpressionNode& node)
{
    const Column* value = node.constantValue();
    return value != nullptr && value->isNull(0);
}

NodePtr nullOperatorResult(const ExpressionNode& left, const ExpressionNode& right)
{
    return isNullConstant(left) || isNullConstant(right) ? nullConstant(DataType(TypeId::UInt8))
                                                         : nullptr;
}

NodePtr makeIsNull(NodePtr value, bool negated)
{
    return std::make_shared<IsNullNode>(std::move(value), negated);
}

std::vector<ScalarFunction> nullFunctionEntries()
{
    return {
        {"isNull", "isNull(x)", "1 where x is NULL, else 0 (`x IS NULL`).", 1, 1, true, buildIsNull,
         true},
        {"isNotNull", "isNotNull(x)", "1 where x is not NULL, else 0 (`x IS NOT NULL`).", 1, 1,
         true, buildIsNull, true},
        {"coalesce", "coalesce(x, ...)",
         "The first argument that is not NULL, in the arguments' common type; NULL where all "
         "are.",
         1, kAnyArgumentCount, false, buildCoalesce, true},
        {"ifNull", "ifNull(x, alternative)", "x, or `alternative` where x is NULL.", 2, 2, false,
         buildCoalesce, true},
        {"nullIf", "nullIf(x, y)", "NULL where x = y, else x (Nullable).", 2, 2, false, buildNullIf,
         true},
    };
}

}  // namespace granary
