// Granary's GROUP BY against DuckDB's, over the same data: DuckDB makes a table (every key
// kind, NULL rates 0, 10% and 100%, strings, dates, an ENUM that it exports
// dictionary-encoded), exports it as Arrow batches, which Granary aggregates through the
// public API in slices (parent offsets) and with empty batches; Granary's result goes back to
// DuckDB through Arrow and the appender, and DuckDB compares it with its own GROUP BY of the
// table (EXCEPT ALL both ways). Both string offset widths.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/arrow/arrow_format.h"
#include "granary/groupby.h"
#include "programs/clickbench/duckdb_client.h"
#include "tests/interop/duckdb_session.h"
#include "tests/interop/duckdb_vectors.h"

namespace granary
{
namespace
{

using interop::DuckDbArrowApi;
using interop::DuckDbSession;

constexpr const char* kTable = R"(
CREATE TYPE mood AS ENUM ('calm', 'busy', 'late');
CREATE TABLE t AS SELECT
    (i % 7)::UTINYINT AS k_u8,
    (i % 1000)::INTEGER AS k_i32,
    (i * 2654435761 % 5000)::UBIGINT AS k_u64,
    CASE WHEN i % 10 = 0 THEN NULL ELSE (i % 50)::INTEGER END AS k_null10,
    NULL::INTEGER AS k_null100,
    'key ' || (i % 200)::VARCHAR AS k_str,
    CASE WHEN i % 10 = 3 THEN NULL ELSE 's' || (i % 37)::VARCHAR END AS k_str_null,
    (['calm', 'busy', 'late'])[1 + i % 3]::mood AS k_enum,
    DATE '2020-01-01' + (i % 400)::INTEGER AS k_date,
    (i * 7919 % 100000)::BIGINT AS v_i64,
    CASE WHEN i % 10 = 1 THEN NULL ELSE (i % 1000)::DOUBLE / 8 END AS v_f64,
    NULL::INTEGER AS v_null,
    'v' || (i % 91)::VARCHAR AS v_str,
    (i % 4 <> 0)::UTINYINT AS keep
FROM range(0, 30000) r(i))";

/// One aggregate on both sides: Granary's, DuckDB's SQL, and how both are compared (the same
/// expression over the column of either side; floats rounded: sums add in another order).
struct Pair
{
    Aggregate granary;
    std::string duckdb;
    std::string compare = "{}";
};

const std::vector<Pair> kPairs = {
    {{"count", {}, "c"}, "count(*)"},
    {{"count", {"v_f64"}, "c_v"}, "count(v_f64)"},
    {{"sum", {"v_i64"}, "s_i"}, "sum(v_i64)::BIGINT"},
    {{"sum", {"v_f64"}, "s_f"}, "sum(v_f64)", "round({}, 4)"},
    {{"avg", {"v_i64"}, "a_i"}, "avg(v_i64)", "round({}, 6)"},
    {{"min", {"v_str"}, "mn_s"}, "min(v_str)"},
    {{"max", {"v_f64"}, "mx_f"}, "max(v_f64)"},
    {{"uniqExact", {"v_str"}, "u_s"}, "count(DISTINCT v_str)"},
    {{"uniqExact", {"k_u64"}, "u_i"}, "count(DISTINCT k_u64)"},
    {{"sum", {"v_null"}, "s_null"}, "sum(v_null)::BIGINT"},
    {{"count", {"v_null"}, "c_null"}, "count(v_null)"},
    {{"min", {"v_null"}, "mn_null"}, "min(v_null)"},
    {{"sum", {"v_i64"}, "s_kept", "keep"}, "sum(v_i64) FILTER (WHERE keep <> 0)::BIGINT"},
    // An Array result, exported as a large_list and loaded back as BIGINT[].
    {{"quantilesExact", {"v_i64"}, "q_ends", "", {0, 1}}, "[min(v_i64), max(v_i64)]"},
};

std::string compared(const Pair& pair, const std::string& column)
{
    std::string expression = pair.compare;
    expression.replace(expression.find("{}"), 2, column);
    return expression + " AS " + pair.granary.result_name;
}

std::string joined(const std::vector<std::string>& parts)
{
    std::string text;
    for (const std::string& part : parts)
    {
        text += (text.empty() ? "" : ", ") + part;
    }
    return text;
}

/// DuckDB's type for a field Granary exports: that of its format's Granary type, but for
/// date32, whose days Granary reads as Int32 values, and large lists, of their element's type.
std::string duckDbType(const ArrowSchema& field)
{
    const std::string_view format = field.format;
    if (format == "tdD")
    {
        return "DATE";
    }
    if (format == arrow::kLargeListFormat)
    {
        return duckDbType(*field.children[0]) + "[]";
    }
    const std::optional<arrow::ArrowFormat> parsed = arrow::parseArrowFormat(format);
    if (!parsed)
    {
        throw std::runtime_error("no DuckDB type for Arrow format " + std::string(format));
    }
    return std::string(clickbench::duckDbTypeName(parsed->type));
}

class GroupByAgainstDuckDb : public ::testing::Test
{
protected:
    void SetUp() override
    {
        session_.emplace(DuckDbArrowApi::load());
        session_->execute(kTable);
    }

