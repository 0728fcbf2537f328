#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "engine/aggregation/aggregation_input.h"
#include "engine/exec/query_condition_cache.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/planner/array_join.h"
#include "engine/planner/granule_pruning.h"
#include "engine/planner/select_analysis.h"
#include "engine/storage/table.h"

namespace granary
{

/// The caches a scan may use; none by default.
struct ScanCaches
{
    /// Granules where an earlier scan with the same WHERE found no row are skipped, and the
    /// scan records the granules where it finds none.
    QueryConditionCache* condition = nullptr;
    /// Compressed columns are read from decoded chunks kept across queries.
    DecodedChunkCache* decoded = nullptr;
};

/// A row of a table snapshot: its part (index in the snapshot) and its row there.
struct RowLocation
{
    uint32_t part = 0;
    uint32_t row = 0;
};

/// What a scan reports as it reads, and how it learns that the query was cancelled.
struct ScanObserver
{
    /// Called (serialised, from the scan's threads) with rows and bytes read so far and the
    /// rows the scan will read in all.
    std::function<void(size_t rows_read, size_t bytes_read, size_t total_rows)> on_progress;
    const std::atomic<bool>* cancel = nullptr;
};

/// Reads a table snapshot in morsels of whole granules: skips the granules whose sort-key
/// bounds cannot satisfy WHERE, filters the rows of the others, and computes the scan
/// outputs over the rows that pass (repeated by ARRAY JOIN, when there is one). It is the
/// AggregationInput of a GROUP BY, and the row source of a query without aggregation.
/// The types a scan gives the table's columns, for compiling expressions over them: each
/// column's value type (an AggregateFunction column reads as its String states).
ColumnTypeLookup scannedColumnTypes(const TableSchema& schema);

class TableScan final : public AggregationInput
{
public:
    /// Granules per morsel: 64 Ki rows, enough to amortise a task, small enough to balance.
    static constexpr size_t kMorselGranules = 8;

    /// Morsels hold at most `morsel_granules` granules, and never cross a decoded chunk's
    /// bounds (Part::kChunkGranules), so that each reads from one cached chunk.
    /// With `array_join`, the rows that pass are repeated per element of the array before
    /// the outputs are computed (array_join.h).
    TableScan(std::shared_ptr<const TableSnapshot> snapshot, const TableSchema& schema,
              const sql::ExpressionPtr& where, const std::vector<ScanOutput>& outputs,
              const std::optional<sql::ArrayJoinClause>& array_join = std::nullopt,
              ScanObserver observer = {}, ScanCaches caches = {},
              size_t morsel_granules = kMorselGranules);

    const std::vector<InputColumn>& columns() const override { return columns_; }
    size_t morsels() const override { return ranges_.size(); }
    size_t rows() const override { return rows_to_read_; }
    std::unique_ptr<MorselBuffers> makeBuffers() const override;
    size_t produce(size_t index, MorselBuffers* buffers,
                   std::vector<ColumnView>& out) const override;

    /// Appends where the produced rows `rows` of morsel `index` are in the table, for the
    /// rows `produce` last gave through `buffers` (no ARRAY JOIN: a produced row is a row).
    void locateRows(size_t index, const MorselBuffers& buffers, std::span<const uint32_t> rows,
                    std::vector<RowLocation>& out) const;
    /// The outputs at `rows` (no ARRAY JOIN), in that order, the filter not applied: each
    /// column read for those rows alone. Late materialization fetches a top-N's columns so,
    /// after a scan of its keys alone found the rows.
    Block fetch(std::span<const RowLocation> rows) const;

    /// The least value (or, with `maximum`, the greatest) of `column` over morsel `index`'s
    /// granules, from its part's granule bounds: a number column of the sort key only, else
    /// none. As a double: rounding keeps the order (never reverses it), so "bound worse than
    /// x" in doubles holds of the values too.
    std::optional<double> sortKeyBound(size_t index, std::string_view column, bool maximum) const;
    /// The least value (or, with `maximum`, the greatest) of `column` over every granule the
    /// scan reads, from the parts' granule bounds, as a one-row column of its type: exact for
    /// a scan without filter. None for a column outside the sort key, one that is not an
    /// integer, Date or DateTime (NaN orders apart in bounds) or may hold NULLs, and for a
    /// scan of no granule.
    std::optional<Column> sortKeyExtreme(std::string_view column, bool maximum) const;

    size_t rowsToRead() const { return rows_to_read_; }
    /// Whether the granule bounds prove that every row of every granule the scan reads
    /// satisfies its WHERE (GranulePruner::granulesMatchedWhole): the filter then removes no
    /// row. False without a WHERE.
    bool whereHoldsForEveryRow() const { return where_holds_for_every_row_; }
    size_t rowsRead() const { return rows_read_.load(); }
    size_t bytesRead() const { return bytes_read_.load(); }
    size_t granulesSkipped() const { return granules_skipped_; }

private:
    struct Range
    {
        size_t part = 0;
        size_t first_granule = 0;
        size_t granules = 0;
    };

    struct ScanBuffers;
    struct MorselRows;

    /// `column`'s position in the sort key, if it is a sort-key column.
    std::optional<size_t> sortKeyIndex(std::string_view column) const;

