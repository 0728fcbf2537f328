#include "engine/expressions/like.h"

#include "engine/expressions/predicate.h"
#include "simd/like_pattern.h"

namespace granary
{
namespace
{

simd::SearchOptions searchOptions(bool case_insensitive)
{
    simd::SearchOptions options;
    options.case_sensitivity = case_insensitive ? simd::CaseSensitivity::AsciiInsensitive
                                                : simd::CaseSensitivity::Sensitive;
    return options;
}

class LikeNode final : public PredicateNode
{
public:
    LikeNode(NodePtr value, std::string_view pattern, bool case_insensitive, bool negated)
        : PredicateNode(std::move(value)),
          pattern_(pattern, searchOptions(case_insensitive)),
          negated_(negated)
    {
    }

protected:
    void writeMask(const ColumnView& values, uint8_t* mask) const override
    {
        pattern_.selectRows(
            simd::StringColumnView{values.chars, values.offsets, values.rows},
            negated_ ? simd::RowSelection::NotMatching : simd::RowSelection::Matching, mask);
    }
    void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const override
    {
        keepRowsByTest<std::string_view>(values, rows,
                                         [this](std::string_view value)
                                         { return pattern_.matches(value) != negated_; });
    }
    size_t wholeRangeRowsPerSurvivor() const override
    {
        // '%x%' searches the whole column's bytes at once (~2.5 ns a row on 10M URLs) where
        // one string searched alone costs ~75 ns: the whole range wins down to 1 row in 30.
        constexpr size_t kContainsRowsPerSurvivor = 32;
        return pattern_.kind() == simd::LikePatternKind::Contains
                   ? kContainsRowsPerSurvivor
                   : PredicateNode::wholeRangeRowsPerSurvivor();
    }

private:
    simd::LikePattern pattern_;
    bool negated_;
};

}  // namespace

NodePtr makeLike(NodePtr value, std::string_view pattern, bool case_insensitive, bool negated)
{
    return std::make_shared<LikeNode>(std::move(value), pattern, case_insensitive, negated);
}

}  // namespace granary
