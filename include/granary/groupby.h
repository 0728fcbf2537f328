#pragma once

// Granary as an embeddable GROUP BY operator, in the shape query engines drive their own:
//
//   granary::GroupBy group_by({{"region", granary::TypeId::UInt32},
//                              {"user", granary::TypeId::UInt64, /*nullable=*/true}},
//                             {"region"},
//                             {{"count", {}, "hits"}, {"uniqExact", {"user"}, "users"}});
//   // On each host thread:
//   granary::LocalSink sink = group_by.makeLocalSink();
//   sink.sink(columns, rows);            // any number of batches, no locks
//   group_by.combine(std::move(sink));   // cheap: no merge work here
//   // Once every sink is combined:
//   granary::ResultStream result = group_by.finish();
//   granary::ResultBatch batch;
//   while (result.next(batch)) { ... }   // several threads may pull at once
//
// Batches are column views of the host's memory (granary/column_view.h) or Arrow C Data
// arrays; results are column views or Arrow arrays and streams. Every error is a
// granary::Exception with a code (granary/error.h). docs/embedding.md has the contracts.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "granary/arrow_c_data.h"
#include "granary/column_view.h"
#include "granary/error.h"
#include "granary/memory_budget.h"
#include "granary/task_runner.h"
#include "granary/types.h"
#include "granary/version.h"

namespace granary
{

/// A column of the input: name, type, and whether it may hold NULLs. A column declared NOT
/// NULL must come without a validity bitmap; a nullable one may come with or without.
struct Field
{
    std::string name;
    TypeId type = TypeId::UInt8;
    bool nullable = false;
    /// Results only: the elements' type of an Array column (topK, quantiles...).
    TypeId element_type = TypeId::UInt8;
};

/// An aggregate: a function of the library (docs/functions.md: count, sum, avg, min, max,
/// uniqExact...) over argument columns (none for count(*)), with the parameters of a
/// parametric function (quantile(0.9)(x): {0.9}). The -If combinator takes the condition as
/// the last argument: sumIf(x, cond). NULL arguments are skipped; over no value most functions
/// give NULL, count-like ones 0. With a `filter` (a UInt8 column) the aggregate skips the rows
/// where it is 0 or NULL.
struct Aggregate
{
    std::string function;
    std::vector<std::string> arguments;
    std::string result_name;
    std::string filter = {};
    std::vector<double> parameters = {};
};

/// Keep only the first `rows` groups in this order (ORDER BY ... LIMIT over the result):
/// groups that cannot be among them are never finalized. Sorting the result by `order` and
/// keeping `rows` rows gives what it would over every group.
struct TopN
{
    struct Column
    {
        std::string name;
        bool descending = false;
    };
    std::vector<Column> order;
    size_t rows = 0;
};

/// The bucket column of partial-state batches.
inline constexpr const char* kPartialStateBucketColumn = "granary.bucket";

struct GroupBySettings
{
    /// Threads of the parallel phases when Granary runs them itself; 0: the machine's cores.
    size_t threads = 0;
    /// The host's scheduler for every parallel phase: then Granary starts no thread at all.
    TaskRunner* task_runner = nullptr;
    /// The host's memory account, asked before every large allocation; may refuse.
    MemoryBudget* memory_budget = nullptr;
    /// A limit of Granary's own on the query's tables and arenas, in bytes; 0: none.
    size_t max_memory_usage = 0;
    /// The most rows a result batch has.
    size_t result_batch_rows = 65'536;
    /// This GroupBy exports its groups as partial states (finishPartial) or merges the
    /// states that GroupBys of the same plan exported (makePartialStateSink). A plan whose
    /// only aggregate is count then keeps its counts in arena states, not in its table cells.
    bool partial_states = false;
};

/// What a finished GROUP BY did, per phase.
struct GroupByStatistics
{
    size_t input_rows = 0;
    size_t result_rows = 0;
    size_t partials = 0;  ///< Local sinks that received rows.
    size_t peak_memory_bytes = 0;
    double partial_seconds = 0;   ///< Wall time from the plan to finish().
    double merge_seconds = 0;     ///< Conversion and merge.
    double finalize_seconds = 0;  ///< Building the result.
    /// How the partials were merged ("single_level", "two_level", ...; "value_buckets" for a
    /// lone count(DISTINCT) whose rows were routed by value and no set merged).
    std::string merge_path;
};

/// One batch of a result: named columns, owned by the batch.
class ResultBatch
{
public:
    ResultBatch();
    ~ResultBatch();
    ResultBatch(ResultBatch&&) noexcept;
    ResultBatch& operator=(ResultBatch&&) noexcept;