    /// Granary's GROUP BY of table t, its batches sliced in two and preceded by an empty one.
    void aggregateInGranary(const std::vector<std::string>& keys)
    {
        std::optional<GroupBy> group_by;
        std::optional<LocalSink> sinks[2];
        size_t chunk_number = 0;
        std::vector<Aggregate> aggregates;
        for (const Pair& pair : kPairs)
        {
            aggregates.push_back(pair.granary);
        }
        session_->queryArrow(
            "SELECT * FROM t",
            [&](const ArrowSchema& schema)
            {
                GroupBySettings settings;
                settings.threads = 2;
                settings.result_batch_rows = 500;
                group_by.emplace(schema, keys, aggregates, settings);
                sinks[0].emplace(group_by->makeLocalSink());
                sinks[1].emplace(group_by->makeLocalSink());
            },
            [&](const DuckDbSession::Chunk&, const ArrowArray& array)
            {
                LocalSink& sink = *sinks[chunk_number++ % 2];
                const int64_t split = array.length / 3;
                ArrowArray empty = array, head = array, tail = array;
                empty.length = 0;
                head.length = split;
                tail.offset = array.offset + split;
                tail.length = array.length - split;
                sink.sinkArrow(empty);
                sink.sinkArrow(head);
                sink.sinkArrow(tail);
            });
        group_by->combine(std::move(*sinks[0]));
        group_by->combine(std::move(*sinks[1]));
        loadIntoDuckDb(group_by->finish());
    }

    /// Creates table g from the stream's schema and appends its batches.
    void loadIntoDuckDb(ResultStream result)
    {
        ArrowArrayStream stream;
        result.exportTo(&stream);
        ArrowSchema schema;
        ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
        std::vector<std::string> columns;
        for (int64_t c = 0; c < schema.n_children; ++c)
        {
            columns.push_back(std::string("\"") + schema.children[c]->name + "\" " +
                              duckDbType(*schema.children[c]));
        }
        session_->execute("DROP TABLE IF EXISTS g; CREATE TABLE g (" + joined(columns) + ")");
        ArrowArray batch;
        int status = 0;
        while ((status = stream.get_next(&stream, &batch)) == 0 && batch.release != nullptr)
        {
            session_->appendArrow("g", schema, batch);
        }
        // A failed batch ends the stream: the error, not a shorter result, is what to report.
        EXPECT_EQ(status, 0) << stream.get_last_error(&stream);
        schema.release(&schema);
        stream.release(&stream);
    }

    /// Rows in one side and not the other (both ways, duplicates counted).
    std::string differences(const std::vector<std::string>& keys)
    {
        std::vector<std::string> ours(keys), theirs(keys), sql;
        for (const Pair& pair : kPairs)
        {
            ours.push_back(compared(pair, pair.granary.result_name));
            theirs.push_back(compared(pair, pair.duckdb));
        }
        const std::string group_by = keys.empty() ? "" : " GROUP BY " + joined(keys);
        const std::string granary = "SELECT " + joined(ours) + " FROM g";
        const std::string duckdb = "SELECT " + joined(theirs) + " FROM t" + group_by;
        std::string count;
        session_->forEachChunk(
            "SELECT count(*) FROM ((" + granary + " EXCEPT ALL " + duckdb + ") UNION ALL (" +
                duckdb + " EXCEPT ALL " + granary + "))",
            [&](const DuckDbSession::Chunk& chunk)
            { count = interop::renderDuckDbColumn(session_->api(), chunk, 0).at(0); });
        return count;
    }

    void expectSameAsDuckDb(const std::vector<std::string>& keys)
    {
        aggregateInGranary(keys);
        EXPECT_EQ(differences(keys), "0") << "keys: " << joined(keys);
    }

    std::optional<DuckDbSession> session_;
};

const std::vector<std::vector<std::string>> kKeySets = {{"k_u8"},
                                                        {"k_i32"},
                                                        {"k_u64"},
                                                        {"k_null10"},
                                                        {"k_null100"},
                                                        {"k_str"},
                                                        {"k_str_null"},
                                                        {"k_enum"},
                                                        {"k_date"},
                                                        {"k_u8", "k_str_null"},
                                                        {"k_null10", "k_date"},
                                                        {}};

TEST_F(GroupByAgainstDuckDb, EveryKeyKindAndFunctionWithNullsAndSlices)
{
    for (const auto& keys : kKeySets)
    {
        expectSameAsDuckDb(keys);
    }
}

TEST_F(GroupByAgainstDuckDb, LargeStringOffsetsToo)
{
    session_->execute("SET arrow_large_buffer_size = true");
    for (const auto& keys : kKeySets)
    {
        expectSameAsDuckDb(keys);
    }
}

}  // namespace
}  // namespace granary
