#include "programs/scale/line_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "programs/scale/svg_document.h"

namespace granary::scale
{

namespace
{

constexpr double kMarginLeft = 80;
constexpr double kMarginTop = 70;
constexpr double kMarginBottom = 60;
constexpr double kLegendWidth = 370;
constexpr double kLegendRowHeight = 20;

struct DataRange
{
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();

    void add(double value)
    {
        min = std::min(min, value);
        max = std::max(max, value);
    }
};

bool shownOnLog(AxisScale scale, double value)
{
    return std::isfinite(value) && (scale == AxisScale::kLinear || value > 0);
}

std::string dashFor(LineStyle style)
{
    switch (style)
    {
        case LineStyle::kSolid:
            return "";
        case LineStyle::kDashed:
            return "8 5";
        case LineStyle::kDotted:
            return "2 4";
    }
    return "";
}

void drawMarker(SvgDocument& svg, SvgPoint at, MarkerShape shape, const std::string& colour)
{
    switch (shape)
    {
        case MarkerShape::kNone:
            return;
        case MarkerShape::kCircle:
            svg.circle(at, 4, colour, "white");
            return;
        case MarkerShape::kSquare:
        {
            const StrokeStyle outline{colour, 2, ""};
            svg.rect(at.x - 4, at.y - 4, 8, 8, "white", &outline);
            return;
        }
    }
}

}  // namespace

std::string_view chartColour(size_t index)
{
    static constexpr std::array<std::string_view, 10> kPalette = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    return kPalette[index % kPalette.size()];
}

std::string LineChart::toSvg() const
{
    DataRange x_range;
    DataRange y_range;
    for (const ChartSeries& s : series)
    {
        for (const ChartPoint& p : s.points)
        {
            if (shownOnLog(x_scale, p.x) && shownOnLog(y_scale, p.y))
            {
                x_range.add(p.x);
                y_range.add(p.y);
            }
        }
    }
    for (const ChartReferenceLine& line : reference_lines)
    {
        if (shownOnLog(x_scale, line.x))
        {
            x_range.add(line.x);
        }
    }
    for (const ChartLevelLine& line : level_lines)
    {
        if (shownOnLog(y_scale, line.y))
        {
            y_range.add(line.y);
        }
    }
    if (!std::isfinite(x_range.min))
    {
        x_range = {1, 2};
    }
    if (!std::isfinite(y_range.min))
    {
        y_range = {1, 2};
    }
    const ChartAxis x_axis(x_scale, x_range.min, x_range.max);
    const ChartAxis y_axis(y_scale, y_range.min, y_range.max);

    const double plot_left = kMarginLeft;
    const double plot_top = kMarginTop;
    const double plot_width = width - kMarginLeft - kLegendWidth - 20;
    const double plot_height = height - kMarginTop - kMarginBottom;
    const auto to_svg = [&](ChartPoint p) -> SvgPoint
    {
        return {plot_left + x_axis.fraction(p.x) * plot_width,
                plot_top + (1 - y_axis.fraction(p.y)) * plot_height};
    };

    SvgDocument svg(width, height);
    svg.rect(0, 0, width, height, "white");
    svg.text({kMarginLeft, 28}, title, {.size = 18, .bold = true});
    svg.text({kMarginLeft, 50}, subtitle, {.size = 11, .fill = "#555"});

    const StrokeStyle grid{"#e3e3e3", 1, ""};
    const TextStyle tick_style{.size = 12, .anchor = TextAnchor::kMiddle, .fill = "#333"};
    for (double tick : x_axis.ticks())
    {
        const double x = to_svg({tick, y_axis.min()}).x;
        svg.line({x, plot_top}, {x, plot_top + plot_height}, grid);
        svg.text({x, plot_top + plot_height + 18}, ChartAxis::formatTick(tick), tick_style);
    }
    TextStyle y_tick_style = tick_style;
    y_tick_style.anchor = TextAnchor::kEnd;
    for (double tick : y_axis.ticks())
    {
        const double y = to_svg({x_axis.min(), tick}).y;
        svg.line({plot_left, y}, {plot_left + plot_width, y}, grid);
        svg.text({plot_left - 8, y + 4}, ChartAxis::formatTick(tick), y_tick_style);
    }
    const StrokeStyle frame{"#333", 1.2, ""};
    svg.rect(plot_left, plot_top, plot_width, plot_height, "none", &frame);
    svg.text({plot_left + plot_width / 2, height - 16}, x_label,
             {.size = 14, .anchor = TextAnchor::kMiddle});
    svg.text({22, plot_top + plot_height / 2}, y_label,
             {.size = 14, .anchor = TextAnchor::kMiddle, .rotate_degrees = -90});

    for (const ChartReferenceLine& line : reference_lines)
    {
        if (!shownOnLog(x_scale, line.x))
        {
            continue;
        }
        const double x = to_svg({line.x, y_axis.min()}).x;
        svg.line({x, plot_top}, {x, plot_top + plot_height}, {"#999", 1.5, "3 3"});
        svg.text({x + 4, plot_top + 14}, line.label, {.size = 11, .fill = "#666"});
    }

    for (const ChartLevelLine& line : level_lines)
    {
        if (!shownOnLog(y_scale, line.y))
        {
            continue;
        }
        const double y = to_svg({x_axis.min(), line.y}).y;
        svg.comment(fmt::format("level line y={}", line.y));
        svg.line({plot_left, y}, {plot_left + plot_width, y},
                 {"#555", 1.5, dashFor(LineStyle::kDashed)});
        // Labelled at the left end, where lines against threads tend to start close together;
        // below the line when it runs along the top of the plot.
        const double label_y = y - plot_top < 16 ? y + 14 : y - 5;
        svg.text({plot_left + 6, label_y}, line.label, {.size = 11, .fill = "#444"});
    }

    for (const ChartSeries& s : series)
    {
        std::vector<SvgPoint> points;
        for (const ChartPoint& p : s.points)
        {
            if (shownOnLog(x_scale, p.x) && shownOnLog(y_scale, p.y))
            {
                points.push_back(to_svg(p));
            }
        }
        svg.comment("series " + s.name);
        if (points.size() > 1 && s.line_width > 0)
        {
            svg.polyline(points, {s.colour, s.line_width, dashFor(s.style)});
        }
        for (const SvgPoint& p : points)
        {
            drawMarker(svg, p, s.marker, s.colour);
        }
    }

    const double legend_left = width - kLegendWidth;
    double legend_y = plot_top + 6;
    for (const ChartSeries& s : series)
    {
        if (!s.in_legend)
        {
            continue;
        }
        if (s.line_width > 0)
        {
            svg.line({legend_left, legend_y}, {legend_left + 30, legend_y},
                     {s.colour, s.line_width, dashFor(s.style)});
        }
        drawMarker(svg, {legend_left + 15, legend_y}, s.marker, s.colour);
        svg.text({legend_left + 38, legend_y + 4}, s.name, {.size = 12});
        legend_y += kLegendRowHeight;
    }
    legend_y += 8;
    for (const ChartNote& note : notes)
    {
        svg.text({legend_left, legend_y + 4}, note.text,
                 {.size = 11, .bold = note.warning, .fill = note.warning ? "#c00000" : "#444"});
        legend_y += kLegendRowHeight - 4;
    }
    return svg.finish();
}

}  // namespace granary::scale
