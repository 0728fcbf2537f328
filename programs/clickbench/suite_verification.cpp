#include "programs/clickbench/suite_verification.h"

#include <algorithm>

namespace granary::clickbench
{

std::vector<std::optional<Comparison>> verifySuites(const SuiteRun& actual,
                                                    const SuiteRun& expected)
{
    const size_t count = std::min(actual.queries.size(), expected.queries.size());
    std::vector<std::optional<Comparison>> comparisons(count);
    for (size_t index = 0; index < count; ++index)
    {
        const QueryRun& ours = actual.queries[index];
        const QueryRun& theirs = expected.queries[index];
        if (!ours.error.empty() || !theirs.error.empty() || !ours.result || !theirs.result)
        {
            continue;
        }
        const OrderSpec spec = orderSpecOf(ours.sql, ours.result->column_names);
        comparisons[index] = compareResults(*ours.result, *theirs.result, spec);
    }
    return comparisons;
}

size_t countVerificationFailures(const SuiteRun& actual, const SuiteRun& expected,
                                 const std::vector<std::optional<Comparison>>& comparisons)
{
    size_t failures = std::max(actual.queries.size(), expected.queries.size()) - comparisons.size();
    for (const std::optional<Comparison>& comparison : comparisons)
    {
        if (!comparison || comparison->outcome == Comparison::Outcome::kDiffers)
        {
            ++failures;
        }
    }
    return failures;
}

}  // namespace granary::clickbench
