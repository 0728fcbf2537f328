// Partial states out and in: groups exported by several GroupBys (finishPartial), imported
// in pieces (bucket subsets, several importers, with and without rows of their own) give
// exactly the single-process result; NULL keys, masks and every function's state included.
// A wrong, truncated or corrupted state is refused by name before any of its batch merges.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "tests/aggregation/test_table.h"
#include "tests/embedding/embedding_test_support.h"

namespace granary
{
namespace
{

const std::vector<Aggregate> kAggregates = {{"count", {}, "rows"},
                                            {"count", {"v_i64"}, "count"},
                                            {"sum", {"v_i64"}, "sum"},
                                            {"avg", {"v_u32"}, "avg"},
                                            {"min", {"v_str"}, "min"},
                                            {"max", {"v_f64"}, "max"},
                                            {"uniqExact", {"v_u32"}, "distinct"},
                                            {"uniqExact", {"v_str"}, "distinct_strings"},
                                            {"sum", {"v_i64"}, "filtered", "v_i8"},
                                            // Functions whose merges do not depend on order.
                                            {"quantileExact", {"v_u32"}, "median", "", {0.5}},
                                            {"uniq", {"v_str"}, "approximate_distinct"},
                                            {"uniqCombined", {"v_u32"}, "combined"},
                                            {"groupBitXor", {"v_i64"}, "xor"},
                                            {"sumDistinct", {"v_u32"}, "sum_distinct"}};

/// The test table with NULLs: the key k_u32 and the value v_i64 NULL on some rows.
Block nullableTable(size_t rows)
{
    Block block = testing::makeTestTable(
        rows, [](size_t row) { return (row * 2654435761u) % 5'000; }, 11);
    for (Block::Entry& entry : block.columns)
    {
        for (size_t row = 0; row < rows; ++row)
        {
            if ((entry.name == "k_u32" && row % 17 == 0) || (entry.name == "v_i64" && row % 5 == 0))
            {
                entry.column.setNull(row);
            }
        }
    }
    // The filter takes rows whose v_i8 is non-zero: make it a 0/1 column.
    for (Block::Entry& entry : block.columns)
    {
        if (entry.name == "v_i8")
        {
            entry.column = Column(TypeId::UInt8);
            for (size_t row = 0; row < rows; ++row)
            {
                entry.column.append<uint8_t>(row % 3 == 0 ? 0 : 1);
            }
        }
    }
    return block;
}

GroupBySettings partialSettings()
{
    GroupBySettings settings;
    settings.threads = 2;
    settings.partial_states = true;
    settings.result_batch_rows = 1000;
    return settings;
}

/// Rows [begin, end) of `block` as a Block.
Block rowsOf(const Block& block, size_t begin, size_t end)
{
    Block part;
    for (const Block::Entry& entry : block.columns)
    {
        Column column(entry.column.type());
        column.appendRange(entry.column.view(), begin, end - begin);
        part.columns.push_back({entry.name, std::move(column)});
    }
    return part;
}

/// One line per row, NULLs as such and floats rounded (sums add in another order), sorted.
std::vector<std::string> rendered(const Block& block)
{
    std::vector<std::string> rows(block.rows());
    for (const Block::Entry& entry : block.columns)
    {
        const ColumnView view = entry.column.view();
        for (size_t row = 0; row < block.rows(); ++row)
        {
            std::string cell;
            if (!view.isValid(row))
            {
                cell = "NULL";
            }
            else if (isString(view.type))
            {
                cell = std::string(view.stringAt(row));
            }
            else if (view.type == TypeId::Float64)
            {
                char text[32];
                std::snprintf(text, sizeof(text), "%.9g", view.valueAt<double>(row));
                cell = text;
            }
            else
            {
                uint64_t bits = 0;
                std::memcpy(&bits,
                            static_cast<const char*>(view.data) + row * fixedWidth(view.type),
                            fixedWidth(view.type));
                cell = std::to_string(bits);
            }
            rows[row] += cell + "|";
        }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

/// The partial states of `rows` aggregated by one GroupBy, as one Block.
Block exportStates(const Block& rows, const std::vector<std::string>& keys)
{
    GroupBy exporter(testing::fieldsOf(rows, true), keys, kAggregates, partialSettings());
    testing::sinkFromHosts(exporter, rows, 2, 3000);
    ResultStream states = exporter.finishPartial();
    EXPECT_EQ(states.schema().back().name, kPartialStateBucketColumn);
    return testing::collect(states);
}

/// The rows of `states` whose bucket is b with b % importers == importer.
Block bucketSubset(const Block& states, size_t importer, size_t importers)
{
    const Column& buckets = states.columns.back().column;
    Block subset;
    for (const Block::Entry& entry : states.columns)
    {
        subset.columns.push_back({entry.name, Column(entry.column.type())});
    }
    for (size_t row = 0; row < states.rows(); ++row)
    {
        if (buckets.valueAt<uint8_t>(row) % importers == importer)
        {
            for (size_t c = 0; c < states.columns.size(); ++c)
            {
                subset.columns[c].column.appendRange(states.columns[c].column.view(), row, 1);
            }
        }
    }
    return subset;
}

void importStates(GroupBy& importer, const Block& states)
{
    LocalSink sink = importer.makePartialStateSink();
    for (size_t begin = 0; begin < states.rows(); begin += 700)
    {
        const size_t count = std::min<size_t>(700, states.rows() - begin);
        sink.sink(testing::sliceOf(states, begin, count), count);
    }
    importer.combine(std::move(sink));
}

void expectRoundTripsInPieces(const std::vector<std::string>& keys)
{
    const Block table = nullableTable(60'000);
    const auto fields = testing::fieldsOf(table, true);
    GroupBy single(fields, keys, kAggregates);
    testing::sinkFromHosts(single, table, 3, 2000);
    ResultStream single_stream = single.finish();
    const std::vector<std::string> expected = rendered(testing::collect(single_stream));

    const Block first = exportStates(rowsOf(table, 0, 20'000), keys);
    const Block second = exportStates(rowsOf(table, 20'000, 40'000), keys);
    const Block third_rows = rowsOf(table, 40'000, 60'000);

    // One importer with rows of its own and every state.
    GroupBy mixed(fields, keys, kAggregates, partialSettings());
    testing::sinkFromHosts(mixed, third_rows, 2, 1500);
    importStates(mixed, first);
    importStates(mixed, second);
    ResultStream mixed_stream = mixed.finish();
    EXPECT_EQ(rendered(testing::collect(mixed_stream)), expected);

    // Three importers, each the buckets b with b % 3 == its number, of all three exports.
    const Block third = exportStates(third_rows, keys);
    std::vector<std::string> union_of_importers;
    for (size_t importer = 0; importer < 3; ++importer)
    {
        GroupBy part(fields, keys, kAggregates, partialSettings());
        for (const Block* states : {&first, &second, &third})
        {
            importStates(part, bucketSubset(*states, importer, 3));
        }
        ResultStream stream = part.finish();
        for (std::string& row : rendered(testing::collect(stream)))
        {
            union_of_importers.push_back(std::move(row));
        }
    }
    std::sort(union_of_importers.begin(), union_of_importers.end());
    EXPECT_EQ(union_of_importers, expected);
}

TEST(PartialStates, ExportedAndImportedInPiecesEqualOneProcess)
{
    expectRoundTripsInPieces({"k_u32"});
    expectRoundTripsInPieces({"k_str", "k_u16"});
}

TEST(PartialStates, WithoutKeysAndWithCountAlone)
{
    const Block table = nullableTable(10'000);
    const auto fields = testing::fieldsOf(table, true);
    for (const std::vector<Aggregate>& aggregates :
         {std::vector<Aggregate>{{"count", {}, "c"}}, kAggregates})
    {
        GroupBy single(fields, {}, aggregates);
        testing::sinkFromHosts(single, table, 1, 4000);
        ResultStream single_stream = single.finish();
        GroupBy exporter(fields, {}, aggregates, partialSettings());
        testing::sinkFromHosts(exporter, rowsOf(table, 0, 4'000), 1, 4000);
        ResultStream states_stream = exporter.finishPartial();
        const Block states = testing::collect(states_stream);
        GroupBy importer(fields, {}, aggregates, partialSettings());
        testing::sinkFromHosts(importer, rowsOf(table, 4'000, 10'000), 2, 1000);
        importStates(importer, states);
        ResultStream merged = importer.finish();
        EXPECT_EQ(rendered(testing::collect(merged)), rendered(testing::collect(single_stream)));
    }
}

TEST(PartialStates, CorruptedStatesAreRefusedByNameAndMergeNothing)
{
    const Block table = nullableTable(3'000);
    const auto fields = testing::fieldsOf(table, true);
    const Block states = exportStates(table, {"k_u32"});
    // The sum state (8 bytes) truncated, and an extra byte on a distinct set.
    for (const char* column : {"sum", "distinct_strings"})
    {
        Block bad = rowsOf(states, 0, states.rows());
        for (Block::Entry& entry : bad.columns)
        {
            if (entry.name != column)
            {
                continue;
            }
            Column damaged(TypeId::String);
            for (size_t row = 0; row < states.rows(); ++row)
            {
                std::string bytes(entry.column.stringAt(row));
                if (row == 5)
                {
                    bytes = entry.name == "sum" ? bytes.substr(0, 3) : bytes + "x";
                }
                damaged.appendString(bytes);
            }
            entry.column = std::move(damaged);
        }
        GroupBy importer(fields, {"k_u32"}, kAggregates, partialSettings());
        LocalSink sink = importer.makePartialStateSink();
        try
        {
            sink.sink(testing::sliceOf(bad, 0, bad.rows()), bad.rows());
            FAIL() << "a corrupted " << column << " state was merged";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kIncorrectData);
            EXPECT_NE(std::string(error.what()).find(std::string("'") + column + "', row 5"),
                      std::string::npos)
                << error.what();
        }
        importer.combine(std::move(sink));
        ResultStream nothing = importer.finish();
        EXPECT_EQ(nothing.rows(), 0u);
    }
}

/// Arrow's metadata encoding of one pair (int32 count, then int32 length and bytes of each).
std::string metadataOf(const std::string& key, const std::string& value)
{
    std::string encoded;
    auto append = [&](int32_t number)
    { encoded.append(reinterpret_cast<const char*>(&number), 4); };
    append(1);
    append(static_cast<int32_t>(key.size()));
    encoded += key;
    append(static_cast<int32_t>(value.size()));
    encoded += value;
    return encoded;
}

TEST(PartialStates, TravelAsAnArrowStreamWithTheirVersion)
{
    const Block table = nullableTable(20'000);
    const auto fields = testing::fieldsOf(table, true);
    GroupBy single(fields, {"k_u32"}, kAggregates);
    testing::sinkFromHosts(single, table, 2, 3000);
    ResultStream single_stream = single.finish();

    GroupBy exporter(fields, {"k_u32"}, kAggregates, partialSettings());
    testing::sinkFromHosts(exporter, rowsOf(table, 0, 12'000), 2, 3000);
    ArrowArrayStream stream;
    exporter.finishPartial().exportTo(&stream);
    ArrowSchema schema;
    ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
    // One pair, whose key (after the pair count and the key's length) is the version's.
    constexpr std::string_view kVersionKey = "granary.state.version";
    EXPECT_EQ(std::string_view(schema.metadata + 8, kVersionKey.size()), kVersionKey);
    EXPECT_EQ(std::string(schema.children[1]->format), "Z");  // states are large binary

    GroupBy importer(fields, {"k_u32"}, kAggregates, partialSettings());
    testing::sinkFromHosts(importer, rowsOf(table, 12'000, 20'000), 1, 3000);
    LocalSink states = importer.makePartialStateSink();
    // The first batch through sinkArrow with a schema of another version, then the rest.
    ArrowArray first;
    ASSERT_EQ(stream.get_next(&stream, &first), 0);
    const std::string other_version = metadataOf("granary.state.version", "999");
    const char* own_metadata = schema.metadata;
    schema.metadata = other_version.c_str();
    try
    {
        states.sinkArrow(first, schema);
        FAIL() << "states of version 999 were read";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kIncorrectData);
        EXPECT_NE(std::string(error.what()).find("999"), std::string::npos) << error.what();
    }
    schema.metadata = own_metadata;
    states.sinkArrow(first, schema);
    first.release(&first);
    states.sinkArrowStream(stream);
    schema.release(&schema);
    stream.release(&stream);
    importer.combine(std::move(states));
    ResultStream merged = importer.finish();
    EXPECT_EQ(rendered(testing::collect(merged)), rendered(testing::collect(single_stream)));
}

TEST(PartialStates, StatesCombinedFirstMergeWithRowsRoutedByLargeTables)
{
    // Past 100,000 groups a local's table turns two-level and routes further rows to the
    // merge's buckets, which aggregate them with the plan of rows, whichever local is first.
    const Block table = testing::makeTestTable(
        400'000, [](size_t row) { return row % 250'000; }, 21);
    const auto fields = testing::fieldsOf(table);
    const std::vector<Aggregate> aggregates = {
        {"count", {}, "c"}, {"sum", {"v_i64"}, "s"}, {"uniqExact", {"v_u32"}, "u"}};
    GroupBy single(fields, {"k_u64"}, aggregates);
    testing::sinkFromHosts(single, table, 2, 20'000);
    ResultStream single_stream = single.finish();

    GroupBy exporter(fields, {"k_u64"}, aggregates, partialSettings());
    testing::sinkFromHosts(exporter, rowsOf(table, 0, 100'000), 1, 20'000);
    ResultStream exported = exporter.finishPartial();
    const Block states = testing::collect(exported);

    GroupBy importer(fields, {"k_u64"}, aggregates, partialSettings());
    importStates(importer, states);  // combined before any sink of rows
    testing::sinkFromHosts(importer, rowsOf(table, 100'000, 400'000), 2, 20'000);
    ResultStream merged = importer.finish();
    EXPECT_EQ(rendered(testing::collect(merged)), rendered(testing::collect(single_stream)));
}

TEST(PartialStates, StateCombinatorResultsAreTheExportedStates)
{
    // fState(x) as an aggregate gives, per group, the bytes finishPartial() writes for f(x)
    // (over NOT NULL columns: a nullable argument's partial state carries its mask's flag,
    // while fState is f's own state, as an AggregateFunction(f, T) column holds it).
    const Block table = testing::makeTestTable(
        20'000, [](size_t row) { return (row * 2654435761u) % 5'000; }, 11);
    const auto fields = testing::fieldsOf(table);
    const std::vector<Aggregate> plain = {{"sum", {"v_i64"}, "s"},
                                          {"quantileExact", {"v_u32"}, "q", "", {0.5}},
                                          {"topK", {"v_str"}, "t", "", {3}}};
    std::vector<Aggregate> states;
    for (const Aggregate& aggregate : plain)
    {
        Aggregate state = aggregate;
        state.function += "State";
        states.push_back(state);
    }
    GroupBySettings settings = partialSettings();
    settings.threads = 1;
    GroupBy exporter(fields, {"k_u16"}, plain, settings);
    testing::sinkFromHosts(exporter, table, 1, 20'000);
    ResultStream exported_stream = exporter.finishPartial();
    const Block exported = testing::collect(exported_stream);
    GroupBy with_states(fields, {"k_u16"}, states, settings);
    testing::sinkFromHosts(with_states, table, 1, 20'000);
    ResultStream state_stream = with_states.finish();
    const Block results = testing::collect(state_stream);
    ASSERT_EQ(results.rows(), exported.rows());
    std::map<uint16_t, std::vector<std::string>> by_key;
    for (size_t row = 0; row < exported.rows(); ++row)
    {
        for (size_t a = 0; a < plain.size(); ++a)
        {
            by_key[exported.columns[0].column.valueAt<uint16_t>(row)].emplace_back(
                exported.columns[1 + a].column.stringAt(row));
        }
    }
    for (size_t row = 0; row < results.rows(); ++row)
    {
        const auto& expected = by_key.at(results.columns[0].column.valueAt<uint16_t>(row));
        for (size_t a = 0; a < plain.size(); ++a)
        {
            EXPECT_EQ(results.columns[1 + a].column.stringAt(row), expected[a])
                << plain[a].function << " of row " << row;
        }
    }
}

TEST(PartialStates, NeedTheSetting)
{
    const Block table = nullableTable(100);
    GroupBy plain(testing::fieldsOf(table, true), {"k_u32"}, kAggregates);
    EXPECT_THROW(plain.makePartialStateSink(), Exception);
    EXPECT_THROW(plain.finishPartial(), Exception);
}

}  // namespace
}  // namespace granary
