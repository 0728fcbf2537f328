#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/storage/part.h"
#include "engine/storage/table_schema.h"

namespace granary
{

/// The columns of a new part, sorted, with the granule bounds of each sort-key column.
struct PartData
{
    size_t rows = 0;
    std::vector<Column> columns;
    std::vector<Column> granule_min;
    std::vector<Column> granule_max;
};

/// The rows of the pieces (each: one view per column in schema order, all of one length),
/// stably sorted by the schema's sort key. `parallel` lets oneTBB sort and gather in the
/// calling arena.
PartData buildPartData(const std::vector<std::vector<ColumnView>>& pieces,
                       const TableSchema& schema, bool parallel);

/// Per granule of kGranuleRows rows of `values`: the least and the greatest value.
void computeGranuleBounds(const ColumnView& values, Column& minimums, Column& maximums);

std::shared_ptr<const Part> makeInMemoryPart(PartData data);

}  // namespace granary
