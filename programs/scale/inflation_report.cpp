#include "programs/scale/inflation_report.h"

#include <cctype>

#include "programs/scale/inflation_chart.h"
#include "programs/scale/inflation_summary.h"
#include "programs/scale/output_file.h"

namespace granary::scale
{

namespace
{

/// Suite names come from the command line (--suite NAME=FILE): keep them to safe file names.
std::string svgFileName(const std::string& suite)
{
    std::string name = "inflation_";
    for (const char ch : suite)
    {
        const bool safe = std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
        name += safe ? ch : '_';
    }
    return name + ".svg";
}

}  // namespace

InflationReport writeInflationReport(const std::filesystem::path& out_dir,
                                     const std::vector<InflationRow>& rows)
{
    createOutputDirectory(out_dir);
    const std::vector<InflationSummaryRow> summary = summariseInflation(rows);
    InflationReport report{inflationSummaryTable(summary), {out_dir / "inflation_summary.csv"}};
    writeFile(report.files.back(), inflationSummaryCsv(summary));
    for (const InflationSuite& suite : splitBySuite(rows))
    {
        report.files.push_back(out_dir / svgFileName(suite.name));
        writeFile(report.files.back(), inflationChart(suite, summary).toSvg());
    }
    return report;
}

}  // namespace granary::scale
