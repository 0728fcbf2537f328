#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/aggregation/local_sink_state.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// GROUP BY ... LIMIT n with no ORDER BY or HAVING: any n groups answer it, so only the
/// first n distinct keys the workers meet are aggregated, and every other row is dropped after
/// a hash of its keys and one probe of a table of n hashes, instead of taking a place in a
/// table of every group (ClickBench Q18's `GROUP BY UserID, SearchPhrase LIMIT 10`). Keys are
/// admitted under a lock until n are in; from then on the set is frozen and read without one.
/// Every row of an admitted key is kept, so the admitted groups' aggregates are exact. Keys
/// are equal when their rows' bytes are (appendRowKey), as the group tables compare them.
class AnyGroupsFilter
{
public:
    /// Filters on the input columns `key_columns`, admitting up to `groups` keys (at least 1).
    AnyGroupsFilter(std::vector<size_t> key_columns, size_t groups);

    /// The most groups worth filtering for: a table of twice as many hashes (128 KiB) stays
    /// in the L2 cache; past it a probe costs about what a group table's insert does.
    static constexpr size_t kMaxGroups = 8192;

    /// Wraps `inner` (a kernel's local state) so that it sinks only the admitted rows.
    std::unique_ptr<LocalSinkState> wrap(std::unique_ptr<LocalSinkState> inner);
    /// The kernel's local state inside a wrap() of this filter, for the kernel's merge.
    static std::unique_ptr<LocalSinkState> unwrap(std::unique_ptr<LocalSinkState> local);

    /// Appends to `selected` the rows of `columns` [0, rows) whose keys are admitted, admitting
    /// new keys while fewer than the limit are; `hashes` is the caller's scratch. Thread-safe.
    void select(const std::vector<ColumnView>& columns, size_t rows, std::vector<uint64_t>& hashes,
                std::vector<uint32_t>& selected);

    /// Rows select() has dropped so far.
    size_t droppedRows() const { return dropped_rows_.load(std::memory_order_relaxed); }

private:
    /// Slot of `hash` in the open-addressing table of admitted hashes, or of the empty slot
    /// where it would go.
    size_t slotOf(uint64_t hash) const;
    /// Whether the row's key is admitted (or, with `admit`, now is).
    bool admitted(const std::vector<ColumnView>& columns, size_t row, uint64_t hash, bool admit);
    std::string rowKey(const std::vector<ColumnView>& columns, size_t row) const;

    std::vector<size_t> key_columns_;
    size_t groups_;
    /// Open addressing over the admitted keys' hashes; kEmpty marks a free slot.
    std::vector<uint64_t> slots_;
    /// The admitted keys' bytes, slot by slot: rows whose hashes match are compared with them.
    std::vector<std::vector<std::string>> keys_;
    size_t admitted_keys_ = 0;
    /// Set once `groups_` keys are admitted: the table is read without the lock from then on.
    std::atomic<bool> frozen_{false};
    std::mutex admission_;
    std::atomic<size_t> dropped_rows_{0};
};

}  // namespace granary
