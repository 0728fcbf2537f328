#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/types.h"
#include "engine/sql/statement.h"

namespace granary
{

struct ColumnSchema
{
    std::string name;
    TypeId type;
};

/// A table's columns and the key its parts are sorted by.
struct TableSchema
{
    std::vector<ColumnSchema> columns;
    /// From ORDER BY, else PRIMARY KEY: bare column names only.
    std::vector<std::string> sort_key;

    /// Exact, case-sensitive.
    std::optional<size_t> indexOf(std::string_view column) const;
    /// Column indexes of the sort key, in key order.
    std::vector<size_t> sortKeyColumns() const;

    /// Throws kBadArguments for a duplicate column, kUnknownColumn for a key naming no column,
    /// kNotImplemented for a key that is an expression; each message names the culprit.
    static TableSchema fromCreate(const sql::CreateTableStatement& statement);
};

bool operator==(const ColumnSchema& left, const ColumnSchema& right);
bool operator==(const TableSchema& left, const TableSchema& right);

}  // namespace granary
