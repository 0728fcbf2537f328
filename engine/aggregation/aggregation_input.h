#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column_view.h"
#include "engine/columns/data_type.h"
#include "engine/columns/types.h"

namespace granary
{

struct InputColumn
{
    std::string name;
    DataType type;
};

/// What a worker keeps between the morsels it produces (filtered, computed columns), so that
/// each morsel reuses the previous one's memory.
class MorselBuffers
{
public:
    virtual ~MorselBuffers() = default;
};

/// The rows an aggregation reads, in morsels that workers produce on demand: a scan with its
/// filter and computed columns runs inside the partial phase, morsel by morsel, so no
/// intermediate column of the whole input is ever built.
class AggregationInput
{
public:
    virtual ~AggregationInput() = default;

    /// The columns every morsel has, in this order.
    virtual const std::vector<InputColumn>& columns() const = 0;
    virtual size_t morsels() const = 0;
    /// The most rows the morsels hold together (before any filter).
    virtual size_t rows() const = 0;
    virtual std::unique_ptr<MorselBuffers> makeBuffers() const { return nullptr; }
    /// Fills `out` with morsel `index`'s columns (in columns() order) and returns its row
    /// count. The views stay valid until the next call with the same buffers. Called from
    /// several threads at once, each with buffers of its own.
    virtual size_t produce(size_t index, MorselBuffers* buffers,
                           std::vector<ColumnView>& out) const = 0;
};

/// A BlockView cut into morsels of `morsel_rows` rows (views of it: nothing is copied).
class BlockViewInput final : public AggregationInput
{
public:
    BlockViewInput(const BlockView& block, size_t morsel_rows);

    const std::vector<InputColumn>& columns() const override { return columns_; }
    size_t morsels() const override;
    size_t rows() const override { return block_.rows(); }
    size_t produce(size_t index, MorselBuffers* buffers,
                   std::vector<ColumnView>& out) const override;

private:
    const BlockView& block_;
    size_t morsel_rows_;
    std::vector<InputColumn> columns_;
};

}  // namespace granary
