#pragma once

#include <string>
#include <vector>

#include "engine/expressions/compiled_expression.h"
#include "engine/sql/expression.h"
#include "engine/storage/part.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// Skips granules by their sort-key bounds. Understood: AND chains of `key op constant` and
/// `constant op key` with op one of = < <= > >= (other conditions keep every granule). The
/// bound tests are compiled once per query and evaluated over each part's granule bounds.
class GranulePruner
{
public:
    GranulePruner(const TableSchema& schema, const sql::ExpressionPtr& where);

    /// Per granule of `part`: false where its bounds prove that no row satisfies WHERE.
    std::vector<bool> granulesToRead(const Part& part) const;

private:
    /// `bound op constant` over the granules' minimum (or maximum) of one sort-key column.
    struct BoundTest
    {
        size_t sort_key_index;
        bool on_maximum;
        std::string column;
        CompiledExpression test;
    };
    std::vector<BoundTest> tests_;
};

}  // namespace granary
