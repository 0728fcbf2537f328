#pragma once

#include <string>
#include <vector>

#include "engine/columns/block.h"
#include "tests/planner/naive_evaluator.h"

namespace granary::oracle
{

/// The engine's result as rows of oracle values.
std::vector<Row> rowsOf(const Block& block);

/// Empty when `engine` is a valid answer to the query `expected` came from; otherwise the
/// first difference, in words. Names, kinds of columns (integer, float, string, date, time)
/// and row count must match. Rows are matched as multisets within each run of equal ORDER BY
/// keys (floats within 1e-9, relatively): the key sequence of every valid answer is the same,
/// so position i of the engine's rows must hold a row of the oracle's run at position
/// OFFSET + i, and where LIMIT cuts a run, any of its rows will do. Without ORDER BY, the
/// whole result is one run.
std::string differenceFromOracle(const Block& engine, const NaiveResult& expected);

}  // namespace granary::oracle
