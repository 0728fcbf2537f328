#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "engine/sql/aggregate_calls.h"
#include "engine/sql/formatter.h"
#include "engine/sql/parser.h"
#include "engine/sql/rewrites.h"
#include "engine/sql/select_references.h"
#include "engine/sql/syntax_error.h"
#include "tests/sql/clickbench_files.h"

namespace granary::sql
{
namespace
{

/// Inputs per generator; GRANARY_SQL_FUZZ_ITERATIONS overrides it for longer runs.
constexpr size_t kDefaultIterations = 10000;
constexpr size_t kMaxRandomBytes = 80;
constexpr size_t kMaxSoupTokens = 40;
constexpr size_t kMaxMutationsPerInput = 4;
constexpr size_t kMaxMutationBytes = 7;
/// At least one mutated statement in this many must still parse, or the round-trip check
/// would hardly run.
constexpr size_t kMinParsedShareOfMutations = 20;
/// Fixed, so that a failure reproduces; the failing input is printed.
constexpr uint64_t kSeed = 20240601;

const std::vector<std::string> kVocabulary = {
    "SELECT",
    "FROM",
    "WHERE",
    "GROUP",
    "BY",
    "HAVING",
    "ORDER",
    "LIMIT",
    "OFFSET",
    "AS",
    "AND",
    "OR",
    "NOT",
    "IN",
    "LIKE",
    "ILIKE",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "DISTINCT",
    "ASC",
    "DESC",
    "CREATE",
    "TABLE",
    "REPLACE",
    "IF",
    "EXISTS",
    "PRIMARY",
    "KEY",
    "ENGINE",
    "SETTINGS",
    "DEFAULT",
    "NULL",
    "INSERT",
    "INTO",
    "INFILE",
    "FORMAT",
    "DROP",
    "SHOW",
    "TABLES",
    "DESCRIBE",
    "extract",
    "minute",
    "DATE_TRUNC",
    "count",
    "sum",
    "SUM",
    "avg",
    "min",
    "x",
    "y",
    "hits",
    "URL",
    "Int32",
    "VARCHAR",
    "TSV",
    "PRECISION",
    "0",
    "1",
    "42",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "1.5",
    ".5",
    "1e10",
    "1e",
    "'str'",
    "''",
    "'it''s'",
    "'\\x41'",
    "'\\1'",
    "'\\",
    "\"q\"",
    "`b`",
    "``",
    "(",
    ")",
    ",",
    ";",
    ".",
    "+",
    "-",
    "*",
    "/",
    "%",
    "=",
    "==",
    "!=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "@",
    "'",
    "\"",
    "/*",
    "*/",
    "--",
    "\n",
    "\t",
    "\xD0\xBF",
    "\x80",
    std::string(1, '\0'),
};

const std::vector<std::string> kBuiltInSeeds = {
    "SELECT a, sum(x + 1) AS s FROM t WHERE a IN (-1, 6) AND b NOT LIKE '%x%' GROUP BY 1 "
    "HAVING count(*) > 10 ORDER BY s DESC LIMIT 10 OFFSET 5",
    "SELECT CASE WHEN (a = 0 AND b = 0) THEN r ELSE '' END AS Src, extract(minute FROM t) "
    "FROM hits GROUP BY Src",
    "CREATE OR REPLACE TABLE t (a BIGINT NOT NULL, b VARCHAR(255), PRIMARY KEY (a)) "
    "ENGINE = MergeTree SETTINGS x = 1, y = ''",
    "INSERT INTO t FROM INFILE 'f.tsv' FORMAT TSV; DROP TABLE IF EXISTS t; SHOW TABLES",
    "SELECT COUNT(*) FROM hits",
    "SELECT -1, 1.5e3, 'x\\'y', `q` FROM t ORDER BY 1 DESC LIMIT 3, 4",
    "SELECT NOT a AND b OR c = d - e * f % g FROM t",
    "SELECT count(DISTINCT a), min(b) FROM t GROUP BY c, d HAVING min(b) <> ''",
    "INSERT INTO t (a, b) FORMAT CSV",
    "DESCRIBE TABLE t",
    "WITH s AS (SELECT a FROM t) SELECT DISTINCT a FROM (SELECT a FROM s) AS x WHERE a IN "
    "(SELECT b FROM u) AND a BETWEEN 1 AND (SELECT max(c) FROM v) ORDER BY a LIMIT 1 BY a "
    "LIMIT 5 UNION ALL SELECT CAST(1 AS Int64)",
    "SELECT a, b, grouping(a, b) FROM t GROUP BY ROLLUP(a, b) UNION ALL SELECT 1, 2, 3 FROM t "
    "GROUP BY GROUPING SETS ((a), (), b) WITH TOTALS",
    "INSERT INTO t (a, b) VALUES (1, 'x'), (-2, concat('y', 'z'))",
    "CREATE TABLE n (a Nullable(Int32), b String NULL, c LowCardinality(Nullable(String))) "
    "ENGINE = MergeTree; INSERT INTO n VALUES (NULL, NULL, 'x')",
    "SELECT a IS NULL, b IS NOT NULL, coalesce(a, NULL, 1), nullIf(b, '') FROM n WHERE NOT "
    "(a = NULL OR b IN ('x', NULL)) ORDER BY a DESC NULLS FIRST, b NULLS LAST",
};

size_t iterations()
{
    const char* configured = std::getenv("GRANARY_SQL_FUZZ_ITERATIONS");
    return configured ? std::strtoull(configured, nullptr, 10) : kDefaultIterations;
}

/// Never crashes, throws only SyntaxError, and whatever parses formats to text that parses
/// back to the same statements; the planner-facing helpers run on every parsed SELECT.
/// Returns whether the input parsed.
bool checkInput(const std::string& text)
{
    std::vector<Statement> statements;
    try
    {
        statements = parseScript(text);
    }
    catch (const SyntaxError& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kSyntaxError);
        EXPECT_LE(error.position().offset, text.size());
        EXPECT_EQ(std::string(error.what()).rfind("Syntax error at line ", 0), 0u);
        return false;
    }
    const std::string formatted = formatScript(statements);
    try
    {
        EXPECT_TRUE(parseScript(formatted) == statements)
            << "input: " << testing::PrintToString(text) << "\nformatted: " << formatted;
    }
    catch (const SyntaxError& error)
    {
        ADD_FAILURE() << "input: " << testing::PrintToString(text) << "\nformatted: " << formatted
                      << "\n"
                      << error.what();
    }
    for (const Statement& statement : statements)
    {
        const auto* select = std::get_if<SelectStatement>(&statement);
        if (!select)
        {
            continue;
        }
        collectAggregates(rewriteSumOfColumnAndConstant(*select));
        std::vector<ExpressionPtr> keys = select->group_by;
        for (const OrderByItem& item : select->order_by)
        {
            keys.push_back(item.expression);
        }
        for (const ExpressionPtr& key : keys)
        {
            try
            {
                referencedSelectItem(*select, *key);
            }
            catch (const Exception& error)
            {
                EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
            }
        }
    }
    return true;
}

class SqlFuzz : public testing::Test
{
protected:
    size_t below(size_t bound)
    {
        return std::uniform_int_distribution<size_t>(0, bound - 1)(random_);
    }
    const std::string& anyToken() { return kVocabulary[below(kVocabulary.size())]; }

