#pragma once

#include <cstdint>
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

/// SELECT items [FROM table [ARRAY JOIN]] [WHERE] [GROUP BY] [HAVING] [ORDER BY] [LIMIT]
/// [OFFSET].
/// GROUP BY and ORDER BY keys are kept as written: an unsigned integer literal is a position
/// in the select list and a bare name may be a select alias (see select_references.h).
struct SelectStatement
{
    SourcePosition position;
    std::vector<SelectItem> items;
    std::optional<std::string> from;  ///< Absent for `SELECT 1`.
    std::optional<ArrayJoinClause> array_join;
    ExpressionPtr where;  ///< Null when absent, as is `having`.
    std::vector<ExpressionPtr> group_by;
    ExpressionPtr having;
    std::vector<OrderByItem> order_by;
    std::optional<uint64_t> limit;
    /// Rows skipped before the limit: `LIMIT n OFFSET m`, `LIMIT m, n` or `OFFSET m`.
    uint64_t offset = 0;
};

struct ColumnDefinition
{
    std::string name;
    DataType type = TypeId::String;
    bool not_null = false;  ///< Granary has no NULLs: kept only to format the statement back.
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
/// INSERT INTO table [(columns)] VALUES with the rows sent as blocks (native protocol; the
/// format is then "Values").
struct InsertStatement
{
    SourcePosition position;
    std::string table;
    std::vector<std::string> columns;  ///< Empty: all columns, in table order.
    std::optional<std::string> infile;
    std::optional<std::string> format;  ///< As written (TSV, TabSeparated, CSVWithNames...).
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

/// Structural equality, positions ignored (as for expressions).
bool operator==(const SelectStatement& left, const SelectStatement& right);
bool operator==(const CreateTableStatement& left, const CreateTableStatement& right);
bool operator==(const InsertStatement& left, const InsertStatement& right);
bool operator==(const DropTableStatement& left, const DropTableStatement& right);
bool operator==(const ShowTablesStatement& left, const ShowTablesStatement& right);
bool operator==(const DescribeTableStatement& left, const DescribeTableStatement& right);

}  // namespace granary::sql
