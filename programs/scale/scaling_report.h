#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "programs/scale/inflation_row.h"
#include "programs/scale/machine_description.h"
#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// Writes into `out_dir` (created if missing): scaling.csv, predictions.csv, outside_phases.csv,
/// machine.json, index.html and, per query, speedup_<Q>.svg, phases_<Q>.svg and
/// work_span_<Q>.svg; with `inflation` rows (tools/work_inflation.sh's CSV), also
/// inflation_predictions.csv. Returns a plain-text summary: one line per query (fit,
/// predictions, growing phases, merge growth, work/span), the time outside phases and, with
/// `inflation`, the inflation model's predictions. Throws Exception(kCannotOpenFile) naming a
/// file it cannot write.
std::string writeScalingReport(const std::filesystem::path& out_dir,
                               const std::vector<ScalingRow>& rows,
                               const MachineDescription& machine,
                               const std::vector<size_t>& predict_at,
                               const std::vector<InflationRow>& inflation = {});

}  // namespace granary::scale
