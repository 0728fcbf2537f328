#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/columns/data_type.h"
#include "engine/columns/types.h"
#include "engine/sql/expression.h"

namespace granary::sql
{

struct SelectItem
{
    /// An Asterisk for `SELECT *` (which takes no alias).
    ExpressionPtr expression;
    std::optional<std::string> alias;
};

struct OrderByItem
{
    ExpressionPtr expression;
    bool descending = false;
    /// NULLS FIRST; NULLs come last otherwise (ClickHouse's and DuckDB's default either way).
    bool nulls_first = false;
};

/// `[LEFT] ARRAY JOIN array [AS alias]` after FROM: each row once per element of the array,
/// the element named `alias` (the array's own name when it is a column and no alias is given);
/// LEFT keeps a row whose array is empty once, with the element type's default.
struct ArrayJoinClause
{
    ExpressionPtr array;
    std::string alias;
    bool left = false;
};

/// `LIMIT n [OFFSET m] BY keys` (ClickHouse): after ORDER BY, at most n rows of each
/// distinct value of the keys, after skipping its first m.
struct LimitBy
{
    uint64_t limit = 0;
    uint64_t offset = 0;
    std::vector<ExpressionPtr> keys;
};

using SelectStatementPtr = std::shared_ptr<const SelectStatement>;

/// How GROUP BY groups: by its keys, or by several sets of them, one result row per group of
/// each set (a key outside a set takes its type's default there, as in ClickHouse).
enum class Grouping
{
    kKeys,          ///< GROUP BY a, b
    kRollup,        ///< GROUP BY ROLLUP(a, b) (or a, b WITH ROLLUP): (a, b), (a), ()
    kCube,          ///< GROUP BY CUBE(a, b) (or WITH CUBE): every subset
    kGroupingSets,  ///< GROUP BY GROUPING SETS ((a, b), (a), ())
};

/// `name AS (SELECT ...)` in a WITH clause: a common table expression, which FROM may name
/// in the statement and its subqueries as it names a table.
struct CommonTableExpression
{
    std::string name;
    SelectStatementPtr query;
};

/// [WITH ctes] SELECT [DISTINCT] items [FROM table | (subquery) [[AS] alias] [ARRAY JOIN]]
/// [WHERE] [GROUP BY keys | ROLLUP(keys) | CUBE(keys) | GROUPING SETS (...) [WITH ROLLUP |
/// WITH CUBE] [WITH TOTALS]] [HAVING] [ORDER BY] [LIMIT n BY keys] [LIMIT] [OFFSET]
/// [UNION ALL SELECT ...].
/// GROUP BY and ORDER BY keys are kept as written: an unsigned integer literal is a position
/// in the select list and a bare name may be a select alias (see select_references.h).
struct SelectStatement
{
    SourcePosition position;
    std::vector<CommonTableExpression> with;
    bool distinct = false;
    std::vector<SelectItem> items;
    /// A table or a common table expression; absent for `SELECT 1` and for a subquery.
    std::optional<std::string> from;
    SelectStatementPtr from_subquery;  ///< `FROM (SELECT ...)`; null otherwise.
    /// `FROM t AS alias` or `FROM (SELECT ...) AS alias`: `alias.column` names a column of
    /// the source (as does `t.column`).
    std::optional<std::string> from_alias;
    std::optional<ArrayJoinClause> array_join;
    ExpressionPtr where;  ///< Null when absent, as is `having`.
    /// The keys as written (for ROLLUP and CUBE, their arguments); empty for GROUPING SETS.
    std::vector<ExpressionPtr> group_by;
    Grouping grouping = Grouping::kKeys;
    std::vector<std::vector<ExpressionPtr>> grouping_sets;  ///< Of GROUPING SETS only.
    bool with_totals = false;  ///< `WITH TOTALS`: a totals row beside the result.
    ExpressionPtr having;
    std::vector<OrderByItem> order_by;
    std::optional<LimitBy> limit_by;
    std::optional<uint64_t> limit;
    /// Rows skipped before the limit: `LIMIT n OFFSET m`, `LIMIT m, n` or `OFFSET m`.
    uint64_t offset = 0;
    /// The SELECTs whose rows follow this one's (`UNION ALL`). As in ClickHouse, each keeps its
    /// own ORDER BY and LIMIT: to order the union, select from it as a subquery.
    std::vector<SelectStatementPtr> union_all;

