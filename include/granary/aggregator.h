#pragma once

// Granary's embedding API: GROUP BY with aggregates over column views of the caller's own
// memory, on as many threads as asked, with per-query settings, memory limit, cancellation and
// statistics (per-phase wall time, work and span, merge path).
//
//   granary::BlockView input;
//   input.add("region", granary::ColumnView::of(granary::TypeId::UInt32, regions, rows));
//   input.add("user", granary::ColumnView::of(granary::TypeId::UInt64, users, rows));
//   granary::Aggregator aggregator({"region"}, {{"count", {}, "hits"},
//                                              {"uniqExact", {"user"}, "users"}});
//   granary::QueryContext context(/*threads=*/8, /*memory_limit_bytes=*/1 << 30);
//   granary::Block result = aggregator.execute(input, context);
//
// A caller that keeps only the first N groups in an order of result columns (ORDER BY ...
// LIMIT N) says so, and the groups that cannot be among them are never finalized; sorting the
// result and keeping N rows then gives what it would have given over every group:
//
//   granary::TopGroups top{{{"users", /*descending=*/true}}, /*rows=*/10};
//   granary::Block top_regions = aggregator.execute(input, context, &top);
//
// Errors are granary::Exception (with a code) or granary::MemoryLimitExceeded.

#include "alloc/memory_tracker.h"
#include "engine/aggregation/aggregation_settings.h"
#include "engine/aggregation/aggregator.h"
#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/columns/column_view.h"
#include "engine/columns/types.h"
#include "engine/common/exception.h"
#include "engine/exec/query_context.h"
#include "engine/exec/query_stats.h"
