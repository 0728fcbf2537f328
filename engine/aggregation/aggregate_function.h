#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "alloc/arena.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/columns/data_type.h"
#include "engine/columns/types.h"

namespace granary
{

class QueryContext;
class PhaseRecorder;
class TaskTimer;

/// What a merge may use: the query (for nested parallel work and cancellation) and the timing
/// of the task it runs in. Null members mean "merge on this thread".
struct MergeContext
{
    QueryContext* query = nullptr;
    PhaseRecorder* recorder = nullptr;
    TaskTimer* task = nullptr;
};

/// An aggregate function over typed argument columns. Its state lives in memory the caller
/// provides (an Arena, next to the other functions' states of the same group): create()
/// initialises it, add*() fold rows in, merge() folds another state in, insertResultInto()
/// writes the result and destroy() releases what the state owns.
class AggregateFunction
{
public:
    virtual ~AggregateFunction() = default;

    virtual std::string name() const = 0;
    /// The results' type: Array(T) for functions with one array per group (topK, quantiles).
    virtual DataType resultType() const = 0;
    /// Whether some group's result may be NULL (a function that skips rows, over none).
    virtual bool resultMayBeNull() const { return false; }
    virtual size_t stateSize() const = 0;
    virtual size_t stateAlignment() const = 0;
    /// False when destroy() must run (the state owns heap memory).
    virtual bool hasTrivialDestroy() const { return true; }

    /// `arena` is the partial's arena; states may keep bytes there (string values).
    virtual void create(char* state, Arena& arena) const = 0;
    virtual void destroy(char* state) const noexcept {}

    /// Adds rows [first_row, first_row + count) of `arguments`; row first_row + i goes to the
    /// state at places[i] + state_offset.
    virtual void addBatch(const ColumnView* arguments, size_t first_row, size_t count,
                          char* const* places, size_t state_offset, Arena& arena) const = 0;
    /// addBatch, and sets the byte at places[i] + mark_offset to 1 for every row i: a wrapper's
    /// "some row was added" flag (MaskedAggregateFunction), written by default in a second
    /// pass, by AggregateFunctionBase in the same pass as the state, whose line is at hand.
    virtual void addBatchMarking(const ColumnView* arguments, size_t first_row, size_t count,
                                 char* const* places, size_t state_offset, size_t mark_offset,
                                 Arena& arena) const
    {
        addBatch(arguments, first_row, count, places, state_offset, arena);
        for (size_t i = 0; i < count; ++i)
        {
            places[i][mark_offset] = 1;
        }
    }
    /// Adds rows [first_row, first_row + count) to one state (aggregation without keys).
    virtual void addBatchSinglePlace(const ColumnView* arguments, size_t first_row, size_t count,
                                     char* state, Arena& arena) const = 0;
    /// Adds runs of rows, each to one state: run r is rows [first_row + run_starts[r],
    /// first_row + run_starts[r + 1]) and goes to places[r] + state_offset (runs of equal keys,
    /// key_runs.h). A run is added as addBatchSinglePlace adds rows: a sum or count of a long
    /// run is one vectorized loop or one addition, not a store per row into the same state.
    virtual void addRuns(const ColumnView* arguments, size_t first_row, const uint32_t* run_starts,
                         size_t runs, char* const* places, size_t state_offset, Arena& arena) const
    {
        for (size_t r = 0; r < runs; ++r)
        {
            addBatchSinglePlace(arguments, first_row + run_starts[r],
                                run_starts[r + 1] - run_starts[r], places[r] + state_offset, arena);
        }
    }

    /// Folds `source` into `target`. `source` stays valid (it is destroyed later).
    virtual void merge(char* target, char* source, MergeContext& context) const = 0;
    /// Folds sources[i] + state_offset into targets[i] + state_offset for every i < count:
    /// one virtual call per batch instead of one per group.
    virtual void mergeBatch(char* const* targets, char* const* sources, size_t count,
                            size_t state_offset, MergeContext& context) const
    {
        for (size_t i = 0; i < count; ++i)
        {
            merge(targets[i] + state_offset, sources[i] + state_offset, context);
        }
    }
    /// Folds many states into `target` (aggregation without keys). The default merges them one
    /// after another; functions with large states override it with a parallel merge.
    virtual void mergeMany(char* target, std::span<char* const> sources,
                           MergeContext& context) const;
    /// True when mergeMany runs its own parallel phases (then the caller must not run it
    /// inside a task).
    virtual bool hasParallelMergeMany() const { return false; }

    /// The partial-state format (state_bytes.h): appends the state's bytes to `out`.
    virtual void serialize(const char* state, std::string& out) const = 0;
    /// Exception(kIncorrectData) unless `bytes` are a whole state of this function.
    virtual void checkSerialized(std::string_view bytes) const = 0;
    /// Folds a serialized state (checked by checkSerialized) into `state`; strings it keeps
    /// are copied into `arena`.
    virtual void mergeSerialized(char* state, std::string_view bytes, Arena& arena) const = 0;

    virtual void insertResultInto(char* state, Column& to) const = 0;
    /// Appends the results of `count` groups, the state of group i at places[i] +
    /// state_offset, in order: one virtual call per batch instead of one per group.
    virtual void insertResultsInto(char* const* places, size_t count, size_t state_offset,
                                   Column& to) const
    {
        for (size_t i = 0; i < count; ++i)
        {
            insertResultInto(places[i] + state_offset, to);
        }
    }
};

using AggregateFunctionPtr = std::shared_ptr<const AggregateFunction>;

}  // namespace granary
