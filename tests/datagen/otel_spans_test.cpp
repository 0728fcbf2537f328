// The span generator: any split of the sequence gives the same rows, the shape it promises
// (traces, parents, slow spans, errors, links) holds, and its rows go through the collector's
// own DDL and come back unchanged.
#include "engine/datagen/otel_spans.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary::datagen
{
namespace
{

std::string rowBinary(const Block& block)
{
    std::ostringstream out;
    writeBlock(block, OutputFormat::kRowBinary, out);
    return out.str();
}

TEST(OtelSpans, AnySplitGivesTheSameRows)
{
    const std::string whole = rowBinary(generateSpans(0, 1000, 7));
    std::string pieces;
    for (const auto& [first, count] : {std::pair<uint64_t, size_t>{0, 333}, {333, 1}, {334, 666}})
    {
        pieces += rowBinary(generateSpans(first, count, 7));
    }
    EXPECT_EQ(pieces, whole);
    EXPECT_NE(rowBinary(generateSpans(0, 1000, 8)), whole);
}

TEST(OtelSpans, TracesParentsDurationsErrorsAndLinksHaveTheirShape)
{
    constexpr size_t kSpans = 100000;
    const Block block = generateSpans(0, kSpans, 1);
    const TableSchema& schema = otelTracesSchema();
    auto column = [&](std::string_view name) -> const Column&
    { return block.columns[*schema.indexOf(name)].column; };
    size_t slow = 0;
    size_t errors = 0;
    for (size_t row = 0; row < kSpans; ++row)
    {
        const bool first_of_trace = row % kSpansPerTrace == 0;
        EXPECT_EQ(column("ParentSpanId").stringAt(row),
                  first_of_trace ? std::string_view() : column("SpanId").stringAt(row - 1));
        if (!first_of_trace)
        {
            ASSERT_EQ(column("TraceId").stringAt(row), column("TraceId").stringAt(row - 1));
        }
        slow += column("Duration").valueAt<uint64_t>(row) >= 1000000000 ? 1 : 0;
        errors += column("StatusCode").stringAt(row) == "Error" ? 1 : 0;
    }
    EXPECT_NEAR(static_cast<double>(slow) / kSpans, 0.01, 0.002);
    EXPECT_NEAR(static_cast<double>(errors) / kSpans, 0.02, 0.003);
    const ColumnView links = column("Links.SpanId").view();
    EXPECT_NEAR(static_cast<double>(links.offsets[kSpans]) / kSpans, 0.05, 0.005);
    EXPECT_EQ(column("Events.Name").view().offsets[kSpans], kSpans);
}

TEST(OtelSpans, TheCollectorsDdlTakesTheRowsAndGivesThemBack)
{
    Session session(Database::openInMemory());
    std::string create = kOtelTracesCreate;
    create.replace(create.find("ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))"),
                   std::string_view("ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))").size(),
                   "ORDER BY tuple()");
    session.execute(create);
    const std::string bytes = rowBinary(generateSpans(0, 5000, 3));
    QueryOptions options;
    options.insert_bytes = bytes;
    EXPECT_EQ(session.execute("INSERT INTO otel_traces FORMAT RowBinary", options).rows_written,
              5000u);
    std::ostringstream out;
    writeBlock(session.execute("SELECT * FROM otel_traces").block, OutputFormat::kRowBinary, out);
    EXPECT_EQ(out.str(), bytes);
}

}  // namespace
}  // namespace granary::datagen
