#include "programs/scale/scaling_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "programs/scale/inflation_predictions.h"
#include "programs/scale/output_file.h"
#include "programs/scale/outside_phases.h"
#include "programs/scale/scaling_analysis.h"
#include "programs/scale/scaling_csv.h"
#include "programs/scale/scaling_plots.h"
#include "programs/scale/svg_document.h"

namespace granary::scale
{

namespace
{

std::string predictionsCsv(const std::vector<QueryAnalysis>& analyses,
                           const std::vector<size_t>& predict_at)
{
    std::string out =
        "query,samples,serial_fraction,relative_contention,uses_contention,rms_relative_error,"
        "optimal_threads";
    for (size_t threads : predict_at)
    {
        out += fmt::format(",speedup_at_{}", threads);
    }
    out +=
        ",max_measured_parallelism,merge_span_growth_exponent,merge_span_superlinear,"
        "merge_work_growth_exponent,growing_phases,model_error\n";
    for (const QueryAnalysis& a : analyses)
    {
        out += a.query;
        if (a.model)
        {
            out += fmt::format(",{},{},{},{},{},{}", a.model->samples, a.model->serialFraction(),
                               a.model->relativeContention(), a.model->uses_contention ? 1 : 0,
                               a.model->rms_relative_error, a.model->optimalThreads());
        }
        else
        {
            out += ",0,,,,,";
        }
        for (size_t i = 0; i < predict_at.size(); ++i)
        {
            out += i < a.predictions.size() ? fmt::format(",{}", a.predictions[i].speedup) : ",";
        }
        double parallelism = 0;
        for (const ScalingRow& row : a.rows)
        {
            parallelism = std::max(parallelism, row.workPerSpan());
        }
        out += fmt::format(",{},{},{},{},{},\"{}\"\n", parallelism, a.merge_span_growth.exponent,
                           a.merge_span_growth.superlinear() ? 1 : 0, a.merge_work_growth.exponent,
                           a.growingPhases(), fmt::format("{}", a.model_error));
    }
    return out;
}

/// Work / span at the query's most threads, of the best run and of the medians.
std::string workPerSpanText(const QueryAnalysis& a)
{
    if (a.rows.empty())
    {
        return "";
    }
    const ScalingRow& most = a.rows.back();
    const double median = most.workPerMedianSpan();
    return fmt::format("; work/span at {} threads {:.2f} (best run), {} (median)", most.threads,
                       most.workPerSpan(), median > 0 ? fmt::format("{:.2f}", median) : "unknown");
}

std::string summaryLine(const QueryAnalysis& a)
{
    std::string line = a.query + ":";
    if (a.model)
    {
        line += fmt::format(" serial fraction {:.4f}", a.model->serialFraction());
        if (a.model->uses_contention)
        {
            line += fmt::format(", contention {:.2e}/thread (best at ~{:.0f} threads)",
                                a.model->relativeContention(), a.model->optimalThreads());
        }
        line += "; predicted speedup";
        for (const Prediction& p : a.predictions)
        {
            line += fmt::format(" {}:{:.1f}x", p.threads, p.speedup);
        }
    }
    else
    {
        line += " no model (" + a.model_error + ")";
    }
    line += workPerSpanText(a);
    if (const std::string growing = a.growingPhases(); !growing.empty())
    {
        line += "; GROWING PHASES: " + growing;
    }
    if (a.merge_span_growth.samples >= 3)
    {
        line +=
            fmt::format("; convert+merge span ~ partials^{:.2f}{}", a.merge_span_growth.exponent,
                        a.merge_span_growth.superlinear() ? " (SUPERLINEAR)" : "");
    }
    return line;
}

std::string indexHtml(const std::vector<QueryAnalysis>& analyses,
                      const std::vector<ScalingRow>& rows, const MachineDescription& machine)
{
    std::string html =
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>granary scale"
        "</title></head>\n<body style=\"font-family: sans-serif\">\n";
    html += "<h1>granary scale</h1>\n<p>" + escapeXml(machine.summary()) + "</p>\n";
    html +=
        "<p><a href=\"scaling.csv\">scaling.csv</a> · <a href=\"predictions.csv\">"
        "predictions.csv</a> · <a href=\"outside_phases.csv\">outside_phases.csv</a> · "
        "<a href=\"machine.json\">machine.json</a></p>\n";
    for (const QueryAnalysis& a : analyses)
    {
        const auto sql = std::find_if(rows.begin(), rows.end(),
                                      [&](const ScalingRow& r) { return r.query == a.query; });
        html += "<h2>" + escapeXml(a.query) + "</h2>\n<pre>" +
                escapeXml(sql == rows.end() ? "" : sql->sql) + "</pre>\n<p>" +
                escapeXml(summaryLine(a)) + "</p>\n";
        for (const char* kind : {"speedup", "phases", "work_span"})
        {
            html += fmt::format("<img src=\"{}_{}.svg\" width=\"1100\">\n", kind, a.query);
        }
    }
    return html + "</body></html>\n";
}

/// outside_phases.csv; returns its summary.
std::string writeOutsidePhases(const std::filesystem::path& out_dir,
                               const std::vector<ScalingRow>& rows)
{
    const std::vector<OutsidePhasesRow> table = outsidePhasesTable(rows);
    writeFile(out_dir / "outside_phases.csv", outsidePhasesCsv(table));
    return outsidePhasesSummary(table);
}

/// inflation_predictions.csv; returns its summary.
std::string writeInflationPredictions(const std::filesystem::path& out_dir,
                                      const std::vector<QueryAnalysis>& analyses,
                                      const std::vector<InflationRow>& inflation,
                                      const std::vector<size_t>& predict_at)
{
    const std::vector<size_t> threads = inflationPredictionThreads(predict_at);
    const std::vector<QueryPrediction> predictions =
        predictWithInflation(analyses, inflation, threads);
    writeFile(out_dir / "inflation_predictions.csv", inflationPredictionsCsv(predictions, threads));
    return inflationPredictionsSummary(predictions);
}

}  // namespace

std::string writeScalingReport(const std::filesystem::path& out_dir,
                               const std::vector<ScalingRow>& rows,
                               const MachineDescription& machine,
                               const std::vector<size_t>& predict_at,
                               const std::vector<InflationRow>& inflation)
{
    createOutputDirectory(out_dir);
    {
        std::ofstream csv = openForWriting(out_dir / "scaling.csv");
        writeScalingCsv(rows, csv);
    }
    writeFile(out_dir / "machine.json", machine.toJson() + "\n");

    std::vector<QueryAnalysis> analyses;
    for (const std::string& query : queriesOf(rows))
    {
        analyses.push_back(analyseQuery(query, rows, predict_at));
    }
    const PlotContext context{machine.summary(), std::max<size_t>(1, machine.hardware_threads),
                              predict_at};
    std::string summary = "machine: " + machine.summary() + "\n";
    for (const QueryAnalysis& a : analyses)
    {
        writeFile(out_dir / fmt::format("speedup_{}.svg", a.query),
                  speedupChart(a, context).toSvg());
        writeFile(out_dir / fmt::format("phases_{}.svg", a.query), phaseChart(a, context).toSvg());
        writeFile(out_dir / fmt::format("work_span_{}.svg", a.query),
                  workSpanChart(a, context).toSvg());
        summary += summaryLine(a) + "\n";
    }
    writeFile(out_dir / "predictions.csv", predictionsCsv(analyses, predict_at));
    writeFile(out_dir / "index.html", indexHtml(analyses, rows, machine));
    summary += writeOutsidePhases(out_dir, rows);
    if (!inflation.empty())
    {
        summary += writeInflationPredictions(out_dir, analyses, inflation, predict_at);
    }
    return summary;
}

}  // namespace granary::scale
