// Malformed input through Session::execute: each case names the error code and a fragment the
// message must hold (the culprit, or the line and column of a syntax error). A failed
// statement leaves the table as it was.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "engine/common/exception.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"
#include "tests/planner/result_check.h"

namespace granary
{
namespace
{

struct BadInput
{
    std::string name;
    std::string sql;
    ErrorCode code;
    std::string fragment;
    std::string insert_data = {};  ///< Non-empty: given as QueryOptions::insert_data.
    std::map<std::string, std::string, std::less<>> settings = {};
};

const std::vector<BadInput>& badInputs()
{
    using enum ErrorCode;
    static const std::vector<BadInput> inputs = {
        // Syntax: the message points at the line and column.
        {"MisspelledSelect", "SELEC a FROM t", kSyntaxError, "line 1, column 1"},
        {"WhereWithoutCondition", "SELECT a FROM t WHERE", kSyntaxError, "end of input"},
        {"ErrorOnSecondLine", "SELECT a,\n  FROM t", kSyntaxError, "line 2, column 3"},
        {"UnterminatedString", "SELECT 'abc FROM t", kSyntaxError, "line 1, column 8"},
        {"Join", "SELECT a FROM t JOIN u", kSyntaxError, "line 1, column 17"},
        {"IntegerTooLarge", "SELECT a FROM t LIMIT 18446744073709551616", kSyntaxError,
         "line 1, column 23"},
        {"UnknownType", "CREATE TABLE x (a FOO)", kSyntaxError, "FOO"},
        // Names.
        {"UnknownColumnInSelect", "SELECT nope FROM t", kUnknownColumn, "nope"},
        {"UnknownColumnInWhere", "SELECT a FROM t WHERE missing_col = 1", kUnknownColumn,
         "missing_col"},
        {"UnknownColumnInOrderBy", "SELECT a FROM t ORDER BY zz", kUnknownColumn, "zz"},
        {"UnknownColumnInAggregate", "SELECT sum(qq) FROM t", kUnknownColumn, "qq"},
        {"UnknownFunction", "SELECT frobnicate(a) FROM t", kUnknownFunction, "frobnicate"},
        {"UnknownTable", "SELECT a FROM nosuchtable", kUnknownTable, "nosuchtable"},
        // Types.
        {"LikeOnNumber", "SELECT count(*) FROM t WHERE a LIKE '%1%'", kTypeMismatch, "LIKE"},
        {"StringComparedWithNumber", "SELECT a FROM t WHERE s = 5", kTypeMismatch, "String"},
        {"SumOfString", "SELECT sum(s) FROM t", kTypeMismatch, "sum"},
        {"LengthOfNumber", "SELECT length(a) FROM t", kTypeMismatch, "length"},
        {"StringPlusNumber", "SELECT s + 1 FROM t", kTypeMismatch, "String"},
        // Aggregation.
        {"ColumnNotAggregated", "SELECT a, count(*) FROM t", kNotAnAggregate, "column a"},
        {"ColumnNotGrouped", "SELECT s, count(*) FROM t GROUP BY a", kNotAnAggregate, "column s"},
        {"NestedAggregate", "SELECT sum(count(*)) FROM t", kBadArguments,
         "inside another aggregate"},
        {"AggregateInWhere", "SELECT a FROM t WHERE count(*) > 1", kBadArguments, "WHERE"},
        {"GroupByPositionOutOfRange", "SELECT a, count(*) FROM t GROUP BY 5", kBadArguments, "5"},
        {"HavingWithoutAggregation", "SELECT a FROM t HAVING a > 1", kBadArguments, "HAVING"},
        {"AggregateWithoutTable", "SELECT count(*)", kBadArguments, "FROM"},
        // Function arguments.
        {"InvalidRegexp", "SELECT REGEXP_REPLACE(s, '(', 'x') FROM t", kBadArguments, "("},
        {"NonConstantLikePattern", "SELECT a FROM t WHERE s LIKE s", kBadArguments, "LIKE"},
        {"WrongArgumentCount", "SELECT length(s, s) FROM t", kBadArguments, "length"},
        {"UnknownDateTruncUnit", "SELECT DATE_TRUNC('fortnight', d) FROM t", kBadArguments,
         "fortnight"},
        {"MalformedDateLiteral", "SELECT a FROM t WHERE d >= '2013-13-45'", kTypeMismatch,
         "'2013-13-45'"},
        // Loading TSV.
        {"TsvBadInteger", "INSERT INTO t FORMAT TSV", kCannotParseInput, "line 2",
         "4\tx\t2013-07-01\nfive\ty\t2013-07-02\n"},
        {"TsvTooFewFields", "INSERT INTO t FORMAT TSV", kCannotParseInput, "line 1", "4\tx\n"},
        {"TsvTooManyFields", "INSERT INTO t FORMAT TSV", kCannotParseInput, "line 1",
         "4\tx\t2013-07-01\textra\n"},
        {"TsvBadDate", "INSERT INTO t FORMAT TSV", kCannotParseInput, "2013-07-0x",
         "4\tx\t2013-07-0x\n"},
        {"TsvIntegerOutOfRange", "INSERT INTO t FORMAT TSV", kCannotParseInput, "99999999999",
         "99999999999\tx\t2013-07-01\n"},
        {"InsertWithoutData", "INSERT INTO t FORMAT TSV", kBadArguments, "INSERT INTO t"},
        {"InsertIntoUnknownTable", "INSERT INTO nowhere FORMAT TSV", kUnknownTable, "nowhere",
         "1\tx\t2013-07-01\n"},
        {"InsertUnknownColumn", "INSERT INTO t (a, nope) FORMAT TSV", kUnknownColumn, "nope",
         "1\t2\n"},
        {"InsertMissingFile", "INSERT INTO t FROM INFILE '/nonexistent/granary.tsv'",
         kCannotOpenFile, "/nonexistent/granary.tsv"},
        {"UnknownFormat", "INSERT INTO t FORMAT Parquet", kUnknownFormat, "Parquet",
         "1\tx\t2013-07-01\n"},
        // Settings.
        {"UnknownSetting",
         "SELECT a FROM t",
         kUnknownSetting,
         "no_such_setting",
         "",
         {{"no_such_setting", "1"}}},
        {"MalformedFlagSetting",
         "SELECT a FROM t",
         kBadArguments,
         "maybe",
         "",
         {{"optimize_arithmetic_operations_in_aggregate_functions", "maybe"}}},
        {"NegativeThreadCount",
         "SELECT a FROM t",
         kBadArguments,
         "max_threads",
         "",
         {{"max_threads", "-1"}}},
        // Catalog.
        {"CreateExistingTable", "CREATE TABLE t (a INTEGER)", kTableAlreadyExists, "t"},
        {"DropMissingTable", "DROP TABLE missing_table", kUnknownTable, "missing_table"},
        {"DescribeMissingTable", "DESCRIBE ghost", kUnknownTable, "ghost"},
        {"DuplicateColumn", "CREATE TABLE x (a INTEGER, a TEXT)", kBadArguments, "a"},
        {"SortKeyNamesNoColumn", "CREATE TABLE x (a INTEGER) ORDER BY b", kUnknownColumn, "b"},
    };
    return inputs;
}

class MalformedInput : public ::testing::TestWithParam<BadInput>
{
};

TEST_P(MalformedInput, FailsWithCodeAndMessage)
{
    const BadInput& input = GetParam();
    Session session(Database::openInMemory());
    session.execute("CREATE TABLE t (a INTEGER, s TEXT, d Date) ORDER BY a");
    std::istringstream rows("1\tone\t2013-07-01\n2\ttwo\t2013-07-02\n3\tthree\t2013-07-03\n");
    QueryOptions load;
    load.insert_data = &rows;
    ASSERT_EQ(session.execute("INSERT INTO t FORMAT TSV", load).rows_written, 3u);

    std::istringstream data(input.insert_data);
    QueryOptions options;
    options.settings = input.settings;
    if (!input.insert_data.empty())
    {
        options.insert_data = &data;
    }
    try
    {
        session.execute(input.sql, options);
        ADD_FAILURE() << "no error for: " << input.sql;
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(errorCodeName(error.code()), errorCodeName(input.code)) << error.what();
        EXPECT_NE(std::string(error.what()).find(input.fragment), std::string::npos)
            << "message lacks '" << input.fragment << "': " << error.what();
    }

    const QueryResult count = session.execute("SELECT count(*), sum(a) FROM t");
    ASSERT_EQ(count.block.rows(), 1u);
    EXPECT_EQ(oracle::valueAt(count.block.columns[0].column, 0), oracle::Value(uint64_t{3}));
    EXPECT_EQ(oracle::valueAt(count.block.columns[1].column, 0), oracle::Value(int64_t{6}));
}

INSTANTIATE_TEST_SUITE_P(Table, MalformedInput, ::testing::ValuesIn(badInputs()),
                         [](const ::testing::TestParamInfo<BadInput>& info)
                         { return info.param.name; });

TEST(MalformedInput, TableHasAtLeastThirtyCases)
{
    EXPECT_GE(badInputs().size(), 30u);
}

}  // namespace
}  // namespace granary
