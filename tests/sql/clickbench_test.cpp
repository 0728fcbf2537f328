#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/parser.h"
#include "engine/sql/rewrites.h"
#include "engine/sql/select_references.h"
#include "tests/sql/clickbench_files.h"
#include "tests/sql/expression_dump.h"

namespace granary::sql
{
namespace
{

constexpr size_t kClickBenchQueryCount = 43;
constexpr size_t kHitsColumnCount = 105;

/// True when one of the SELECT's aggregates has a key starting with `key_prefix`.
bool hasAggregate(const SelectStatement& select, std::string_view key_prefix)
{
    const std::vector<AggregateCall> calls = collectAggregates(select);
    return std::any_of(calls.begin(), calls.end(),
                       [&](const AggregateCall& call)
                       { return call.key.rfind(key_prefix, 0) == 0; });
}

/// Parses the 43 queries once for all tests; numbered as ClickBench numbers them, from 1.
class ClickBenchQueries : public testing::Test
{
protected:
    void SetUp() override
    {
        const std::optional<std::vector<std::string>> queries = readClickBenchQueries();
        if (!queries)
        {
            GTEST_SKIP() << "ClickBench queries not found (set GRANARY_CLICKBENCH_DIR)";
        }
        ASSERT_EQ(queries->size(), kClickBenchQueryCount);
        texts_ = *queries;
        for (const std::string& text : texts_)
        {
            selects_.push_back(parseSelect(text));
        }
    }

    const SelectStatement& query(size_t number) const { return selects_.at(number - 1); }

    size_t countQueries(bool (*has_feature)(const SelectStatement&)) const
    {
        return std::count_if(selects_.begin(), selects_.end(), has_feature);
    }

    std::vector<std::string> texts_;
    std::vector<SelectStatement> selects_;
};

TEST_F(ClickBenchQueries, AllParseAsSelectsFromHits)
{
    for (size_t number = 1; number <= kClickBenchQueryCount; ++number)
    {
        EXPECT_EQ(query(number).from, "hits") << "Q" << number;
    }
}

TEST_F(ClickBenchQueries, FormattedTextParsesBackToTheSameTree)
{
    for (size_t number = 1; number <= kClickBenchQueryCount; ++number)
    {
        const std::string formatted = formatStatement(query(number));
        const SelectStatement reparsed = parseSelect(formatted);
        EXPECT_TRUE(reparsed == query(number)) << "Q" << number << ": " << formatted;
        EXPECT_EQ(formatStatement(reparsed), formatted) << "Q" << number;
    }
    EXPECT_EQ(formatStatement(query(8)),
              "SELECT AdvEngineID, COUNT(*) FROM hits WHERE AdvEngineID <> 0 GROUP BY "
              "AdvEngineID ORDER BY COUNT(*) DESC");
}

TEST_F(ClickBenchQueries, FeatureCountsMatchFeaturesMd)
{
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return s.limit.has_value(); }), 32u);
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return !s.group_by.empty(); }), 29u);
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return s.having != nullptr; }), 2u);
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return s.offset != 0; }), 5u);
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return hasAggregate(s, "count(*)"); }),
              29u);
    EXPECT_EQ(
        countQueries([](const SelectStatement& s) { return hasAggregate(s, "count(DISTINCT "); }),
        8u);
    EXPECT_EQ(countQueries([](const SelectStatement& s) { return collectAggregates(s).empty(); }),
              5u);
}

TEST_F(ClickBenchQueries, Q19GroupsByTheExtractAlias)
{
    const SelectStatement& q19 = query(19);
    EXPECT_EQ(dump(*q19.items[1].expression), "(EXTRACT MINUTE EventTime)");
    EXPECT_EQ(q19.items[1].alias, "m");
    ASSERT_EQ(q19.group_by.size(), 3u);
    EXPECT_EQ(referencedSelectItem(q19, *q19.group_by[1]), &q19.items[1]);
}

TEST_F(ClickBenchQueries, Q20ComparesWithABigIntLiteral)
{
    EXPECT_EQ(dump(*query(20).where), "(= UserID 435090932899640449:UInt64)");
}

TEST_F(ClickBenchQueries, Q23FiltersWithLikeAndNotLike)
{
    EXPECT_EQ(dump(*query(23).where),
              "(AND (AND (LIKE Title '%Google%') (NOT LIKE URL '%.google.%')) "
              "(<> SearchPhrase ''))");
}

