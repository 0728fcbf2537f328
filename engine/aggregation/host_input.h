#pragma once

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

/// Carries NULLs and filters into the aggregation core, which reads columns without NULLs. A
/// nullable key k is read as two key columns, k's values with NULL rows zeroed and a UInt8
/// "k is NULL" flag, so a NULL key is its own group and never 0's or ""'s. An aggregate over
/// nullable arguments or with a filter gets a UInt8 mask column (1: the row counts), which
/// MaskedAggregateFunction reads. Columns the host declares NOT NULL pass through untouched:
/// plans without NULLs run exactly as before.
class HostInput
{
public:
    /// `also_read`: columns that a plan made elsewhere reads (a state merge's states).
    HostInput(std::vector<HostColumn> columns, std::vector<std::string> keys,
              const std::vector<HostAggregate>& aggregates,
              const std::vector<std::string>& also_read = {});

    const std::vector<HostColumn>& hostColumns() const { return host_columns_; }
    /// The core's input: the host's columns, then the computed flags and masks.
    const std::vector<InputColumn>& coreColumns() const { return core_columns_; }
    const std::vector<std::string>& coreKeys() const { return core_keys_; }
    const std::vector<AggregateDescription>& coreAggregates() const { return core_aggregates_; }
    /// By host column: whether the plan reads it (a key, an argument or a filter). Columns it
    /// does not read are only checked for their type and length: their buffers may be null.
    const std::vector<bool>& readColumns() const { return read_columns_; }
    /// The host's keys, which come first among the core's.
    size_t hostKeyCount() const { return core_keys_.size() - nullable_keys_.size(); }

    /// What a local keeps between batches: the computed columns' buffers.
    struct Scratch
    {
        std::vector<Column> columns;
    };
    /// The core columns of a host batch: views of the host's own columns (a nullable key with
    /// NULLs copied with those rows zeroed), then the flags and masks computed into
    /// `scratch`. Exception(kBadArguments) naming the column for a batch that does not match
    /// the host columns (count, type, length, a bitmap on a NOT NULL column).
    void adapt(std::span<const ColumnView> batch, size_t rows, Scratch& scratch,
               std::vector<ColumnView>& core) const;
    /// Turns a result fragment of the core's into the host's: NULL keys marked, flag columns
    /// dropped.
    void restoreNullKeys(Block& fragment) const;

private:
    /// A nullable key: its host column, its position among the keys, and its flag's among
    /// the core's keys (after the host's).
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

    std::vector<HostColumn> host_columns_;
    std::vector<bool> read_columns_;
    std::vector<InputColumn> core_columns_;
    std::vector<std::string> core_keys_;
    std::vector<AggregateDescription> core_aggregates_;
    std::vector<NullableKey> nullable_keys_;
    std::vector<Mask> masks_;
};

}  // namespace granary
