#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engine/columns/block.h"

namespace granary::datagen
{

/// One published statistic of `hits` beside its value measured on generated rows.
struct HitsCheck
{
    enum class Kind
    {
        kRelative,  ///< |measured - target| <= tolerance * |target|.
        kAbsolute,  ///< |measured - target| <= tolerance.
        kAtLeast,   ///< measured >= target.
        kAtMost,    ///< measured <= target.
        kInfo,      ///< Shown, never flagged: the target only holds at ClickBench's size.
    };
    std::string name;
    double measured = 0;
    double target = 0;
    Kind kind = Kind::kInfo;
    double tolerance = 0;
    std::string source;  ///< Where the target comes from ([F] published, [E] estimate...).

    bool passes() const;
};

/// Measures the statistics of HITS-STATISTICS.md on generated `hits` blocks, straight from
/// the column values (not from the generator's models). Distinct counts keep a 64-bit hash per
/// distinct value: about 1 GB at 100M rows.
class HitsStatistics
{
public:
    HitsStatistics();
    ~HitsStatistics();

    /// Adds the rows of one block with the columns of hits_schema.h; blocks in any order.
    void add(const Block& block);
    uint64_t rows() const;

    std::vector<HitsCheck> checks() const;
    /// A table: statistic, measured, target, tolerance, source, and "DEVIATES" where it fails.
    /// Returns the number of failing checks.
    size_t printReport(std::ostream& out) const;

private:
    struct Accumulators;
    std::unique_ptr<Accumulators> state_;
};

}  // namespace granary::datagen
