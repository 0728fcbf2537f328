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
/// The same bounds may also prove that every row of a granule satisfies the whole WHERE: each
/// conjunct such a comparison (<> too) on a sort-key integer, Date or DateTime column that
/// holds no NULLs, which the granule's whole range satisfies.
class GranulePruner
{
public:
    GranulePruner(const TableSchema& schema, const sql::ExpressionPtr& where);

    /// Per granule of `part`: false where its bounds prove that no row satisfies WHERE.
    std::vector<bool> granulesToRead(const Part& part) const;

    /// Whether granulesMatchedWhole can prove anything: every conjunct has a proof.
    bool provesWholeGranules() const { return proves_whole_granules_; }
    /// Per granule of `part`: true where its bounds prove that every row satisfies WHERE (all
    /// false where provesWholeGranules is false).
    std::vector<bool> granulesMatchedWhole(const Part& part) const;

private:
    /// `bound op constant` over the granules' minimum (or maximum) of one sort-key column.
    struct BoundTest
    {
        size_t sort_key_index;
        bool on_maximum;
        std::string column;
        CompiledExpression test;
    };
    /// A conjunct holds for a whole granule where any of these holds on its bounds (`key <> c`:
    /// max < c or min > c).
    struct WholeGranuleProof
    {
        std::vector<BoundTest> any_of;
    };

    /// Per granule of `part`: whether `bound` holds on its bounds.
    static std::vector<bool> evaluate(const BoundTest& bound, const Part& part);

    std::vector<BoundTest> tests_;
    std::vector<WholeGranuleProof> proofs_;
    bool proves_whole_granules_ = false;
};

}  // namespace granary