    size_t rows() const;
    size_t columnCount() const;
    const std::string& name(size_t column) const;
    /// A view of a column, valid while the batch lives (with a bitmap where it has NULLs).
    ColumnView column(size_t column) const;
    /// Moves the batch into an Arrow struct array, one child per column, and describes it in
    /// `schema`; each child can be released on its own. The batch is empty afterwards.
    void exportTo(ArrowArray* array, ArrowSchema* schema);

private:
    friend class ResultStream;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The batches of a result, at most GroupBySettings::result_batch_rows rows each.
class ResultStream
{
public:
    ResultStream();
    ~ResultStream();
    ResultStream(ResultStream&&) noexcept;
    ResultStream& operator=(ResultStream&&) noexcept;

    /// The result's columns: keys, then aggregates.
    const std::vector<Field>& schema() const;
    size_t rows() const;
    /// Moves the next batch into `batch`; false at the end. Thread-safe: several threads may
    /// pull batches at once, each getting different rows.
    bool next(ResultBatch& batch);
    /// An Arrow stream of the batches not yet pulled (single consumer, as the C Stream
    /// interface is). This stream is empty afterwards.
    void exportTo(ArrowArrayStream* stream);

private:
    friend class GroupBy;
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

class GroupBy;

/// One host thread's share of the input. Sinking takes no lock; a sink is used by one thread
/// at a time (it may move between threads). Its GroupBy must outlive it.
class LocalSink
{
public:
    ~LocalSink();
    LocalSink(LocalSink&&) noexcept;
    LocalSink& operator=(LocalSink&&) noexcept;

    /// Aggregates a batch of `rows` rows: one view per input column, in the plan's order.
    void sink(std::span<const ColumnView> columns, size_t rows);
    /// Aggregates an Arrow batch (a struct array with one child per input column, or the
    /// column itself for a one-column input), read in place. The array stays the caller's.
    void sinkArrow(const ArrowArray& batch);
    /// The same, checking `schema` against the plan's columns first (and, for a sink of
    /// partial states, their format version in its metadata: kIncorrectData when it differs or
    /// is missing).
    void sinkArrow(const ArrowArray& batch, const ArrowSchema& schema);
    /// Aggregates every batch of an Arrow stream (whose schema must match the input's; for a
    /// sink of partial states, with their format version), and releases each batch after
    /// reading it. The stream stays the caller's.
    /// A sink handed to GroupBy::combine (or moved from) refuses all of these (kBadArguments).
    void sinkArrowStream(ArrowArrayStream& stream);

private:
    friend class GroupBy;
    struct Impl;
    explicit LocalSink(std::unique_ptr<Impl> impl);
    /// The sink's state; Exception(kBadArguments) once it was combined or moved from.
    Impl& impl() const;
    std::unique_ptr<Impl> impl_;
};

/// A GROUP BY over batches a host pushes: the plan, and the global state its local sinks are
/// combined into. Thread-safe except where noted.
class GroupBy
{
public:
    /// Exception(kUnknownColumn) for a key or argument not among `input`, kUnknownFunction,
    /// kTypeMismatch or kBadArguments for an aggregate that cannot take its arguments.
    GroupBy(std::vector<Field> input, std::vector<std::string> keys,
            std::vector<Aggregate> aggregates, GroupBySettings settings = {});
    /// The same with the input described by an Arrow schema (a struct with one child per
    /// column); results keep the input's Arrow types (date32, timestamps, large or plain
    /// strings). The schema stays the caller's.
    GroupBy(const ArrowSchema& input, std::vector<std::string> keys,
            std::vector<Aggregate> aggregates, GroupBySettings settings = {});
    ~GroupBy();
    GroupBy(const GroupBy&) = delete;
    GroupBy& operator=(const GroupBy&) = delete;

    /// A sink for one host thread.
    LocalSink makeLocalSink();
    /// Hands a sink back once its thread has sunk its batches: O(1), no merge work.
    void combine(LocalSink&& sink);
    /// Merges every combined sink on the query's threads (or the host's runner) and returns
    /// the result. Once, after every sink is combined.
    ResultStream finish(const TopN* top = nullptr);
    /// Finishes like finish() but writes each group's partial states instead of results: the
    /// key columns, one String column of serialized states per aggregate (named as its
    /// result; Arrow "large_binary"), then the UInt8 column kPartialStateBucketColumn, a
    /// function of the keys alone. The format is versioned (GRANARY_PARTIAL_STATE_VERSION, in
    /// the Arrow schema's metadata) and documented in docs/embedding.md. Needs
    /// GroupBySettings::partial_states.
    ResultStream finishPartial();
    /// A sink for batches of partial states that a GroupBy of the same plan exported with
    /// finishPartial (the columns of partialStateSchema()), combined like any sink: groups
    /// from states and from raw rows merge into one result. A truncated or corrupted state
    /// is refused (kIncorrectData, naming the column and row) before any of its batch is
    /// merged. Needs GroupBySettings::partial_states.
    LocalSink makePartialStateSink();
    /// The columns of finishPartial's batches.
    std::vector<Field> partialStateSchema() const;
    /// Stops the query from any thread: sinks and finish then throw kQueryCancelled.
    void cancel();
    GroupByStatistics statistics() const;

private:
    friend class LocalSink;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace granary
