#include "engine/aggregation/aggregate_function.h"

namespace granary
{

void AggregateFunction::mergeMany(char* target, std::span<char* const> sources,
                                  MergeContext& context) const
{
    for (char* source : sources)
    {
        merge(target, source, context);
    }
}

}  // namespace granary
