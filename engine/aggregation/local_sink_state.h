#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "engine/columns/column_view.h"

namespace granary
{

/// One thread's share of a GROUP BY (DuckDB's local sink state): the batches it was given,
/// aggregated into tables of its own. Only its owner touches it until it is combined into the
/// global state, so sinking takes no lock.
class LocalSinkState
{
public:
    virtual ~LocalSinkState() = default;

    /// Aggregates the `rows` rows of `columns` (the plan's input columns, in order).
    virtual void sink(const std::vector<ColumnView>& columns, size_t rows) = 0;
    /// Tells the state that no other will be combined with it, so it may aggregate rows it
    /// would have routed to the merge itself; `check_cancelled` runs between its buckets.
    /// `input_rows`: the most rows it will be given (the input's, before filters).
    virtual void markSoleWorker(std::function<void()> check_cancelled, size_t input_rows) {}
    /// Tells one of several workers about how many rows it will be given (its share of the
    /// input) and all of them together, so that what it decides from its first rows can
    /// scale with those.
    virtual void expectRows(size_t share_rows, size_t input_rows) {}
    virtual size_t rows() const = 0;
    /// Groups its hash tables hold now (0 for a state that routes rows and keeps no table),
    /// and the times they have grown so far: what the task that sets a span reports of itself.
    virtual size_t groups() const = 0;
    virtual size_t growths() const = 0;
};

}  // namespace granary
