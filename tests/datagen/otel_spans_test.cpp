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

/// The exporter's DDL for `encoding`, unsorted (rows come back in insert order), named `name`.
std::string unsortedCreate(AttributeEncoding encoding, const std::string& name)
{
    std::string create = otelTracesCreate(encoding);
    const std::string_view key = "ORDER BY (ServiceName, SpanName, toDateTime(Timestamp))";
    create.replace(create.find(key), key.size(), "ORDER BY tuple()");
    create.replace(create.find("otel_traces"), std::string_view("otel_traces").size(), name);
    return create;
}

std::string tsv(Session& session, const std::string& query)
{
    std::ostringstream out;
    writeBlock(session.execute(query).block, OutputFormat::kTSV, out);
    return out.str();
}

TEST(OtelSpans, JsonModeCarriesTheSameAttributesWithTheirTypes)
{
    Session session(Database::openInMemory());
    QueryOptions options;
    for (const auto& [encoding, name] : {std::pair{AttributeEncoding::kMap, "maps"},
                                         std::pair{AttributeEncoding::kJson, "objects"}})
    {
        session.execute(unsortedCreate(encoding, name));
        const std::string bytes = rowBinary(generateSpans(0, 2000, 5, encoding));
        options.insert_bytes = bytes;
        session.execute("INSERT INTO " + std::string(name) + " FORMAT RowBinary", options);
        std::ostringstream out;
        writeBlock(session.execute("SELECT * FROM " + std::string(name)).block,
                   OutputFormat::kRowBinary, out);
        EXPECT_EQ(out.str(), bytes) << name;
    }
    EXPECT_EQ(tsv(session,
                  "SELECT SpanAttributes['msg.id'], ResourceAttributes['k8s.pod.name'], "
                  "Duration FROM maps"),
              tsv(session,
                  "SELECT SpanAttributes.msg.id, ResourceAttributes.k8s.pod.name, "
                  "Duration FROM objects"));
    // Span 0: position 0 of its trace, message 1 of the batch starting at 0; integers Int64.
    EXPECT_EQ(tsv(session, "SELECT SpanAttributes FROM objects LIMIT 1"),
              "{\"index\":0,\"msg\":{\"id\":1,\"len\":1000,\"start\":0}}\n");
    EXPECT_EQ(otelTracesSchema(AttributeEncoding::kJson)
                  .columns[*otelTracesSchema().indexOf("Events.Attributes")]
                  .type,
              DataType::array(DataType::json()));
}

TEST(OtelSpans, TheCollectorsDdlTakesTheRowsAndGivesThemBack)
{
    Session session(Database::openInMemory());
    session.execute(unsortedCreate(AttributeEncoding::kMap, "otel_traces"));
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
