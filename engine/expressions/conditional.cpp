#include "engine/expressions/conditional.h"

#include "engine/common/exception.h"
#include "engine/expressions/column_reference.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/null_functions.h"
#include "engine/expressions/type_rules.h"

namespace granary
{
namespace
{

std::vector<NodePtr> interleave(const std::vector<NodePtr>& conditions,
                                const std::vector<NodePtr>& results, NodePtr otherwise)
{
    std::vector<NodePtr> children;
    for (size_t i = 0; i < conditions.size(); ++i)
    {
        children.push_back(conditions[i]);
        children.push_back(results[i]);
    }
    children.push_back(std::move(otherwise));
    return children;
}

/// The results and, where there is one, the ELSE result.
template <typename Pointer>
std::vector<Pointer*> branchPointers(std::vector<Pointer>& results, Pointer& otherwise)
{
    std::vector<Pointer*> branches;
    for (Pointer& result : results)
    {
        branches.push_back(&result);
    }
    if (otherwise)
    {
        branches.push_back(&otherwise);
    }
    return branches;
}

class CaseNode final : public ExpressionNode
{
public:
    CaseNode(const std::vector<NodePtr>& conditions, const std::vector<NodePtr>& results,
             NodePtr otherwise, DataType type)
        : ExpressionNode(std::move(type), interleave(conditions, results, std::move(otherwise)),
                         Nulls::kOwn),
          branches_(conditions.size())
    {
    }

    /// A row is NULL where the branch it takes is.
    void andValidity(const BlockView& input, size_t begin, size_t count,
                     uint8_t* valid) const override
    {
        if (!dataType().nullable)
        {
            return;
        }
        const std::vector<uint16_t> choice = chooseBranches(input, begin, count);
        std::vector<uint8_t> branch_valid;
        for (size_t branch = 0; branch <= branches_; ++branch)
        {
            validityBytes(*result(branch), input, begin, count, branch_valid);
            for (size_t row = 0; row < count && !branch_valid.empty(); ++row)
            {
                valid[row] &= choice[row] == branch ? branch_valid[row] : 1;
            }
        }
    }

    ColumnView evaluate(const BlockView& input, size_t begin, size_t count,
                        Column& holder) const override
    {
        const std::vector<uint16_t> choice = chooseBranches(input, begin, count);
        std::vector<Operand> results(branches_ + 1);
        for (size_t branch = 0; branch <= branches_; ++branch)
        {
            evaluateOperand(*result(branch), input, begin, count, results[branch]);
        }
        holder = Column(dataType().withoutNullable());
        if (isString(type()))
        {
            gatherStrings(results, choice, holder);
        }
        else
        {
            gatherFixed(results, choice, holder);
        }
        return holder.view();
    }

private:
    const NodePtr& condition(size_t branch) const { return children()[2 * branch]; }
    /// Branch `branches_` is the ELSE result.
    const NodePtr& result(size_t branch) const
    {
        return branch == branches_ ? children().back() : children()[2 * branch + 1];
    }

    /// Per row, the index of the branch it takes: conditions run last to first, so the first
    /// true one is written last. A NULL condition is not true.
    std::vector<uint16_t> chooseBranches(const BlockView& input, size_t begin, size_t count) const
    {
        std::vector<uint16_t> choice(count, static_cast<uint16_t>(branches_));
        std::vector<uint8_t> mask(count);
        std::vector<uint8_t> known;
        for (size_t branch = branches_; branch-- > 0;)
        {
            Column condition_holder;
            const ColumnView values =
                condition(branch)->evaluate(input, begin, count, condition_holder);
            nonZeroMask(values, mask.data());
            validityBytes(*condition(branch), input, begin, count, known);
            for (size_t row = 0; row < known.size(); ++row)
            {
                mask[row] &= known[row];
            }
            for (size_t row = 0; row < count; ++row)
            {
                choice[row] = mask[row] ? static_cast<uint16_t>(branch) : choice[row];
            }
        }
        return choice;
    }

    void gatherFixed(std::vector<Operand>& results, const std::vector<uint16_t>& choice,
                     Column& holder) const
    {
        std::vector<Column> converted(results.size());
        dispatchFixedType(
            type(),
            [&]<typename T>(TypeTag<T>)
            {
                std::vector<const T*> values(results.size());
                std::vector<size_t> strides(results.size());
                for (size_t branch = 0; branch < results.size(); ++branch)
                {
                    values[branch] = static_cast<const T*>(
                        convertFixed(results[branch].view, type(), converted[branch]).data);
                    strides[branch] = results[branch].scalar ? 0 : 1;
                }
                holder.resizeFixed(choice.size());
                T* out = holder.mutableData<T>();
                for (size_t row = 0; row < choice.size(); ++row)
                {
                    const uint16_t branch = choice[row];
                    out[row] = values[branch][row * strides[branch]];
                }
            });
    }

