#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/columns/column.h"
#include "engine/columns/column_view.h"

namespace granary
{

/// Named columns of equal length: the unit of data between operators.
struct Block
{
    struct Entry
    {
        std::string name;
        Column column;
    };
    std::vector<Entry> columns;

    size_t rows() const { return columns.empty() ? 0 : columns.front().column.size(); }
    const Column* find(std::string_view name) const;
};

/// A Block of views: what the aggregator reads. All columns must have the same row count.
struct BlockView
{
    struct Entry
    {
        std::string name;
        ColumnView column;
    };
    std::vector<Entry> columns;

    static BlockView of(const Block& block);

    size_t rows() const { return columns.empty() ? 0 : columns.front().column.rows; }
    std::optional<ColumnView> find(std::string_view name) const;
    void add(std::string name, ColumnView column) { columns.push_back({std::move(name), column}); }
    /// Throws std::invalid_argument naming the first column whose length differs.
    void checkEqualLengths() const;
};

/// Appends `from`'s rows to `to`, whose columns (names and types) it takes when `to` has none.
void appendBlock(Block& to, const Block& from);

}  // namespace granary
