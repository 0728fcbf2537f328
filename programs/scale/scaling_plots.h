#pragma once

#include <span>
#include <string>

#include "programs/scale/line_chart.h"
#include "programs/scale/scaling_analysis.h"

namespace granary::scale
{

/// What every plot of one study shares.
struct PlotContext
{
    std::string machine_summary;  ///< Printed as the subtitle, so machines can be told apart.
    size_t hardware_threads = 1;
    std::span<const size_t> predict_at;
};

/// Measured speedup, the ideal line, the work/span bound, the fitted model and its predictions.
LineChart speedupChart(const QueryAnalysis& analysis, const PlotContext& context);

/// Time of each phase against threads, with its span; phases that grow with threads stand out
/// (thick lines, a red note).
LineChart phaseChart(const QueryAnalysis& analysis, const PlotContext& context);

/// Total work and span, and the convert + merge span against the number of partials.
LineChart workSpanChart(const QueryAnalysis& analysis, const PlotContext& context);

}  // namespace granary::scale
