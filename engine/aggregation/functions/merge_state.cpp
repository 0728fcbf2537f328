#include "engine/aggregation/functions/merge_state.h"

#include "engine/common/exception.h"

namespace granary
{

void MergeStateFunction::checkStates(const ColumnView& states, size_t first_row, size_t count) const
{
    for (size_t row = first_row; row < first_row + count; ++row)
    {
        try
        {
            inner_->checkSerialized(states.stringAt(row));
        }
        catch (const Exception& error)
        {
            throw Exception(
                ErrorCode::kIncorrectData,
                "state column '" + column_ + "', row " + std::to_string(row) + ": " + error.what());
        }
    }
}

void MergeStateFunction::addBatch(const ColumnView* arguments, size_t first_row, size_t count,
                                  char* const* places, size_t state_offset, Arena& arena) const
{
    if (checks_states_)
    {
        checkStates(arguments[0], first_row, count);
    }
    for (size_t i = 0; i < count; ++i)
    {
        inner_->mergeSerialized(places[i] + state_offset, arguments[0].stringAt(first_row + i),
                                arena);
    }
}

void MergeStateFunction::addBatchSinglePlace(const ColumnView* arguments, size_t first_row,
                                             size_t count, char* state, Arena& arena) const
{
    if (checks_states_)
    {
        checkStates(arguments[0], first_row, count);
    }
    for (size_t row = first_row; row < first_row + count; ++row)
    {
        inner_->mergeSerialized(state, arguments[0].stringAt(row), arena);
    }
}

}  // namespace granary