TEST_F(ClickBenchQueries, Q24SelectsStar)
{
    const SelectStatement& q24 = query(24);
    ASSERT_EQ(q24.items.size(), 1u);
    EXPECT_TRUE(q24.items[0].expression->as<Asterisk>());
    EXPECT_EQ(dump(*q24.order_by[0].expression), "EventTime");
    EXPECT_EQ(q24.limit, 10u);
}

TEST_F(ClickBenchQueries, Q29KeepsTheRegexForRe2AndGroupsByAlias)
{
    const SelectStatement& q29 = query(29);
    const auto* replace = q29.items[0].expression->as<FunctionCall>();
    ASSERT_TRUE(replace);
    EXPECT_EQ(replace->name, "REGEXP_REPLACE");
    ASSERT_EQ(replace->arguments.size(), 3u);
    EXPECT_EQ(std::get<std::string>(replace->arguments[1]->as<Literal>()->value),
              R"(^https?://(?:www\.)?([^/]+)/.*$)");
    EXPECT_EQ(std::get<std::string>(replace->arguments[2]->as<Literal>()->value), R"(\1)");
    EXPECT_EQ(referencedSelectItem(q29, *q29.group_by[0]), &q29.items[0]);
    EXPECT_EQ(dump(*q29.having), "(> (COUNT *) 100000:UInt64)");
    EXPECT_EQ(q29.limit, 25u);
}

TEST_F(ClickBenchQueries, Q30NinetySumsBecomeOneSumAndOneCount)
{
    const SelectStatement& q30 = query(30);
    ASSERT_EQ(q30.items.size(), 90u);
    EXPECT_EQ(countDistinctAggregates(q30, "sum"), 90u);

    const SelectStatement rewritten = rewriteSumOfColumnAndConstant(q30);
    const std::vector<AggregateCall> aggregates = collectAggregates(rewritten);
    ASSERT_EQ(aggregates.size(), 2u);
    EXPECT_EQ(aggregates[0].key, "sum(ResolutionWidth)");
    EXPECT_EQ(aggregates[1].key, "count(ResolutionWidth)");
    EXPECT_EQ(countDistinctAggregates(rewritten, "sum"), 1u);
    EXPECT_EQ(dump(*rewritten.items[89].expression),
              "(+ (SUM ResolutionWidth) (* 89:UInt64 (count ResolutionWidth)))");
    EXPECT_EQ(rewritten.items[89].alias, "SUM(ResolutionWidth + 89)");
    EXPECT_FALSE(rewritten.items[0].alias);
}

TEST_F(ClickBenchQueries, Q35GroupsByOrdinalOne)
{
    const SelectStatement& q35 = query(35);
    EXPECT_EQ(dump(*q35.items[0].expression), "1:UInt64");
    EXPECT_EQ(dump(*q35.group_by[0]), "1:UInt64");
    EXPECT_EQ(referencedSelectItem(q35, *q35.group_by[0]), &q35.items[0]);
    EXPECT_EQ(referencedSelectItem(q35, *q35.group_by[1]), nullptr);
}

TEST_F(ClickBenchQueries, Q36GroupsByArithmetic)
{
    EXPECT_EQ(dump(*query(36).group_by[3]), "(- ClientIP 3:UInt64)");
}

TEST_F(ClickBenchQueries, Q39ToQ43HaveTheirOffsets)
{
    const std::vector<uint64_t> offsets = {1000, 1000, 100, 10000, 1000};
    for (size_t i = 0; i < offsets.size(); ++i)
    {
        EXPECT_EQ(query(39 + i).offset, offsets[i]) << "Q" << 39 + i;
        EXPECT_EQ(query(39 + i).limit, 10u) << "Q" << 39 + i;
    }
}

TEST_F(ClickBenchQueries, Q40GroupsByACaseAlias)
{
    const SelectStatement& q40 = query(40);
    EXPECT_EQ(q40.items[3].alias, "Src");
    EXPECT_EQ(dump(*q40.items[3].expression),
              "(CASE (WHEN (AND (= SearchEngineID 0:UInt64) (= AdvEngineID 0:UInt64)) Referer) "
              "(ELSE ''))");
    EXPECT_EQ(dump(*q40.group_by[3]), "Src");
    EXPECT_EQ(referencedSelectItem(q40, *q40.group_by[3]), &q40.items[3]);
    EXPECT_EQ(referencedSelectItem(q40, *q40.group_by[4]), &q40.items[4]);
}

