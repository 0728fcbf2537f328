#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/storage/table.h"

namespace granary
{

/// When small parts are merged. Every insert makes parts of its own, so a stream of small
/// inserts (collectors send a batch per request) would leave ever more parts to open and scan.
struct MergePolicy
{
    /// A table with more small parts than this gets a merge.
    size_t max_small_parts = 8;
    /// Parts below this many rows are small.
    size_t small_part_rows = Table::kMaxPartRows / 4;
    /// A merged part holds at most this many rows (merges decode their sources in memory).
    size_t max_merged_rows = Table::kMaxPartRows / 2;
};

/// Merges the first run of two or more consecutive small parts of `table` (up to
/// policy.max_merged_rows rows) into one part, when the table has more small parts than the
/// policy allows; returns whether it merged. Readers are never blocked: the merged part is
/// built from a snapshot and published in the sources' place with one manifest rename
/// (Table::replaceParts), so a crash at any point leaves either the sources or the merged
/// part, never both and never neither. An insert publishing meanwhile is kept; a source gone
/// meanwhile (DROP) discards the merge.
bool mergeSmallParts(Table& table, const MergePolicy& policy);

/// One thread merging the small parts of a database's tables: woken after inserts, and every
/// kPollInterval in any case. Destroying it stops the thread after the merge under way.
class BackgroundMerges
{
public:
    static constexpr std::chrono::milliseconds kPollInterval{500};

    using TableList = std::function<std::vector<std::shared_ptr<Table>>()>;
    BackgroundMerges(TableList tables, MergePolicy policy);
    ~BackgroundMerges();
    BackgroundMerges(const BackgroundMerges&) = delete;
    BackgroundMerges& operator=(const BackgroundMerges&) = delete;

    void wake();
    /// Merges done so far.
    uint64_t merges() const { return merges_.load(); }

private:
    void run();

    TableList tables_;
    MergePolicy policy_;
    std::atomic<uint64_t> merges_{0};
    std::mutex mutex_;
    std::condition_variable wakeup_;
    bool woken_ = false;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

}  // namespace granary
