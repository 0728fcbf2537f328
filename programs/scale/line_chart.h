#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "programs/scale/chart_axis.h"

namespace granary::scale
{

struct ChartPoint
{
    double x = 0;
    double y = 0;
};

enum class LineStyle
{
    kSolid,
    kDashed,
    kDotted,
};

enum class MarkerShape
{
    kNone,
    kCircle,
    kSquare,
};

struct ChartSeries
{
    std::string name;  ///< Legend label.
    std::vector<ChartPoint> points;
    std::string colour;
    LineStyle style = LineStyle::kSolid;
    MarkerShape marker = MarkerShape::kCircle;
    double line_width = 2;  ///< 0: markers only.
    bool in_legend = true;  ///< False for background lines too many to label.
};

/// A vertical reference line across the plot, e.g. "16 cores on this machine".
struct ChartReferenceLine
{
    double x = 0;
    std::string label;
};

/// A dashed horizontal line across the plot, e.g. a target "1.25x"; the y axis always reaches it.
struct ChartLevelLine
{
    double y = 0;
    std::string label;
};

/// A line of text under the legend: a fitted model, or a warning drawn in red.
struct ChartNote
{
    std::string text;
    bool warning = false;
};

/// A line chart with axes, ticks, grid, title, subtitle and a legend right of the plot.
struct LineChart
{
    std::string title;
    std::string subtitle;
    std::string x_label;
    std::string y_label;
    AxisScale x_scale = AxisScale::kLinear;
    AxisScale y_scale = AxisScale::kLinear;
    std::vector<ChartSeries> series;
    std::vector<ChartReferenceLine> reference_lines;
    std::vector<ChartLevelLine> level_lines;
    std::vector<ChartNote> notes;
    double width = 1100;
    double height = 560;

    /// Points a log axis cannot show (<= 0, not finite) are left out of their series.
    std::string toSvg() const;
};

/// The index-th colour of a palette of ten easily told apart.
std::string_view chartColour(size_t index);

}  // namespace granary::scale
