#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/sql/statement.h"

namespace granary
{

/// ARRAY JOIN over a scan's rows (after WHERE, before the outputs): each row repeated once
/// per element of its array, the element added under the clause's alias, which the outputs
/// read in place of any column of that name.
class ArrayJoinStep
{
public:
    /// A morsel's memory between calls.
    struct Buffers
    {
        Column array;
        std::vector<uint32_t> repeated;  ///< Per output row, the input row it repeats.
        std::vector<Column> columns;     ///< Per input column, its repeated rows.
        Column elements;
    };

    /// Compiles the array over columns of `lookup`; an array of another type is kTypeMismatch.
    ArrayJoinStep(const sql::ArrayJoinClause& clause, const ColumnTypeLookup& lookup);

    /// The table columns the array reads.
    const std::vector<std::string>& columns() const { return array_.columns(); }
    /// `lookup` with the alias naming the element.
    ColumnTypeLookup withElement(ColumnTypeLookup lookup) const;

    /// The `rows` rows of `input`, each once per element of its array (LEFT: rows of empty
    /// arrays once, with the element's default), into `out`; returns the rows of `out`.
    size_t expand(const BlockView& input, size_t rows, Buffers& buffers, BlockView& out) const;

private:
    CompiledExpression array_;
    std::string alias_;
    bool left_;
};

}  // namespace granary