    /// Checks iterations() inputs made by `generate`, up to the first failing one (which the
    /// failure prints); returns how many of them parsed.
    template <typename Generate>
    size_t checkInputs(Generate&& generate)
    {
        size_t parsed = 0;
        for (size_t i = 0; i < iterations() && !HasFailure(); ++i)
        {
            parsed += checkInput(generate());
        }
        std::cout << parsed << " of " << iterations() << " inputs parsed\n";
        return parsed;
    }

    std::string randomBytes()
    {
        std::string text(below(kMaxRandomBytes + 1), '\0');
        for (char& c : text)
        {
            c = static_cast<char>(below(256));
        }
        return text;
    }

    std::string tokenSoup()
    {
        std::string text;
        const size_t tokens = below(kMaxSoupTokens + 1);
        for (size_t t = 0; t < tokens; ++t)
        {
            text += anyToken();
            // Sometimes glued, so that neighbours merge into other tokens ("-" "-" is a comment).
            if (below(4) != 0)
            {
                text += ' ';
            }
        }
        return text;
    }

    /// A seed with a few bytes deleted, duplicated or replaced and tokens inserted.
    std::string mutated(std::string text)
    {
        const size_t mutations = 1 + below(kMaxMutationsPerInput);
        for (size_t m = 0; m < mutations; ++m)
        {
            const size_t at = below(text.size() + 1);
            const size_t length = std::min(text.size() - at, below(kMaxMutationBytes + 1));
            switch (below(4))
            {
                case 0:
                    text.erase(at, length);
                    break;
                case 1:
                    text.insert(at, text.substr(at, length));
                    break;
                case 2:
                    text.insert(at, " " + anyToken() + " ");
                    break;
                default:
                    if (at < text.size())
                    {
                        text[at] = static_cast<char>(below(256));
                    }
                    break;
            }
        }
        return text;
    }

    std::mt19937_64 random_{kSeed};
};

TEST_F(SqlFuzz, RandomBytes)
{
    checkInputs([&] { return randomBytes(); });
}

TEST_F(SqlFuzz, TokenSoups)
{
    checkInputs([&] { return tokenSoup(); });
}

/// Near-valid inputs reach deeper into the grammar than random text does, and many of them
/// still parse, which exercises the format-and-parse-back check.
TEST_F(SqlFuzz, MutatedStatements)
{
    std::vector<std::string> seeds = kBuiltInSeeds;
    if (const auto queries = readClickBenchQueries())
    {
        seeds.insert(seeds.end(), queries->begin(), queries->end());
    }
    if (const auto schema = readClickBenchFile("clickhouse-create.sql"))
    {
        seeds.push_back(*schema);
    }
    const size_t parsed = checkInputs([&] { return mutated(seeds[below(seeds.size())]); });
    EXPECT_GE(parsed * kMinParsedShareOfMutations, iterations());
}

}  // namespace
}  // namespace granary::sql