    bool hasSource() const { return from || from_subquery; }
};

struct ColumnDefinition
{
    std::string name;
    DataType type = TypeId::String;
    bool not_null = false;  ///< Columns are NOT NULL unless Nullable(T): kept to format back.
    ExpressionPtr default_value;
    /// As written in `CODEC(...)` ("ZSTD(3)", "Delta, ZSTD(1)"); empty: the default.
    std::string codec;
};

/// `INDEX name expression TYPE type GRANULARITY n` in a column list: ClickHouse's data-skipping
/// index, accepted so that exporters' DDL runs, and not built (Granary prunes by the sort
/// key's granule bounds).
struct IndexDefinition
{
    std::string name;
    ExpressionPtr expression;
    ExpressionPtr type;  ///< `bloom_filter(0.01)`, `minmax`: a call or a bare name.
    uint64_t granularity = 1;
};

/// A `SETTINGS name = value` entry.
struct Setting
{
    std::string name;
    LiteralValue value;
};

/// CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name (columns..., [PRIMARY KEY (keys)])
/// [ENGINE = name[(arguments)]] [ORDER BY keys] [PRIMARY KEY keys] [SETTINGS ...]; the storage
/// clauses may come in any order, each at most once.
struct CreateTableStatement
{
    SourcePosition position;
    std::string table;
    bool or_replace = false;
    bool if_not_exists = false;
    std::vector<ColumnDefinition> columns;
    std::vector<IndexDefinition> indexes;
    /// From the column list or the PRIMARY KEY clause (giving both is an error).
    std::vector<ExpressionPtr> primary_key;
    std::optional<std::string> engine;
    std::vector<ExpressionPtr> engine_arguments;  ///< `ENGINE = X()` has none, like `ENGINE = X`.
    std::vector<ExpressionPtr> order_by;
    /// PARTITION BY and TTL are accepted and not acted on: a table is one partition and keeps
    /// its rows (docs/ingest.md).
    ExpressionPtr partition_by;
    ExpressionPtr ttl;
    std::vector<Setting> settings;
};

/// INSERT INTO table [(columns)] FROM INFILE 'path' [FORMAT name], or
/// INSERT INTO table [(columns)] FORMAT name with the data on the client's standard input, or
/// INSERT INTO table [(columns)] VALUES (row), ... with the rows in the statement, or
/// INSERT INTO table [(columns)] VALUES with the rows sent as blocks (native protocol). After
/// VALUES the format is "Values".
struct InsertStatement
{
    SourcePosition position;
    std::string table;
    std::vector<std::string> columns;  ///< Empty: all columns, in table order.
    std::optional<std::string> infile;
    std::optional<std::string> format;  ///< As written (TSV, TabSeparated, CSVWithNames...).
    /// `VALUES (1, 'a'), (2, 'b')`: each row's constant expressions, one per column.
    std::vector<std::vector<ExpressionPtr>> rows;
    /// `INSERT INTO t [(columns)] SELECT ...`: the query whose rows are inserted.
    SelectStatementPtr select;
};

struct DropTableStatement
{
    SourcePosition position;
    std::string table;
    bool if_exists = false;
};

struct ShowTablesStatement
{
    SourcePosition position;
};

/// DESCRIBE [TABLE] name, or DESC.
struct DescribeTableStatement
{
    SourcePosition position;
    std::string table;
};

using Statement = std::variant<SelectStatement, CreateTableStatement, InsertStatement,
                               DropTableStatement, ShowTablesStatement, DescribeTableStatement>;

/// Replaces every expression of the select list, WHERE, GROUP BY, HAVING, ORDER BY and
/// LIMIT BY by what `rewrite` returns for it (the expression itself to keep it). Common table
/// expressions, subqueries and UNION ALL branches are statements of their own, not visited.
void rewriteExpressions(SelectStatement& select,
                        const std::function<ExpressionPtr(const ExpressionPtr&)>& rewrite);

/// Structural equality, positions ignored (as for expressions).
bool operator==(const SelectStatement& left, const SelectStatement& right);
bool operator==(const CreateTableStatement& left, const CreateTableStatement& right);
bool operator==(const InsertStatement& left, const InsertStatement& right);
bool operator==(const DropTableStatement& left, const DropTableStatement& right);
bool operator==(const ShowTablesStatement& left, const ShowTablesStatement& right);
bool operator==(const DescribeTableStatement& left, const DescribeTableStatement& right);

}  // namespace granary::sql