    static void gatherStrings(const std::vector<Operand>& results,
                              const std::vector<uint16_t>& choice, Column& holder)
    {
        const auto value = [&](size_t row)
        {
            const Operand& chosen = results[choice[row]];
            return chosen.view.stringAt(chosen.scalar ? 0 : row);
        };
        uint64_t bytes = 0;
        for (size_t row = 0; row < choice.size(); ++row)
        {
            bytes += value(row).size();
        }
        holder.resizeStringsUninitialized(choice.size(), bytes);
        char* chars = holder.mutableChars();
        uint64_t* offsets = holder.mutableOffsets();
        uint64_t end = 0;
        for (size_t row = 0; row < choice.size(); ++row)
        {
            const std::string_view text = value(row);
            if (!text.empty())
            {
                std::memcpy(chars + end, text.data(), text.size());
            }
            end += text.size();
            offsets[row + 1] = end;
        }
    }

    size_t branches_;
};

}  // namespace

NodePtr makeCase(const std::vector<NodePtr>& conditions, const std::vector<NodePtr>& results,
                 NodePtr otherwise, DataType type)
{
    return std::make_shared<CaseNode>(conditions, results, std::move(otherwise), std::move(type));
}

NodePtr makeCaseOfBranches(const std::vector<NodePtr>& conditions, std::vector<NodePtr> results,
                           NodePtr otherwise, const std::string& quoted,
                           const std::string& position, CaseNulls nulls)
{
    // A bare NULL takes the other branches' type; NULL everywhere stays a NULL.
    std::vector<TypeId> types;
    bool nullable = false;
    for (const NodePtr* result : branchPointers(results, otherwise))
    {
        const bool decides_nulls = nulls == CaseNulls::kAnyBranch || result == &otherwise;
        nullable = nullable || (decides_nulls && ((*result)->dataType().nullable));
        if (!isNullConstant(**result))
        {
            types.push_back((*result)->type());
        }
    }
    if (types.empty())
    {
        return nullConstant(DataType(TypeId::UInt8));
    }
    const std::optional<TypeId> type = commonType(types);
    if (!type)
    {
        std::string listed;
        for (const TypeId branch_type : types)
        {
            listed += (listed.empty() ? "" : ", ") + std::string(typeName(branch_type));
        }
        throw Exception(
            ErrorCode::kTypeMismatch,
            "The branches of " + quoted + " have no common type: " + listed + " " + position);
    }
    if (!otherwise)
    {
        otherwise = nullConstant(DataType(*type));  // no ELSE: NULL, as in SQL and ClickHouse
        nullable = true;
    }
    for (NodePtr* result : branchPointers(results, otherwise))
    {
        if (isNullConstant(**result))
        {
            *result = nullConstant(DataType(*type));
        }
    }
    DataType result_type(*type);
    result_type.nullable = nullable;
    return makeCase(conditions, results, std::move(otherwise), std::move(result_type));
}

namespace
{

/// if(cond, then, else) and multiIf(cond1, then1, cond2, then2, ..., else).
NodePtr buildConditional(CallContext& call)
{
    if (call.argumentCount() % 2 == 0)
    {
        call.fail(ErrorCode::kBadArguments, "Function " + call.name() +
                                                " takes conditions and results in pairs and a "
                                                "last result, an odd number of arguments, not " +
                                                std::to_string(call.argumentCount()));
    }
    std::vector<NodePtr> conditions;
    std::vector<NodePtr> results;
    for (size_t i = 0; i + 1 < call.argumentCount(); i += 2)
    {
        conditions.push_back(call.numericArgument(i));
        results.push_back(call.argument(i + 1));
    }
    return makeCaseOfBranches(conditions, results, call.argument(call.argumentCount() - 1),
                              call.quotedCall(), call.position());
}

}  // namespace

std::vector<ScalarFunction> conditionalFunctionEntries()
{
    return {
        {"if", "if(condition, then, else)",
         "`then` where the condition is non-zero (not NULL), else `else`, in their common type.", 3,
         3, false, buildConditional, true},
        {"multiIf", "multiIf(c1, r1, c2, r2, ..., else)",
         "The result of the first non-zero (not NULL) condition, else the last argument.", 3,
         kAnyArgumentCount, false, buildConditional, true},
    };
}

}  // namespace granary