    void planRanges(const GranulePruner& pruner, size_t morsel_granules);
    /// For a filter of one String column: fills entry_passes_ for the parts read.
    void evaluateFilterOnDictionaries();
    /// A byte per entry of the part's dictionary of the filter's column, 1 where the filter
    /// holds: from the decoded-chunk cache, or evaluated (and kept there); null without a
    /// dictionary.
    std::shared_ptr<const Column> dictionaryVerdicts(const Part& part) const;
    /// Fills buffers.selected from the morsel's dictionary codes when the filter was
    /// evaluated on its part's dictionary and every granule of the morsel is coded against
    /// it (returning true and adding the bytes read); else returns false.
    bool filterByDictionary(const Range& range, const MorselRows& morsel, ScanBuffers& buffers,
                            size_t& bytes) const;
    /// Reads columns read_columns_[begin, end) of the morsel into `input` (those it does not
    /// hold yet); returns their bytes.
    size_t readColumns(const MorselRows& morsel, size_t begin, size_t end, ScanBuffers& buffers,
                       BlockView& input) const;
    /// Whether the filter reads `column` (false without a filter).
    bool filterReads(std::string_view column) const;
    /// Which outputs are computed over the whole morsel where most rows pass (fills
    /// whole_morsel_outputs_ and gathered_when_dense_).
    void planWholeMorselOutputs(const std::vector<ScanOutput>& outputs);
    /// The columns the outputs read, at the passing rows (buffers.selected): gathered from
    /// `input` where the filter read them, else from the part; returns the bytes read.
    /// `dense`: most rows passed, and columns read only by whole-morsel outputs are skipped.
    size_t gatherOutputColumns(const MorselRows& morsel, const BlockView& input, bool dense,
                               ScanBuffers& buffers, BlockView& gathered) const;
    /// The outputs over the rows of `input` (`rows` of them; repeated by ARRAY JOIN first);
    /// with `whole_morsel` (the filter's input, where most rows passed), the whole-morsel
    /// outputs over all of its rows, gathered at the passing ones.
    size_t evaluateOutputs(const BlockView& input, size_t rows, const BlockView* whole_morsel,
                           ScanBuffers& buffers, std::vector<ColumnView>& out) const;
    /// Whether this scan's share of the decoded-chunk cache lasts, and its use by a read.
    bool mayFillCache() const;
    void chargeCacheFill(const ColumnReadBuffer& buffer) const;
    /// Rows of a column of the morsel's part through the decoded-chunk cache, filling it
    /// while this scan's share of it lasts.
    ColumnView readColumn(const MorselRows& morsel, size_t column, size_t first_row, size_t rows,
                          ColumnReadBuffer& buffer) const;
    void reportProgress(size_t rows, size_t bytes) const;
    QueryConditionCacheKey cacheKey(const Part& part) const;
    /// Tells the condition cache which granules of the range had no row pass the filter.
    void rememberEmptyGranules(const Range& range, size_t rows,
                               const std::vector<uint32_t>& selected) const;

    std::shared_ptr<const TableSnapshot> snapshot_;
    const TableSchema& schema_;
    std::optional<CompiledExpression> filter_;
    std::optional<ArrayJoinStep> array_join_;
    std::vector<CompiledExpression> outputs_;
    std::vector<InputColumn> columns_;
    /// Table columns the filter or the outputs read (the filter's first, filter_read_columns_
    /// of them), and those the outputs read.
    std::vector<size_t> read_columns_;
    size_t filter_read_columns_ = 0;
    /// For a filter of one String column (read_columns_[0]), per part read its dictionary's
    /// verdicts (null for parts without a dictionary); empty for other filters.
    std::vector<std::shared_ptr<const Column>> entry_passes_;
    std::vector<size_t> output_read_columns_;
    /// Per output: fixed-width, not a bare column, never an error (evaluatesWithoutErrors),
    /// and reading only columns the filter reads (decoded for every row of the morsel
    /// already). Where most rows pass it is computed
    /// for all of them and its values gathered: `length(URL) ... WHERE URL <> ''` gathered
    /// whole URLs to measure them.
    std::vector<bool> whole_morsel_outputs_;
    /// Per output_read_columns_ entry: read by an output other than those, so gathered also
    /// where most rows pass.
    std::vector<bool> gathered_when_dense_;
    /// Morsels where at least one row in this many passed count as dense.
    static constexpr size_t kDenseRowsPerPassingRow = 2;
    std::vector<Range> ranges_;
    size_t rows_to_read_ = 0;
    size_t granules_skipped_ = 0;
    bool where_holds_for_every_row_ = false;
    ScanObserver observer_;
    QueryConditionCache* condition_cache_ = nullptr;
    DecodedChunkCache* decoded_cache_ = nullptr;
    /// A scan adds at most this share of the cache's bound: a scan larger than the cache
    /// would otherwise evict its own chunks before reading them again, every run; capped,
    /// the chunks it did add are read from the cache by the next run.
    static constexpr size_t kCacheShareDivisor = 2;
    /// Bytes this scan may still add to the decoded-chunk cache.
    mutable std::atomic<int64_t> cache_fill_left_{0};
    uint64_t condition_hash_ = 0;
    mutable std::atomic<size_t> rows_read_{0};
    mutable std::atomic<size_t> bytes_read_{0};
    mutable std::mutex progress_mutex_;
    mutable int64_t last_progress_ns_ = 0;
};

}  // namespace granary