TEST_F(ClickBenchQueries, Q41FiltersWithNegativeInListAndBigIntHash)
{
    const std::string where = dump(*query(41).where);
    EXPECT_NE(where.find("(IN TraficSourceID -1:Int64 6:UInt64)"), std::string::npos) << where;
    EXPECT_NE(where.find("(= RefererHash 3594120000172545465:UInt64)"), std::string::npos) << where;
}

TEST_F(ClickBenchQueries, Q43OrdersByDateTrunc)
{
    const SelectStatement& q43 = query(43);
    const std::string date_trunc = "(DATE_TRUNC 'minute' EventTime)";
    EXPECT_EQ(dump(*q43.items[0].expression), date_trunc);
    EXPECT_EQ(dump(*q43.group_by[0]), date_trunc);
    ASSERT_EQ(q43.order_by.size(), 1u);
    EXPECT_EQ(dump(*q43.order_by[0].expression), date_trunc);
    EXPECT_FALSE(q43.order_by[0].descending);
    EXPECT_TRUE(*q43.order_by[0].expression == *q43.items[0].expression);
}

TEST(ClickBenchSchema, CreateTableParsesTo105TypedColumns)
{
    const std::optional<std::string> text = readClickBenchFile("clickhouse-create.sql");
    if (!text)
    {
        GTEST_SKIP() << "ClickBench schema not found (set GRANARY_CLICKBENCH_DIR)";
    }
    const std::vector<Statement> statements = parseScript(*text);
    ASSERT_EQ(statements.size(), 1u);
    const auto& create = std::get<CreateTableStatement>(statements[0]);
    EXPECT_EQ(create.table, "hits");
    EXPECT_TRUE(create.or_replace);
    ASSERT_EQ(create.columns.size(), kHitsColumnCount);
    EXPECT_TRUE(std::all_of(create.columns.begin(), create.columns.end(),
                            [](const ColumnDefinition& column) { return column.not_null; }));

    const std::vector<std::pair<std::string, TypeId>> spot_checks = {
        {"WatchID", TypeId::Int64},
        {"JavaEnable", TypeId::Int16},
        {"Title", TypeId::String},
        {"EventTime", TypeId::DateTime},
        {"EventDate", TypeId::Date},
        {"CounterID", TypeId::Int32},
        {"UserAgentMinor", TypeId::String},
        {"HitColor", TypeId::String},
        {"ResolutionWidth", TypeId::Int16},
        {"URLHash", TypeId::Int64},
        {"CLID", TypeId::Int32},
    };
    for (const auto& [name, type] : spot_checks)
    {
        const auto column = std::find_if(create.columns.begin(), create.columns.end(),
                                         [&](const ColumnDefinition& definition)
                                         { return definition.name == name; });
        ASSERT_NE(column, create.columns.end()) << name;
        EXPECT_EQ(column->type, type) << name;
    }
    EXPECT_EQ(create.columns.front().name, "WatchID");
    EXPECT_EQ(create.columns.back().name, "CLID");

    std::vector<std::string> key_columns;
    for (const ExpressionPtr& key : create.primary_key)
    {
        key_columns.push_back(key->as<ColumnRef>()->name);
    }
    EXPECT_EQ(key_columns, (std::vector<std::string>{"CounterID", "EventDate", "UserID",
                                                     "EventTime", "WatchID"}));
    EXPECT_EQ(create.engine, "MergeTree");
    ASSERT_EQ(create.settings.size(), 2u);
    EXPECT_EQ(create.settings[0].name, "fsync_after_insert");
    EXPECT_EQ(create.settings[0].value, LiteralValue(uint64_t{1}));
    EXPECT_EQ(create.settings[1].name, "auto_statistics_types");
    EXPECT_EQ(create.settings[1].value, LiteralValue(std::string()));

    const Statement reparsed = parseStatement(formatStatement(statements[0]));
    EXPECT_TRUE(reparsed == statements[0]);
}

}  // namespace
}  // namespace granary::sql
