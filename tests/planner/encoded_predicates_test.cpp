// Filters over compressed parts against decoded evaluation: random predicates on a String
// column whose granules are dictionary-coded, plain or constant (a filter of that column alone
// runs on the codes where a whole morsel is coded, on values elsewhere), alone and with other
// columns, through the decoded-chunk cache (cold, then hot) and without it; the naive
// evaluator, over the same rows as values, is the oracle.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/storage/database.h"
#include "tests/planner/query_check.h"
#include "tests/planner/table_conversion.h"
#include "tests/planner/test_tables.h"
#include "tests/support/temporary_folder.h"

namespace granary::oracle
{
namespace
{

constexpr std::string_view kCreate =
    "CREATE TABLE e (k BIGINT, s TEXT, t TEXT, n INTEGER) ORDER BY (k)";
/// Chunk 0 coded throughout, then 12 granules of random shapes.
constexpr size_t kGranules = Part::kChunkGranules + 12;
constexpr size_t kRows = kGranules * Part::kGranuleRows + 1000;

/// The words of the low-cardinality granules (the empty string among them).
std::vector<std::string> vocabulary()
{
    std::vector<std::string> words = {""};
    for (int i = 0; i < 40; ++i)
    {
        words.push_back((i % 3 == 0 ? "Go" : "wo") + std::to_string(i * 7) + (i % 2 ? "rd" : ""));
    }
    return words;
}

/// How the rows of one granule of `s` are drawn, so that its block is coded, plain or
/// constant.
enum class Shape
{
    kCoded,     ///< from the vocabulary
    kPlain,     ///< all distinct: more than half new strings, never coded
    kConstant,  ///< one word
};

RowTable encodedRows(std::mt19937_64& random)
{
    const std::vector<std::string> words = vocabulary();
    RowTable table = emptyTableFor(kCreate);
    Shape shape = Shape::kCoded;
    std::string constant;
    for (size_t row = 0; row < kRows; ++row)
    {
        if (row % Part::kGranuleRows == 0 && row / Part::kGranuleRows >= Part::kChunkGranules)
        {
            const uint64_t draw = random() % 8;
            shape = draw < 5 ? Shape::kCoded : draw < 7 ? Shape::kPlain : Shape::kConstant;
            constant = words[random() % words.size()];
        }
        std::string s;
        switch (shape)
        {
            case Shape::kCoded:
                s = words[random() % words.size()];
                break;
            case Shape::kPlain:
                s = "u" + std::to_string(random() % 1000000) + "Go";
                break;
            case Shape::kConstant:
                s = constant;
                break;
        }
        table.rows.push_back({Value{int64_t(row)}, Value{s}, Value{words[random() % 5]},
                              Value{int64_t(random() % 2001) - 1000}});
    }
    return table;
}

/// A random condition: on `s` alone (most), or with `t` or `n` beside it.
std::string randomCondition(std::mt19937_64& random)
{
    const std::vector<std::string> words = vocabulary();
    const auto word = [&]
    {
        const uint64_t draw = random() % 10;
        return "'" + (draw == 0 ? std::string("absent") : words[random() % words.size()]) + "'";
    };
    const std::string letters = "Gwo0137dr";
    const auto fragment = [&] { return std::string(1, letters[random() % letters.size()]); };
    const std::vector<std::string> on_s = {
        "s = " + word(),
        "s <> " + word(),
        "s <> ''",
        "s = ''",
        "s IN (" + word() + ", " + word() + ", 'nope')",
        "s NOT IN (" + word() + ", " + word() + ")",
        "s LIKE '%" + fragment() + "%'",
        "s NOT LIKE 'w" + fragment() + "%'",
        "s ILIKE '%" + fragment() + "%'",
        "length(s) > " + std::to_string(random() % 8),
        "s < " + word(),
        "s >= " + word(),
        "s = " + word() + " OR s LIKE '%" + fragment() + "%'",
        "NOT (s = " + word() + ")",
    };
    std::string condition = on_s[random() % on_s.size()];
    switch (random() % 5)
    {
        case 0:
            return "(" + condition + ") AND n > " + std::to_string(int(random() % 2001) - 1000);
        case 1:
            return "(" + condition + ") AND t <> " + word();
        default:
            return condition;
    }
}

TEST(EncodedPredicates, RandomFiltersOnCodedPlainAndConstantGranulesEqualDecodedEvaluation)
{
    std::mt19937_64 random(20261207);
    const testing::TemporaryFolder folder;
    const RowTable table = encodedRows(random);
    Session session(Session::openDatabase(folder.path() / "data"));
    createAndFill(session, kCreate, table);

    // The part holds chunks whose granules are all coded (filtered by codes) and chunks that
    // are not (filtered as values).
    const auto e = session.database().table("e");
    const size_t s_column = *e->schema().indexOf("s");
    size_t coded_chunks = 0;
    size_t other_chunks = 0;
    for (const auto& part : e->snapshot()->parts)
    {
        for (size_t first = 0; first < part->rows(); first += Part::kChunkRows)
        {
            ColumnReadBuffer codes{DataType(TypeId::UInt32)};
            const bool coded =
                part->readCodes(s_column, first, std::min(Part::kChunkRows, part->rows() - first),
                                codes, nullptr, false)
                    .has_value();
            (coded ? coded_chunks : other_chunks) += 1;
        }
    }
    ASSERT_GT(coded_chunks, 0u);
    ASSERT_GT(other_chunks, 0u);

    QueryOptions without_cache;
    without_cache.settings["use_uncompressed_cache"] = "0";
    for (int trial = 0; trial < 60; ++trial)
    {
        // Grouped by t: min/max of s only over groups that have rows.
        const std::string query =
            "SELECT t, count(*), sum(n), min(s), max(s), sum(length(s)) FROM e WHERE " +
            randomCondition(random) + " GROUP BY t ORDER BY t";
        SCOPED_TRACE(query);
        // Cold (codes decoded and cached), hot (codes and verdicts from the cache), uncached.
        EXPECT_EQ(differenceForQuery(session, table, query), "");
        EXPECT_EQ(differenceForQuery(session, table, query), "");
        EXPECT_EQ(differenceForQuery(session, table, query, without_cache), "");
        // s read only through length(s): where most rows pass, computed for every row and
        // gathered, s itself not gathered.
        const std::string measured =
            "SELECT t, count(*), sum(length(s)), sum(n * 2) FROM e WHERE " +
            randomCondition(random) + " GROUP BY t ORDER BY t";
        SCOPED_TRACE(measured);
        EXPECT_EQ(differenceForQuery(session, table, measured), "");
    }
    for (const std::string condition : {"s <> ''", "s <> '' AND n > -900", "length(s) > 2"})
    {
        const std::string query = "SELECT t, count(*), sum(length(s)), sum(n * 2) FROM e WHERE " +
                                  condition + " GROUP BY t ORDER BY t";
        SCOPED_TRACE(query);
        EXPECT_EQ(differenceForQuery(session, table, query), "");
    }
    // The filter guards an output that fails on the rows it rejects: computed on passing rows
    // only, though nearly all pass.
    EXPECT_EQ(differenceForQuery(session, table,
                                 "SELECT count(*), sum(1000 % n), sum(n % n) FROM e "
                                 "WHERE n <> 0"),
              "");
}

}  // namespace
}  // namespace granary::oracle
