// finalizeAggregation(states): each row's state of an AggregateFunction(...) column made into
// the function's result, as fMerge would give it for a group of that one state.

#include "alloc/arena.h"
#include "engine/aggregation/group_by_plan.h"
#include "engine/expressions/function_registry.h"
#include "engine/expressions/row_function_node.h"

namespace granary
{
namespace
{

NodePtr buildFinalizeAggregation(CallContext& call)
{
    DataType state_type = call.argument(0)->dataType();
    if (!state_type.isAggregateState())
    {
        call.failArgumentType(0, "a column of AggregateFunction(...) states");
    }
    const AggregateFunctionPtr function = createStateFunction(state_type);
    DataType result = function->resultType();
    result.nullable = result.nullable || function->resultMayBeNull();
    return makeRowFunction(result, {call.argument(0)},
                           [function](const std::vector<Operand>& values, size_t row, Column& out)
                           {
                               // A state per row: it is read (and checked) from the row's bytes,
                               // finalized, freed.
                               Arena arena;
                               char* place = arena.alignedAlloc(function->stateSize(),
                                                                function->stateAlignment());
                               function->create(place, arena);
                               try
                               {
                                   function->mergeSerialized(place, textAt(values[0], row), arena);
                                   function->insertResultInto(place, out);
                               }
                               catch (...)
                               {
                                   function->destroy(place);
                                   throw;
                               }
                               function->destroy(place);
                           });
}

}  // namespace

std::vector<ScalarFunction> stateFunctionEntries()
{
    return {
        {"finalizeAggregation", "finalizeAggregation(states)",
         "Each row's state of an AggregateFunction(f, ...) column as f's result (a damaged state "
         "is INCORRECT_DATA).",
         1, 1, false, buildFinalizeAggregation},
    };
}

}  // namespace granary
