#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "programs/scale/machine_description.h"
#include "programs/scale/scaling_row.h"

namespace granary::scale
{

/// Writes into `out_dir` (created if missing): scaling.csv, predictions.csv, machine.json,
/// index.html and, per query, speedup_<Q>.svg, phases_<Q>.svg and work_span_<Q>.svg. Returns a
/// plain-text summary (one line per query: fit, predictions, growing phases, merge growth).
/// Throws Exception(kCannotOpenFile) naming a file it cannot write.
std::string writeScalingReport(const std::filesystem::path& out_dir,
                               const std::vector<ScalingRow>& rows,
                               const MachineDescription& machine,
                               const std::vector<size_t>& predict_at);

}  // namespace granary::scale
