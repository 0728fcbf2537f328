#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/aggregation/group_by_plan.h"
#include "engine/columns/block.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// A column of a host's batches: its type and whether it may hold NULLs.
struct HostColumn
{
    std::string name;
    TypeId type = TypeId::UInt8;
    bool nullable = false;
};

/// A host's aggregate: an AggregateDescription whose arguments may be NULL and which may have
/// a filter column (UInt8: rows where it is 0 or NULL are skipped by this aggregate).
struct HostAggregate
{
    std::string function;
    std::vector<std::string> arguments;
    std::string result_name;
    std::string filter = {};
    std::vector<double> parameters = {};
};

/// Which rows of a host's batches a core plan aggregates. A plan without nullable keys has
/// only the first lane.
enum class KeyLane : size_t
{
    kNonNullKeys = 0,  ///< Rows whose keys are all non-NULL: the keys as they are.
    kNullKeys = 1,     ///< Rows with a NULL key: each nullable key with its "is NULL" flag.
};
inline constexpr size_t kKeyLanes = 2;

/// What the aggregation core runs for one lane: its input columns, keys and aggregates.
struct CorePlan
{
    std::vector<InputColumn> columns;
    std::vector<std::string> keys;
    std::vector<AggregateDescription> aggregates;
};

/// Carries NULLs and filters into the aggregation core, which reads keys without NULLs. Rows
/// whose keys are all non-NULL go to the lane of the keys as they are, which runs the same key
/// tables as a NOT NULL plan: a batch without NULL keys goes there whole, uncopied. Rows with
/// a NULL key go to a second lane, which reads each nullable key k as two key columns, k's
/// values with NULL rows zeroed and a UInt8 "k is NULL" flag, so a NULL key is its own group,
/// never 0's or ""'s. The lanes' groups never meet: their results are disjoint. An aggregate
/// over nullable arguments or with a filter gets a UInt8 mask column (1: the row counts), which
/// MaskedAggregateFunction reads. Columns the host declares NOT NULL pass through untouched:
/// plans without NULLs run exactly as before.
class HostInput
{
public:
    /// `also_read`: columns that a plan made elsewhere reads (a state merge's states).
    HostInput(std::vector<HostColumn> columns, std::vector<std::string> keys,
              const std::vector<HostAggregate>& aggregates,
              const std::vector<std::string>& also_read = {});

    /// Whether the plan has the lane of NULL keys (a nullable key).
    bool hasNullKeyLane() const { return !nullable_keys_.empty(); }
    /// The core's plan of `lane`: the host's columns, then the lane's flags and the masks.
    const CorePlan& corePlan(KeyLane lane) const { return core_plans_[size_t(lane)]; }
    /// By host column: whether the plan reads it (a key, an argument or a filter). Columns it
    /// does not read are only checked for their type and length: their buffers may be null.
    const std::vector<bool>& readColumns() const { return read_columns_; }
    /// The host's keys, which come first among each lane's.
    size_t hostKeyCount() const { return core_plans_[0].keys.size(); }

    /// A lane's share of a host batch: its core columns and rows (none: nothing to sink).
    struct LaneBatch
    {
        std::vector<ColumnView> columns;
        size_t rows = 0;
    };
    using LaneBatches = std::array<LaneBatch, kKeyLanes>;
    /// What a local keeps between batches: each lane's row numbers and computed columns.
    struct Scratch
    {
        struct Lane
        {
            std::vector<uint32_t> rows;
            std::vector<Column> gathered;  ///< By host column, where the batch is split.
            std::vector<Column> computed;  ///< Zeroed keys, flags, masks.
        };
        std::array<Lane, kKeyLanes> lanes;
    };
    /// Each lane's core columns of a host batch: views of the host's own columns where the
    /// batch has no NULL key, else its rows gathered by lane, then the flags and masks computed
    /// into `scratch`. Exception(kBadArguments) naming the column for a batch that does not
    /// match the host columns (count, type, length, a bitmap on a NOT NULL column).
    void adapt(std::span<const ColumnView> batch, size_t rows, Scratch& scratch,
               LaneBatches& lanes) const;
    /// Turns a result fragment of the NULL-key lane into the host's: NULL keys marked, flag
    /// columns dropped.
    void restoreNullKeys(Block& fragment) const;

private:
    /// A nullable key: its host column, its position among the keys, and its flag's among
    /// the NULL-key lane's keys (after the host's).
    struct NullableKey
    {
        size_t column;
        size_t result_key;
        size_t flag_key;
    };
    /// An aggregate's mask: the columns whose validity it ANDs, and its filter (or none).
    struct Mask
    {
        std::vector<size_t> nullable_arguments;
        std::optional<size_t> filter;
    };
    size_t columnIndex(const std::string& name, std::string_view role) const;
    void checkBatch(std::span<const ColumnView> batch, size_t rows) const;
    /// Sorts the batch's rows into the lanes' row lists; false (lists untouched) when no key
    /// of the batch is NULL.
    bool splitByNullKeys(std::span<const ColumnView> batch, size_t rows, Scratch& scratch) const;
    /// The lane's rows of the columns the plan reads, gathered into `scratch`.
    void gatherLane(std::span<const ColumnView> batch, Scratch::Lane& scratch,
                    LaneBatch& lane) const;
    /// Replaces the NULL-key lane's nullable keys by their zeroed values and adds their flags.
    void addNullFlags(Scratch::Lane& scratch, LaneBatch& lane) const;
    /// Computes the lane's masks from its arguments' bitmaps and filters, before its keys'
    /// bitmaps are dropped (a key may also be an argument).
    void computeMasks(Scratch::Lane& scratch, const LaneBatch& lane) const;
    /// Appends the masks computeMasks made to the lane's columns.
    void appendMasks(const Scratch::Lane& scratch, LaneBatch& lane) const;

    std::vector<HostColumn> host_columns_;
    std::vector<bool> read_columns_;
    std::array<CorePlan, kKeyLanes> core_plans_;
    std::vector<NullableKey> nullable_keys_;
    std::vector<Mask> masks_;
};

}  // namespace granary
