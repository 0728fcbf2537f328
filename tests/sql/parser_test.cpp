#include "engine/sql/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/sql/formatter.h"
#include "engine/sql/select_references.h"
#include "engine/sql/syntax_error.h"
#include "tests/sql/expression_dump.h"

namespace granary::sql
{
namespace
{

std::string parsedTree(std::string_view text)
{
    return dump(*parseExpression(text));
}

TEST(SqlParser, OperatorPrecedenceAndAssociativity)
{
    EXPECT_EQ(parsedTree("a + b * c"), "(+ a (* b c))");
    EXPECT_EQ(parsedTree("a - b - c"), "(- (- a b) c)");
    EXPECT_EQ(parsedTree("a / b % c"), "(% (/ a b) c)");
    EXPECT_EQ(parsedTree("(a + b) * c"), "(* (+ a b) c)");
    EXPECT_EQ(parsedTree("a OR b AND c"), "(OR a (AND b c))");
    EXPECT_EQ(parsedTree("NOT a = 1 AND b"), "(AND (NOT (= a 1:UInt64)) b)");
    EXPECT_EQ(parsedTree("a = 1 OR NOT NOT b"), "(OR (= a 1:UInt64) (NOT (NOT b)))");
    EXPECT_EQ(parsedTree("a + 1 >= b * 2"), "(>= (+ a 1:UInt64) (* b 2:UInt64))");
    EXPECT_EQ(parsedTree("a = b = c"), "(= (= a b) c)");
    EXPECT_EQ(parsedTree("a != b"), "(<> a b)");
    EXPECT_EQ(parsedTree("a == b"), "(= a b)");
}

TEST(SqlParser, UnaryMinusFoldsIntoNumbers)
{
    EXPECT_EQ(parsedTree("-1"), "-1:Int64");
    EXPECT_EQ(parsedTree("-0"), "0:UInt64");
    EXPECT_EQ(parsedTree("-9223372036854775808"), "-9223372036854775808:Int64");
    EXPECT_EQ(parsedTree("-9223372036854775809"), "(NEG 9223372036854775809:UInt64)");
    EXPECT_EQ(parsedTree("-1.5"), "-1.5:Float64");
    EXPECT_EQ(parsedTree("-x"), "(NEG x)");
    EXPECT_EQ(parsedTree("-(1)"), "(NEG 1:UInt64)");
    EXPECT_EQ(parsedTree("- -1"), "(NEG -1:Int64)");
    EXPECT_EQ(parsedTree("a - -1"), "(- a -1:Int64)");
    EXPECT_EQ(parsedTree("-a * b"), "(* (NEG a) b)");
    EXPECT_EQ(parsedTree("18446744073709551615"), "18446744073709551615:UInt64");
}

TEST(SqlParser, InLikeCaseExtractAndCalls)
{
    EXPECT_EQ(parsedTree("TraficSourceID IN (-1, 6)"), "(IN TraficSourceID -1:Int64 6:UInt64)");
    EXPECT_EQ(parsedTree("x NOT IN ('a')"), "(NOT IN x 'a')");
    EXPECT_EQ(parsedTree("URL LIKE '%google%'"), "(LIKE URL '%google%')");
    EXPECT_EQ(parsedTree("URL NOT LIKE '%.google.%'"), "(NOT LIKE URL '%.google.%')");
    EXPECT_EQ(parsedTree("t ILIKE 'a%' AND u NOT ILIKE 'b'"),
              "(AND (ILIKE t 'a%') (NOT ILIKE u 'b'))");
    EXPECT_EQ(parsedTree("CASE WHEN (a = 0 AND b = 0) THEN r ELSE '' END"),
              "(CASE (WHEN (AND (= a 0:UInt64) (= b 0:UInt64)) r) (ELSE ''))");
    EXPECT_EQ(parsedTree("case x when 1 then 'one' when 2 then 'two' end"),
              "(CASE x (WHEN 1:UInt64 'one') (WHEN 2:UInt64 'two'))");
    EXPECT_EQ(parsedTree("extract(minute FROM EventTime)"), "(EXTRACT MINUTE EventTime)");
    EXPECT_EQ(parsedTree("EXTRACT(Year from d + 1)"), "(EXTRACT YEAR (+ d 1:UInt64))");
    EXPECT_EQ(parsedTree("extract(s, '[0-9]+')"), "(extract s '[0-9]+')");
    EXPECT_EQ(parsedTree("DATE_TRUNC('minute', EventTime)"), "(DATE_TRUNC 'minute' EventTime)");
    EXPECT_EQ(parsedTree("COUNT(*)"), "(COUNT *)");
    EXPECT_EQ(parsedTree("count(DISTINCT UserID)"), "(count DISTINCT UserID)");
    EXPECT_EQ(parsedTree("now()"), "(now)");
    EXPECT_EQ(parsedTree("`weird name` + \"Select\""), "(+ weird name Select)");
    EXPECT_EQ(parsedTree("`sum`(x)"), "(sum x)");
    EXPECT_EQ(parsedTree("quantile(0.9)(x)"), "(quantile (PARAMETERS 0.9:Float64) x)");
    EXPECT_EQ(parsedTree("topK()(x)"), "(topK (PARAMETERS) x)");
    EXPECT_EQ(parsedTree("count(*) FILTER (WHERE IsMobile = 1)"),
              "(count * (FILTER (= IsMobile 1:UInt64)))");
    // FILTER without '(' is a name (an alias here), not the clause.
    EXPECT_EQ(parsedTree("sum(x) + filter"), "(+ (sum x) filter)");
}

TEST(SqlParser, KeywordsIgnoreCase)
{
    const SelectStatement lower = parseSelect(
        "select a as b from t where x like 'y' "
        "group by a order by b desc limit 5 offset 2");
    const SelectStatement upper = parseSelect(
        "SELECT a AS b FROM t WHERE x LIKE 'y' "
        "GROUP BY a ORDER BY b DESC LIMIT 5 OFFSET 2");
    EXPECT_TRUE(lower == upper);
}

TEST(SqlParser, SelectClauses)
{
    const SelectStatement select = parseSelect(
        "SELECT *, a AS x, b y, 1 FROM hits WHERE a > 0 GROUP BY a, 2 "
        "HAVING count(*) > 1 ORDER BY x DESC, y ASC, a LIMIT 10 OFFSET 20;");
    ASSERT_EQ(select.items.size(), 4u);
    EXPECT_TRUE(select.items[0].expression->as<Asterisk>());
    EXPECT_EQ(select.items[1].alias, "x");
    EXPECT_EQ(select.items[2].alias, "y");
    EXPECT_FALSE(select.items[3].alias);
    EXPECT_EQ(select.from, "hits");
    EXPECT_EQ(dump(*select.where), "(> a 0:UInt64)");
    ASSERT_EQ(select.group_by.size(), 2u);
    EXPECT_EQ(dump(*select.having), "(> (count *) 1:UInt64)");
    ASSERT_EQ(select.order_by.size(), 3u);
    EXPECT_TRUE(select.order_by[0].descending);
    EXPECT_FALSE(select.order_by[1].descending);
    EXPECT_FALSE(select.order_by[2].descending);
    EXPECT_EQ(select.limit, 10u);
    EXPECT_EQ(select.offset, 20u);
}

TEST(SqlParser, LimitForms)
{
    const SelectStatement comma = parseSelect("SELECT a FROM t LIMIT 100, 10");
    EXPECT_EQ(comma.limit, 10u);
    EXPECT_EQ(comma.offset, 100u);
    const SelectStatement offset_only = parseSelect("SELECT a FROM t OFFSET 7");
    EXPECT_FALSE(offset_only.limit);
    EXPECT_EQ(offset_only.offset, 7u);
    const SelectStatement no_from = parseSelect("SELECT 1");
    EXPECT_FALSE(no_from.from);
    EXPECT_FALSE(no_from.limit);
    EXPECT_EQ(no_from.offset, 0u);
}

TEST(SqlParser, SelectReferencesByPositionAndAlias)
{
    const SelectStatement select =
        parseSelect("SELECT 1, URL AS Dst, a + 1 AS a FROM t GROUP BY 1, Dst, a, URL, 2 + 0");
    ASSERT_EQ(select.group_by.size(), 5u);
    EXPECT_EQ(referencedSelectItem(select, *select.group_by[0]), &select.items[0]);
    EXPECT_EQ(referencedSelectItem(select, *select.group_by[1]), &select.items[1]);
    EXPECT_EQ(referencedSelectItem(select, *select.group_by[2]), &select.items[2]);
    EXPECT_EQ(referencedSelectItem(select, *select.group_by[3]), nullptr);
    EXPECT_EQ(referencedSelectItem(select, *select.group_by[4]), nullptr);
    const SelectStatement out_of_range = parseSelect("SELECT a FROM t ORDER BY 2");
    try
    {
        referencedSelectItem(out_of_range, *out_of_range.order_by[0].expression);
        ADD_FAILURE() << "position 2 of 1 accepted";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
    }
}

TEST(SqlParser, CreateTableWithTypesKeysAndStorageClauses)
{
    const Statement statement = parseStatement(
        "create table if not exists t (a UInt8 NOT NULL DEFAULT 1, b VARCHAR(255), c DOUBLE "
        "PRECISION, d char, e DateTime, f tinyint) ENGINE = MergeTree() PRIMARY KEY a "
        "ORDER BY (a, b) SETTINGS index_granularity = 8192, name = 'x', neg = -1");
    const auto* create = std::get_if<CreateTableStatement>(&statement);
    ASSERT_TRUE(create);
    EXPECT_FALSE(create->or_replace);
    EXPECT_TRUE(create->if_not_exists);
    EXPECT_EQ(create->table, "t");
    ASSERT_EQ(create->columns.size(), 6u);
    const std::vector<TypeId> types = {TypeId::UInt8,  TypeId::String,   TypeId::Float64,
                                       TypeId::String, TypeId::DateTime, TypeId::Int8};
    for (size_t i = 0; i < types.size(); ++i)
    {
        EXPECT_EQ(create->columns[i].type, types[i]) << i;
    }
    EXPECT_TRUE(create->columns[0].not_null);
    EXPECT_FALSE(create->columns[1].not_null);
    EXPECT_EQ(dump(*create->columns[0].default_value), "1:UInt64");
    EXPECT_EQ(create->engine, "MergeTree");
    EXPECT_TRUE(create->engine_arguments.empty());
    ASSERT_EQ(create->primary_key.size(), 1u);
    ASSERT_EQ(create->order_by.size(), 2u);
    ASSERT_EQ(create->settings.size(), 3u);
    EXPECT_EQ(create->settings[0].value, LiteralValue(uint64_t{8192}));
    EXPECT_EQ(create->settings[1].value, LiteralValue(std::string("x")));
    EXPECT_EQ(create->settings[2].value, LiteralValue(int64_t{-1}));
}

TEST(SqlParser, CreateTableAsTheOpenTelemetryExporterWritesIt)
{
    const Statement statement = parseStatement(
        "CREATE TABLE IF NOT EXISTS otel_traces (Timestamp DateTime64(9) CODEC(Delta, ZSTD(1)), "
        "TraceId String CODEC(ZSTD(1)), SpanAttributes Map(LowCardinality(String), String), "
        "Events Nested (Timestamp DateTime64(9), Attributes Map(LowCardinality(String), String)) "
        "CODEC(ZSTD(1)), index UInt8, INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) "
        "GRANULARITY 1, INDEX idx_keys mapKeys(SpanAttributes) TYPE bloom_filter(0.01) "
        "GRANULARITY 1) ENGINE = MergeTree PARTITION BY toDate(Timestamp) ORDER BY (TraceId, "
        "toDateTime(Timestamp)) TTL toDateTime(Timestamp) + toIntervalDay(180) SETTINGS "
        "index_granularity = 8192, ttl_only_drop_parts = 1");
    const auto* create = std::get_if<CreateTableStatement>(&statement);
    ASSERT_TRUE(create);
    std::vector<std::string> columns;
    for (const ColumnDefinition& column : create->columns)
    {
        columns.push_back(column.name + " " + dataTypeName(column.type) + " " + column.codec);
    }
    EXPECT_EQ(columns, (std::vector<std::string>{
                           "Timestamp DateTime64(9) Delta, ZSTD(1)",
                           "TraceId String ZSTD(1)",
                           "SpanAttributes Map(LowCardinality(String), String) ",
                           "Events.Timestamp Array(DateTime64(9)) ZSTD(1)",
                           "Events.Attributes Array(Map(LowCardinality(String), String)) ZSTD(1)",
                           "index UInt8 ",
                       }));
    ASSERT_EQ(create->indexes.size(), 2u);
    EXPECT_EQ(create->indexes[1].name, "idx_keys");
    EXPECT_EQ(dump(*create->indexes[1].expression), "(mapKeys SpanAttributes)");
    EXPECT_TRUE(create->partition_by);
    EXPECT_TRUE(create->ttl);
    // The statement formats back to text that parses to the same statement.
    EXPECT_EQ(parseStatement(formatStatement(statement)), statement);
}

TEST(SqlParser, InsertDropShowDescribe)
{
    const std::vector<Statement> statements = parseScript(
        "INSERT INTO hits FROM INFILE '/data/hits.tsv' FORMAT TSV;\n"
        "insert into hits (a, b) format CSVWithNames;\n"
        "INSERT INTO t FROM INFILE 'x.csv';\n"
        "DROP TABLE IF EXISTS hits; drop table t;; SHOW TABLES; DESCRIBE hits;\n"
        "DESC TABLE t; -- done\n");
    ASSERT_EQ(statements.size(), 8u);
    const auto& infile = std::get<InsertStatement>(statements[0]);
    EXPECT_EQ(infile.table, "hits");
    EXPECT_EQ(infile.infile, "/data/hits.tsv");
    EXPECT_EQ(infile.format, "TSV");
    const auto& from_stdin = std::get<InsertStatement>(statements[1]);
    EXPECT_EQ(from_stdin.columns, (std::vector<std::string>{"a", "b"}));
    EXPECT_FALSE(from_stdin.infile);
    EXPECT_EQ(from_stdin.format, "CSVWithNames");
    EXPECT_FALSE(std::get<InsertStatement>(statements[2]).format);
    EXPECT_TRUE(std::get<DropTableStatement>(statements[3]).if_exists);
    EXPECT_FALSE(std::get<DropTableStatement>(statements[4]).if_exists);
    EXPECT_TRUE(std::holds_alternative<ShowTablesStatement>(statements[5]));
    EXPECT_EQ(std::get<DescribeTableStatement>(statements[6]).table, "hits");
    EXPECT_EQ(std::get<DescribeTableStatement>(statements[7]).table, "t");
    EXPECT_EQ(std::get<DropTableStatement>(statements[4]).position.line, 4u);
    EXPECT_EQ(std::get<DropTableStatement>(statements[4]).position.column, 28u);
}

TEST(SqlParser, InsertValuesWithRowsSentApart)
{
    const auto insert = std::get<InsertStatement>(parseStatement("INSERT INTO t (a, b) VALUES"));
    EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(insert.format, "Values");
    EXPECT_FALSE(insert.infile);
}

TEST(SqlParser, InsertValuesWithRowsInTheStatement)
{
    const auto insert = std::get<InsertStatement>(
        parseStatement("INSERT INTO t VALUES (1, 'a'), (-2, 'b') (3 + 4, concat('c', 'd'))"));
    EXPECT_EQ(insert.format, "Values");
    ASSERT_EQ(insert.rows.size(), 3u);
    EXPECT_EQ(dump(*insert.rows[1][0]), "-2:Int64");
    EXPECT_EQ(dump(*insert.rows[2][0]), "(+ 3:UInt64 4:UInt64)");
    EXPECT_THROW(parseStatement("INSERT INTO t VALUES (1, 'a'"), SyntaxError);
}

TEST(SqlParser, DistinctWithUnionAllAndLimitBy)
{
    const std::string text =
        "SELECT DISTINCT a FROM t ORDER BY a LIMIT 2 OFFSET 1 BY b, c LIMIT 5 "
        "UNION ALL SELECT b FROM u LIMIT 3, 4 BY b UNION ALL SELECT 1";
    const SelectStatement select = parseSelect(text);
    EXPECT_TRUE(select.distinct);
    ASSERT_TRUE(select.limit_by);
    EXPECT_EQ(select.limit_by->limit, 2u);
    EXPECT_EQ(select.limit_by->offset, 1u);
    EXPECT_EQ(select.limit_by->keys.size(), 2u);
    EXPECT_EQ(select.limit, 5u);
    ASSERT_EQ(select.union_all.size(), 2u);
    EXPECT_FALSE(select.union_all[0]->distinct);
    EXPECT_EQ(select.union_all[0]->limit_by->limit, 4u);
    EXPECT_EQ(select.union_all[0]->limit_by->offset, 3u);
    EXPECT_FALSE(select.union_all[0]->limit);
    EXPECT_EQ(select.union_all[1]->position.offset, text.rfind("SELECT"));
    EXPECT_THROW(parseSelect("SELECT a FROM t UNION SELECT b FROM u"), SyntaxError);
}

TEST(SqlParser, SubqueriesAndCommonTableExpressions)
{
    const SelectStatement select = parseSelect(
        "WITH s AS (SELECT a FROM t), r AS (SELECT a FROM s) "
        "SELECT x.a, (SELECT max(a) FROM r) FROM (SELECT a FROM s) AS x "
        "WHERE a IN (SELECT a FROM r) AND a NOT IN (1, 2) AND a BETWEEN 1 AND 9");
    ASSERT_EQ(select.with.size(), 2u);
    EXPECT_EQ(select.with[1].name, "r");
    EXPECT_EQ(select.with[1].query->from, "s");
    ASSERT_TRUE(select.from_subquery);
    EXPECT_EQ(select.from_alias, "x");
    EXPECT_FALSE(select.from);
    EXPECT_TRUE(select.items[1].expression->as<Subquery>());
    EXPECT_EQ(dump(*select.where),
              "(AND (AND (IN a (SUBQUERY SELECT a FROM r)) (NOT IN a 1:UInt64 2:UInt64)) "
              "(AND (>= a 1:UInt64) (<= a 9:UInt64)))");
    EXPECT_EQ(dump(*parseExpression("a NOT BETWEEN 1 AND 2")),
              "(NOT (AND (>= a 1:UInt64) (<= a 2:UInt64)))");
    const SelectStatement aliased = parseSelect("SELECT t.a FROM hits t ARRAY JOIN arr");
    EXPECT_EQ(aliased.from_alias, "t");
    EXPECT_TRUE(aliased.array_join);
    EXPECT_FALSE(parseSelect("SELECT a FROM (SELECT 1 AS a) ARRAY JOIN b").from_alias);
}

TEST(SqlParser, ScriptsOfNothing)
{
    EXPECT_TRUE(parseScript("").empty());
    EXPECT_TRUE(parseScript(" ;; -- nothing\n/* at all */ ;").empty());
}

TEST(SqlParser, ExpressionPositions)
{
    const SelectStatement select = parseSelect("SELECT a,\n  sum(b + 1) FROM t");
    const Expression& sum = *select.items[1].expression;
    EXPECT_EQ(sum.position.line, 2u);
    EXPECT_EQ(sum.position.column, 3u);
    const Expression& plus = *sum.as<FunctionCall>()->arguments[0];
    EXPECT_EQ(plus.position.column, 9u);
}

TEST(SqlExpression, ChildrenRebuildAndBottomUpTransform)
{
    const ExpressionPtr tree =
        parseExpression("CASE x WHEN f(x, 1) THEN -x ELSE x IN (x, 2) END AND extract(DAY FROM x)");
    EXPECT_EQ(children(*tree).size(), 2u);
    EXPECT_TRUE(*withChildren(*tree, children(*tree)) == *tree);
    const ExpressionPtr case_expression = children(*tree)[0];
    EXPECT_EQ(children(*case_expression).size(), 4u);
    EXPECT_EQ(case_expression->height, 3u);
    EXPECT_EQ(tree->height, 4u);

    const ExpressionPtr renamed = transformBottomUp(
        tree,
        [](const ExpressionPtr& node)
        {
            const auto* column = node->as<ColumnRef>();
            return column && column->name == "x" ? makeExpression(ColumnRef{"y"}) : node;
        });
    EXPECT_EQ(dump(*renamed),
              "(AND (CASE y (WHEN (f y 1:UInt64) (NEG y)) (ELSE (IN y y 2:UInt64))) "
              "(EXTRACT DAY y))");
    const ExpressionPtr unchanged =
        transformBottomUp(tree, [](const ExpressionPtr& node) { return node; });
    EXPECT_EQ(unchanged, tree);
}

TEST(SqlParser, NestingIsBounded)
{
    const std::string deep_enough(kMaxExpressionDepth - 1, '(');
    EXPECT_NO_THROW(parseExpression(deep_enough + "1" + std::string(kMaxExpressionDepth - 1, ')')));
    const std::string too_deep(kMaxExpressionDepth + 1, '(');
    EXPECT_THROW(parseExpression(too_deep + "1" + std::string(kMaxExpressionDepth + 1, ')')),
                 SyntaxError);
    std::string long_chain = "1";
    for (size_t i = 0; i < kMaxExpressionDepth; ++i)
    {
        long_chain += " + 1";
    }
    EXPECT_THROW(parseExpression(long_chain), SyntaxError);
    EXPECT_THROW(parseExpression(std::string(kMaxExpressionDepth + 1, '-') + "x"), SyntaxError);
}

}  // namespace
}  // namespace granary::sql
