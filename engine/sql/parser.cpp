#include "engine/sql/parser.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "engine/common/exception.h"
#include "engine/sql/interval_unit.h"
#include "engine/sql/keywords.h"
#include "engine/sql/lexer.h"
#include "engine/sql/sql_types.h"
#include "engine/sql/syntax_error.h"

namespace granary::sql
{
namespace
{

struct OperatorToken
{
    TokenKind token;
    BinaryOperator op;
};

constexpr std::array<OperatorToken, 6> kComparisonOperators = {{
    {TokenKind::Equals, BinaryOperator::Equals},
    {TokenKind::NotEquals, BinaryOperator::NotEquals},
    {TokenKind::Less, BinaryOperator::Less},
    {TokenKind::LessOrEquals, BinaryOperator::LessOrEquals},
    {TokenKind::Greater, BinaryOperator::Greater},
    {TokenKind::GreaterOrEquals, BinaryOperator::GreaterOrEquals},
}};

constexpr std::array<OperatorToken, 2> kAdditiveOperators = {{
    {TokenKind::Plus, BinaryOperator::Plus},
    {TokenKind::Minus, BinaryOperator::Minus},
}};

constexpr std::array<OperatorToken, 3> kMultiplicativeOperators = {{
    {TokenKind::Star, BinaryOperator::Multiply},
    {TokenKind::Slash, BinaryOperator::Divide},
    {TokenKind::Percent, BinaryOperator::Modulo},
}};

/// The largest integer a leading minus turns into an Int64 literal: -9223372036854775808.
constexpr uint64_t kMaxNegatableInteger = uint64_t{1} << 63;

template <size_t N>
std::optional<BinaryOperator> operatorFor(const std::array<OperatorToken, N>& table, TokenKind kind)
{
    for (const OperatorToken& entry : table)
    {
        if (entry.token == kind)
        {
            return entry.op;
        }
    }
    return std::nullopt;
}

/// "A", "A or B", "A, B or C".
std::string joinAlternatives(const std::vector<std::string>& alternatives)
{
    std::string joined;
    for (size_t i = 0; i < alternatives.size(); ++i)
    {
        if (i > 0)
        {
            joined += i + 1 == alternatives.size() ? " or " : ", ";
        }
        joined += alternatives[i];
    }
    return joined;
}

/// Recursive descent over the token list. Every check of the current token that fails
/// records what it looked for; a syntax error lists everything looked for at the position
/// where parsing stopped ("expected ',', FROM or WHERE but found 'FORM'"). The grammar needs
/// at most four tokens of lookahead and never backtracks, so that position is the current one.
class Parser
{
public:
    explicit Parser(std::string_view text) : text_(text), tokens_(tokenize(text)) {}

    std::vector<Statement> script()
    {
        std::vector<Statement> statements;
        while (true)
        {
            while (accept(TokenKind::Semicolon))
            {
            }
            if (atKind(TokenKind::EndOfInput))
            {
                return statements;
            }
            statements.push_back(statement());
            if (!accept(TokenKind::Semicolon))
            {
                expect(TokenKind::EndOfInput);
                return statements;
            }
        }
    }

    Statement singleStatement()
    {
        Statement parsed = statement();
        finishStatement();
        return parsed;
    }

    SelectStatement singleSelect()
    {
        if (!atQuery())
        {
            expectKeyword("SELECT");
        }
        SelectStatement select = selectQuery();
        finishStatement();
        return select;
    }

    ExpressionPtr singleExpression()
    {
        ExpressionPtr parsed = expression();
        expect(TokenKind::EndOfInput);
        return parsed;
    }

private:
    /// Counts one level of expression nesting for as long as it lives.
    class NestingGuard
    {
    public:
        explicit NestingGuard(Parser& parser) : parser_(parser)
        {
            if (parser_.depth_ == kMaxExpressionDepth)
            {
                parser_.failNesting(parser_.current().position);
            }
            ++parser_.depth_;
        }
        ~NestingGuard() { --parser_.depth_; }
        NestingGuard(const NestingGuard&) = delete;
        NestingGuard& operator=(const NestingGuard&) = delete;

    private:
        Parser& parser_;
    };

    // ---- Tokens and expectations ----

    const Token& current() const { return tokens_[index_]; }
    const Token& ahead(size_t distance) const
    {
        return tokens_[std::min(index_ + distance, tokens_.size() - 1)];
    }
    bool atKind(TokenKind kind, size_t distance = 0) const { return ahead(distance).kind == kind; }
    bool atKeyword(std::string_view keyword, size_t distance = 0) const
    {
        const Token& token = ahead(distance);
        return token.kind == TokenKind::Word && equalsIgnoringCase(token.text, keyword);
    }
    /// A name can be a bare word that is not reserved, or any quoted identifier.
    bool atName() const
    {
        const Token& token = current();
        return token.kind == TokenKind::QuotedIdentifier ||
               (token.kind == TokenKind::Word && !isReservedKeyword(token.text));
    }

    const Token& advance()
    {
        const Token& token = current();
        if (token.kind != TokenKind::EndOfInput)
        {
            ++index_;
        }
        expected_.clear();
        return token;
    }

    void expecting(std::string_view what)
    {
        if (std::find(expected_.begin(), expected_.end(), what) == expected_.end())
        {
            expected_.emplace_back(what);
        }
    }

    bool accept(TokenKind kind)
    {
        if (atKind(kind))
        {
            advance();
            return true;
        }
        expecting(describeTokenKind(kind));
        return false;
    }

    /// Accepts a keyword sequence such as GROUP BY. A reserved first word can start nothing
    /// else, so once it matches the rest is required ("expected BY"); after a word that could
    /// also be a name (PRIMARY, IF) the sequence is taken only when all of it is there.
    bool acceptKeywords(std::initializer_list<std::string_view> keywords)
    {
        const std::string_view first = *keywords.begin();
        if (atKeyword(first) && isReservedKeyword(first))
        {
            for (const std::string_view keyword : keywords)
            {
                if (!atKeyword(keyword))
                {
                    expecting(keyword);
                    fail();
                }
                advance();
            }
            return true;
        }
        size_t distance = 0;
        for (const std::string_view keyword : keywords)
        {
            if (!atKeyword(keyword, distance++))
            {
                std::string description;
                for (const std::string_view word : keywords)
                {
                    description += description.empty() ? "" : " ";
                    description += word;
                }
                expecting(description);
                return false;
            }
        }
        for (size_t i = 0; i < keywords.size(); ++i)
        {
            advance();
        }
        return true;
    }
    bool acceptKeyword(std::string_view keyword) { return acceptKeywords({keyword}); }

    const Token& expect(TokenKind kind)
    {
        if (!atKind(kind))
        {
            expecting(describeTokenKind(kind));
            fail();
        }
        return advance();
    }
    void expectKeyword(std::string_view keyword)
    {
        if (!acceptKeyword(keyword))
        {
            fail();
        }
    }

    std::string expectName(std::string_view what)
    {
        if (!atName())
        {
            expecting(what);
            fail();
        }
        const Token& token = advance();
        return token.kind == TokenKind::QuotedIdentifier ? token.decoded : std::string(token.text);
    }

    [[noreturn]] void fail() const
    {
        failAt(current().position, "expected " + joinAlternatives(expected_) + " but found " +
                                       describeToken(current()));
    }
    [[noreturn]] void failAt(const SourcePosition& position, const std::string& reason) const
    {
        throw SyntaxError(text_, position, reason);
    }
    [[noreturn]] void failNesting(const SourcePosition& position) const
    {
        failAt(position, "expression is nested deeper than " + std::to_string(kMaxExpressionDepth) +
                             " levels");
    }

    // ---- Statements ----

    void finishStatement()
    {
        accept(TokenKind::Semicolon);
        expect(TokenKind::EndOfInput);
    }

    Statement statement()
    {
        const SourcePosition position = current().position;
        if (atQuery())
        {
            return selectQuery();
        }
        expecting("SELECT");
        expecting("WITH");
        if (acceptKeyword("CREATE"))
        {
            return createTableBody(position);
        }
        if (acceptKeyword("INSERT"))
        {
            return insertBody(position);
        }
        if (acceptKeyword("DROP"))
        {
            DropTableStatement drop{position, {}, false};
            expectKeyword("TABLE");
            drop.if_exists = acceptKeywords({"IF", "EXISTS"});
            drop.table = expectName("table name");
            return drop;
        }
        if (acceptKeyword("SHOW"))
        {
            expectKeyword("TABLES");
            return ShowTablesStatement{position};
        }
        if (acceptKeyword("DESCRIBE") || acceptKeyword("DESC"))
        {
            acceptKeyword("TABLE");
            return DescribeTableStatement{position, expectName("table name")};
        }
        fail();
    }

    /// SELECT or WITH: a query starts here (`distance` tokens ahead).
    bool atQuery(size_t distance = 0) const
    {
        return atKeyword("SELECT", distance) || atKeyword("WITH", distance);
    }

    /// [WITH name AS (query), ...] SELECT ... [UNION ALL SELECT ...]...
    SelectStatement selectQuery()
    {
        std::vector<CommonTableExpression> with;
        if (acceptKeyword("WITH"))
        {
            do
            {
                CommonTableExpression cte;
                cte.name = expectName("common table expression name");
                expectKeyword("AS");
                cte.query = parenthesizedQuery();
                with.push_back(std::move(cte));
            } while (accept(TokenKind::Comma));
        }
        const SourcePosition position = current().position;
        expectKeyword("SELECT");
        SelectStatement select = selectBody(position);
        select.with = std::move(with);
        while (acceptKeyword("UNION"))
        {
            expectKeyword("ALL");
            const SourcePosition branch = current().position;
            expectKeyword("SELECT");
            select.union_all.push_back(std::make_shared<SelectStatement>(selectBody(branch)));
        }
        return select;
    }

    /// `(query)`, nested one level deeper.
    SelectStatementPtr parenthesizedQuery()
    {
        expect(TokenKind::LeftParen);
        NestingGuard guard(*this);
        if (!atQuery())
        {
            expecting("SELECT");
            expecting("WITH");
            fail();
        }
        auto query = std::make_shared<SelectStatement>(selectQuery());
        expect(TokenKind::RightParen);
        return query;
    }

    SelectStatement selectBody(const SourcePosition& position)
    {
        SelectStatement select;
        select.position = position;
        select.distinct = acceptKeyword("DISTINCT");
        do
        {
            select.items.push_back(selectItem());
        } while (accept(TokenKind::Comma));
        if (acceptKeyword("FROM"))
        {
            source(select);
            select.array_join = arrayJoin();
        }
        if (acceptKeyword("WHERE"))
        {
            select.where = expression();
        }
        if (acceptKeywords({"GROUP", "BY"}))
        {
            groupBy(select);
        }
        select.with_totals = acceptKeywords({"WITH", "TOTALS"});
        if (acceptKeyword("HAVING"))
        {
            select.having = expression();
        }
        if (acceptKeywords({"ORDER", "BY"}))
        {
            do
            {
                OrderByItem item{expression(), false};
                if (acceptKeyword("DESC"))
                {
                    item.descending = true;
                }
                else
                {
                    acceptKeyword("ASC");
                }
                if (acceptKeyword("NULLS"))
                {
                    item.nulls_first = acceptKeyword("FIRST");
                    if (!item.nulls_first)
                    {
                        expectKeyword("LAST");
                    }
                }
                select.order_by.push_back(std::move(item));
            } while (accept(TokenKind::Comma));
        }
        if (acceptKeyword("LIMIT"))
        {
            const auto [limit, offset] = limitCounts();
            if (acceptKeyword("BY"))
            {
                select.limit_by = LimitBy{limit, offset, expressionList()};
                if (acceptKeyword("LIMIT"))
                {
                    std::tie(select.limit, select.offset) = limitCounts();
                }
            }
            else
            {
                select.limit = limit;
                select.offset = offset;
            }
        }
        if (!select.limit && acceptKeyword("OFFSET"))
        {
            select.offset = rowCount();
        }
        return select;
    }

    /// After GROUP BY: keys, ROLLUP(keys), CUBE(keys) or GROUPING SETS (sets), then
    /// `WITH ROLLUP` or `WITH CUBE` (after plain keys).
    void groupBy(SelectStatement& select)
    {
        if (acceptKeywords({"GROUPING", "SETS"}))
        {
            select.grouping = Grouping::kGroupingSets;
            expect(TokenKind::LeftParen);
            NestingGuard guard(*this);
            do
            {
                select.grouping_sets.push_back(groupingSet());
            } while (accept(TokenKind::Comma));
            expect(TokenKind::RightParen);
        }
        else if ((atKeyword("ROLLUP") || atKeyword("CUBE")) && atKind(TokenKind::LeftParen, 1))
        {
            select.grouping = atKeyword("ROLLUP") ? Grouping::kRollup : Grouping::kCube;
            advance();
            select.group_by = parenthesizedList();
        }
        else
        {
            select.group_by = expressionList();
            if (atKeyword("WITH") && (atKeyword("ROLLUP", 1) || atKeyword("CUBE", 1)))
            {
                advance();
                select.grouping = atKeyword("ROLLUP") ? Grouping::kRollup : Grouping::kCube;
                advance();
            }
        }
    }

    /// One set of GROUPING SETS: `(keys)`, `()` or a lone key.
    std::vector<ExpressionPtr> groupingSet()
    {
        if (atKind(TokenKind::LeftParen) && atKind(TokenKind::RightParen, 1))
        {
            advance();
            advance();
            return {};
        }
        if (atKind(TokenKind::LeftParen))
        {
            return parenthesizedList();
        }
        return {expression()};
    }

    /// After LIMIT: `n`, `n OFFSET m` or `m, n`, as {n, m}.
    std::pair<uint64_t, uint64_t> limitCounts()
    {
        const uint64_t first = rowCount();
        if (accept(TokenKind::Comma))
        {
            return {rowCount(), first};
        }
        return {first, acceptKeyword("OFFSET") ? rowCount() : 0};
    }

    /// After FROM: a table (or common table expression) name or `(query)`, then `[[AS] alias]`.
    void source(SelectStatement& select)
    {
        if (atKind(TokenKind::LeftParen))
        {
            select.from_subquery = parenthesizedQuery();
        }
        else
        {
            select.from = expectName("table name");
        }
        const bool clause_follows = (atKeyword("ARRAY") && atKeyword("JOIN", 1)) ||
                                    (atKeyword("LEFT") && atKeyword("ARRAY", 1)) ||
                                    (atKeyword("WITH") && atKeyword("TOTALS", 1));
        if (acceptKeyword("AS") || (atName() && !clause_follows))
        {
            select.from_alias = expectName("alias");
        }
    }

    /// `[LEFT] ARRAY JOIN array [AS alias]`, or nothing.
    std::optional<ArrayJoinClause> arrayJoin()
    {
        const bool left = atKeyword("LEFT") && atKeyword("ARRAY", 1);
        if (!(left ? acceptKeywords({"LEFT", "ARRAY", "JOIN"}) : acceptKeywords({"ARRAY", "JOIN"})))
        {
            return std::nullopt;
        }
        ArrayJoinClause clause;
        clause.left = left;
        clause.array = expression();
        if (acceptKeyword("AS"))
        {
            clause.alias = expectName("alias");
        }
        else if (const auto* column = clause.array->as<ColumnRef>())
        {
            clause.alias = column->name;
        }
        else
        {
            expecting("AS alias");
            fail();
        }
        if (atKind(TokenKind::Comma))
        {
            failAt(current().position, "ARRAY JOIN of more than one array is not supported");
        }
        return clause;
    }

    SelectItem selectItem()
    {
        if (atKind(TokenKind::Star))
        {
            return {expressionNode(Asterisk{}, advance().position), std::nullopt};
        }
        expecting(describeTokenKind(TokenKind::Star));
        SelectItem item{expression(), std::nullopt};
        if (acceptKeyword("AS"))
        {
            item.alias = expectName("alias");
        }
        else if (atName())
        {
            item.alias = expectName("alias");
        }
        else
        {
            expecting("alias");
        }
        return item;
    }

    uint64_t rowCount()
    {
        if (!atKind(TokenKind::Integer))
        {
            expecting("non-negative integer");
            fail();
        }
        return advance().integer_value;
    }

    CreateTableStatement createTableBody(const SourcePosition& position)
    {
        CreateTableStatement create;
        create.position = position;
        create.or_replace = acceptKeywords({"OR", "REPLACE"});
        expectKeyword("TABLE");
        create.if_not_exists = acceptKeywords({"IF", "NOT", "EXISTS"});
        create.table = expectName("table name");
        expect(TokenKind::LeftParen);
        do
        {
            const SourcePosition element = current().position;
            if (acceptKeywords({"PRIMARY", "KEY"}))
            {
                setOnce(create.primary_key, keyList(), element, "PRIMARY KEY");
            }
            else if (atIndexDefinition())
            {
                create.indexes.push_back(indexDefinition());
            }
            else
            {
                for (ColumnDefinition& column : columnDefinitions())
                {
                    create.columns.push_back(std::move(column));
                }
            }
        } while (accept(TokenKind::Comma));
        expect(TokenKind::RightParen);
        storageClauses(create);
        return create;
    }

    /// ENGINE, ORDER BY, PRIMARY KEY, PARTITION BY, TTL and SETTINGS, in any order, each at
    /// most once.
    void storageClauses(CreateTableStatement& create)
    {
        while (true)
        {
            const SourcePosition clause = current().position;
            if (acceptKeyword("ENGINE"))
            {
                if (create.engine)
                {
                    failAt(clause, "ENGINE is given twice");
                }
                expect(TokenKind::Equals);
                create.engine = expectName("engine name");
                if (accept(TokenKind::LeftParen) && !accept(TokenKind::RightParen))
                {
                    create.engine_arguments = expressionList();
                    expect(TokenKind::RightParen);
                }
            }
            else if (acceptKeywords({"ORDER", "BY"}))
            {
                setOnce(create.order_by, keyList(), clause, "ORDER BY");
            }
            else if (acceptKeywords({"PRIMARY", "KEY"}))
            {
                setOnce(create.primary_key, keyList(), clause, "PRIMARY KEY");
            }
            else if (acceptKeywords({"PARTITION", "BY"}))
            {
                setOnce(create.partition_by, clause, "PARTITION BY");
            }
            else if (acceptKeyword("TTL"))
            {
                setOnce(create.ttl, clause, "TTL");
            }
            else if (acceptKeyword("SETTINGS"))
            {
                if (!create.settings.empty())
                {
                    failAt(clause, "SETTINGS is given twice");
                }
                do
                {
                    Setting setting;
                    setting.name = expectName("setting name");
                    expect(TokenKind::Equals);
                    setting.value = literalValue();
                    create.settings.push_back(std::move(setting));
                } while (accept(TokenKind::Comma));
            }
            else
            {
                return;
            }
        }
    }

    /// Key lists are never empty once given, so an empty one means "not given yet".
    void setOnce(std::vector<ExpressionPtr>& target, std::vector<ExpressionPtr> keys,
                 const SourcePosition& clause, std::string_view name) const
    {
        if (!target.empty())
        {
            failAt(clause, std::string(name) + " is given twice");
        }
        target = std::move(keys);
    }

    void setOnce(ExpressionPtr& target, const SourcePosition& clause, std::string_view name)
    {
        if (target)
        {
            failAt(clause, std::string(name) + " is given twice");
        }
        target = expression();
    }

    /// (key, key...) or a single key expression.
    std::vector<ExpressionPtr> keyList()
    {
        if (accept(TokenKind::LeftParen))
        {
            std::vector<ExpressionPtr> keys = expressionList();
            expect(TokenKind::RightParen);
            return keys;
        }
        return {expression()};
    }

    /// One column, or the columns of `name Nested(field Type, ...)`: `name.field Array(Type)`
    /// each, as ClickHouse stores them.
    std::vector<ColumnDefinition> columnDefinitions()
    {
        const std::string name = expectName("column name");
        if (atKeyword("Nested") && atKind(TokenKind::LeftParen, 1))
        {
            advance();
            advance();
            std::vector<ColumnDefinition> fields;
            do
            {
                ColumnDefinition field;
                field.name = name + "." + expectName("Nested field name");
                field.type = DataType::array(dataType());
                fields.push_back(std::move(field));
            } while (accept(TokenKind::Comma));
            expect(TokenKind::RightParen);
            columnOptions(fields.back());
            for (size_t i = 0; i + 1 < fields.size(); ++i)
            {
                fields[i].codec = fields.back().codec;
            }
            return fields;
        }
        ColumnDefinition column;
        column.name = name;
        column.type = dataType();
        column.not_null = acceptKeywords({"NOT", "NULL"});
        if (!column.not_null && atKeyword("NULL"))
        {
            // `T NULL` is Nullable(T), as in ClickHouse (and what SQL columns are by default).
            const SourcePosition position = advance().position;
            if (isNested(column.type.id) || column.type.low_cardinality ||
                column.type.isAggregateState())
            {
                failAt(position, "a column of " + dataTypeName(column.type) +
                                     " cannot be NULL (Nullable takes a scalar type)");
            }
            column.type = DataType::makeNullable(std::move(column.type));
        }
        if (acceptKeyword("DEFAULT"))
        {
            column.default_value = expression();
        }
        columnOptions(column);
        return {std::move(column)};
    }

    void columnOptions(ColumnDefinition& column)
    {
        if (acceptKeyword("CODEC"))
        {
            column.codec = codecSpecification();
        }
    }

    /// `INDEX name expression TYPE type GRANULARITY n`. A column may be called `index`
    /// too: then the word after the name is a type.
    bool atIndexDefinition() const
    {
        return atKeyword("INDEX") &&
               (atKind(TokenKind::Word, 1) || atKind(TokenKind::QuotedIdentifier, 1)) &&
               !isTypeName(ahead(1).text);
    }

    IndexDefinition indexDefinition()
    {
        expectKeyword("INDEX");
        IndexDefinition index;
        index.name = expectName("index name");
        index.expression = expression();
        expectKeyword("TYPE");
        index.type = expression();
        expectKeyword("GRANULARITY");
        if (!atKind(TokenKind::Integer) || current().integer_value == 0)
        {
            expecting("positive granularity");
            fail();
        }
        index.granularity = advance().integer_value;
        return index;
    }

    /// `(NAME[(level)], ...)` as written ("Delta, ZSTD(1)"): the storage layer knows the
    /// codecs.
    std::string codecSpecification()
    {
        expect(TokenKind::LeftParen);
        std::string codec;
        do
        {
            codec += codec.empty() ? "" : ", ";
            codec += expectName("codec name");
            if (accept(TokenKind::LeftParen))
            {
                if (!atKind(TokenKind::Integer))
                {
                    expecting("codec level");
                    fail();
                }
                codec += "(" + std::string(advance().text) + ")";
                expect(TokenKind::RightParen);
            }
        } while (accept(TokenKind::Comma));
        expect(TokenKind::RightParen);
        return codec;
    }

    /// A SQL type name (INT, VARCHAR(255), DOUBLE PRECISION...) or a ClickHouse one with its
    /// parameters (DateTime64(9), Map(LowCardinality(String), String)), which data_type.h
    /// parses from the text between the name and its closing parenthesis.
    DataType dataType()
    {
        if (!atKind(TokenKind::Word))
        {
            expecting("data type");
            fail();
        }
        const Token& name = advance();
        if (atKind(TokenKind::LeftParen) && !sqlTypeTakesLength(name.text))
        {
            const std::string_view text = balancedText(name);
            try
            {
                return parseDataType(text);
            }
            catch (const Exception& error)
            {
                failAt(name.position, error.what());
            }
        }
        if (name.text == "DateTime64" || name.text == "Boolean" || name.text == "JSON")
        {
            return parseDataType(name.text);
        }
        const std::optional<TypeId> type = typeFromSqlName(name.text);
        if (!type)
        {
            failAt(name.position, "unknown data type '" + std::string(name.text) + "'");
        }
        if (equalsIgnoringCase(name.text, "DOUBLE"))
        {
            acceptKeyword("PRECISION");
        }
        if (sqlTypeTakesLength(name.text) && accept(TokenKind::LeftParen))
        {
            if (!atKind(TokenKind::Integer) || current().integer_value == 0)
            {
                expecting("positive length");
                fail();
            }
            advance();
            expect(TokenKind::RightParen);
        }
        return *type;
    }

    /// The query text from `first` through the parenthesis closing the one after it.
    std::string_view balancedText(const Token& first)
    {
        size_t depth = 0;
        const char* end = first.text.data() + first.text.size();
        do
        {
            if (atKind(TokenKind::EndOfInput))
            {
                expecting(")");
                fail();
            }
            depth += atKind(TokenKind::LeftParen) ? 1 : 0;
            depth -= atKind(TokenKind::RightParen) ? 1 : 0;
            const Token& token = advance();
            end = token.text.data() + token.text.size();
        } while (depth > 0);
        return {first.text.data(), static_cast<size_t>(end - first.text.data())};
    }

    /// A setting's value: a number (possibly negative) or a string.
    LiteralValue literalValue()
    {
        if (atKind(TokenKind::String))
        {
            return advance().decoded;
        }
        if (atKind(TokenKind::Minus) && negatable(ahead(1)))
        {
            advance();
            return negated(advance());
        }
        if (atKind(TokenKind::Integer))
        {
            return advance().integer_value;
        }
        if (atKind(TokenKind::Float))
        {
            return advance().float_value;
        }
        expecting("literal");
        fail();
    }

    InsertStatement insertBody(const SourcePosition& position)
    {
        InsertStatement insert;
        insert.position = position;
        expectKeyword("INTO");
        insert.table = expectName("table name");
        if (accept(TokenKind::LeftParen))
        {
            do
            {
                insert.columns.push_back(expectName("column name"));
            } while (accept(TokenKind::Comma));
            expect(TokenKind::RightParen);
        }
        if (atQuery())
        {
            insert.select = std::make_shared<SelectStatement>(selectQuery());
            return insert;
        }
        if (acceptKeywords({"FROM", "INFILE"}))
        {
            insert.infile = expect(TokenKind::String).decoded;
            if (acceptKeyword("FORMAT"))
            {
                insert.format = expectName("format name");
            }
        }
        else if (acceptKeyword("VALUES"))
        {
            // Native-protocol clients send `INSERT ... VALUES` and the rows as blocks.
            insert.format = "Values";
            while (atKind(TokenKind::LeftParen))
            {
                insert.rows.push_back(parenthesizedList());
                accept(TokenKind::Comma);
            }
        }
        else
        {
            expectKeyword("FORMAT");
            insert.format = expectName("format name");
        }
        return insert;
    }

    // ---- Expressions, lowest precedence first ----

    ExpressionPtr expressionNode(Expression::Node node, const SourcePosition& position) const
    {
        ExpressionPtr built = makeExpression(std::move(node), position);
        if (built->height > kMaxExpressionDepth)
        {
            failNesting(position);
        }
        return built;
    }

    ExpressionPtr binaryNode(BinaryOperator op, ExpressionPtr left, ExpressionPtr right,
                             const SourcePosition& position) const
    {
        return expressionNode(BinaryOperation{op, std::move(left), std::move(right)}, position);
    }

    std::vector<ExpressionPtr> expressionList()
    {
        std::vector<ExpressionPtr> list;
        do
        {
            list.push_back(expression());
        } while (accept(TokenKind::Comma));
        return list;
    }

    ExpressionPtr expression()
    {
        ExpressionPtr left = conjunction();
        while (atKeyword("OR"))
        {
            const SourcePosition position = advance().position;
            left = binaryNode(BinaryOperator::Or, std::move(left), conjunction(), position);
        }
        expecting("operator");
        return left;
    }

    ExpressionPtr conjunction()
    {
        ExpressionPtr left = negation();
        while (atKeyword("AND"))
        {
            const SourcePosition position = advance().position;
            left = binaryNode(BinaryOperator::And, std::move(left), negation(), position);
        }
        return left;
    }

    ExpressionPtr negation()
    {
        if (!atKeyword("NOT"))
        {
            return comparison();
        }
        const SourcePosition position = advance().position;
        NestingGuard guard(*this);
        return expressionNode(UnaryOperation{UnaryOperator::Not, negation()}, position);
    }

    /// Comparisons, [NOT] LIKE, [NOT] ILIKE and [NOT] IN, left-associative as in ClickHouse.
    ExpressionPtr comparison()
    {
        ExpressionPtr left = additive();
        while (true)
        {
            const SourcePosition position = current().position;
            if (const std::optional<BinaryOperator> op =
                    operatorFor(kComparisonOperators, current().kind))
            {
                advance();
                left = binaryNode(*op, std::move(left), additive(), position);
                continue;
            }
            const bool negated =
                atKeyword("NOT") && (atKeyword("LIKE", 1) || atKeyword("ILIKE", 1) ||
                                     atKeyword("IN", 1) || atKeyword("BETWEEN", 1));
            if (negated)
            {
                advance();
            }
            if (atKeyword("BETWEEN"))
            {
                left = between(std::move(left), negated);
            }
            else if (atKeyword("LIKE") || atKeyword("ILIKE"))
            {
                const bool case_insensitive = atKeyword("ILIKE");
                advance();
                const BinaryOperator op =
                    case_insensitive ? (negated ? BinaryOperator::NotILike : BinaryOperator::ILike)
                                     : (negated ? BinaryOperator::NotLike : BinaryOperator::Like);
                left = binaryNode(op, std::move(left), additive(), position);
            }
            else if (atKeyword("IS") && !negated)
            {
                // `x IS [NOT] NULL` is ClickHouse's isNull(x) / isNotNull(x).
                advance();
                const bool is_not = acceptKeyword("NOT");
                expectKeyword("NULL");
                left = expressionNode(
                    FunctionCall{is_not ? "isNotNull" : "isNull", {std::move(left)}, false},
                    position);
            }
            else if (atKeyword("IN"))
            {
                advance();
                std::vector<ExpressionPtr> list;
                if (atKind(TokenKind::LeftParen) && atQuery(1))
                {
                    list.push_back(subquery());
                }
                else
                {
                    list = parenthesizedList();
                }
                left = expressionNode(InList{std::move(left), std::move(list), negated}, position);
            }
            else
            {
                return left;
            }
        }
    }

    /// `value [NOT] BETWEEN low AND high` as ClickHouse reads it: value >= low AND value <=
    /// high (NOT (...) when negated). The caller saw BETWEEN.
    ExpressionPtr between(ExpressionPtr value, bool negated)
    {
        const SourcePosition position = advance().position;
        ExpressionPtr low = additive();
        expectKeyword("AND");
        ExpressionPtr high = additive();
        ExpressionPtr both = binaryNode(
            BinaryOperator::And, binaryNode(BinaryOperator::GreaterOrEquals, value, low, position),
            binaryNode(BinaryOperator::LessOrEquals, value, high, position), position);
        if (!negated)
        {
            return both;
        }
        return expressionNode(UnaryOperation{UnaryOperator::Not, std::move(both)}, position);
    }

    std::vector<ExpressionPtr> parenthesizedList()
    {
        expect(TokenKind::LeftParen);
        NestingGuard guard(*this);
        std::vector<ExpressionPtr> list = expressionList();
        expect(TokenKind::RightParen);
        return list;
    }

    template <size_t N>
    ExpressionPtr binaryChain(const std::array<OperatorToken, N>& operators,
                              ExpressionPtr (Parser::*operand)())
    {
        ExpressionPtr left = (this->*operand)();
        while (const std::optional<BinaryOperator> op = operatorFor(operators, current().kind))
        {
            const SourcePosition position = advance().position;
            left = binaryNode(*op, std::move(left), (this->*operand)(), position);
        }
        return left;
    }

    ExpressionPtr additive() { return binaryChain(kAdditiveOperators, &Parser::multiplicative); }
    ExpressionPtr multiplicative() { return binaryChain(kMultiplicativeOperators, &Parser::unary); }

    static bool negatable(const Token& token)
    {
        return token.kind == TokenKind::Float ||
               (token.kind == TokenKind::Integer && token.integer_value <= kMaxNegatableInteger);
    }

    /// The literal -number; -0 stays UInt64 0, as 0 is.
    static LiteralValue negated(const Token& number)
    {
        if (number.kind == TokenKind::Float)
        {
            return -number.float_value;
        }
        if (number.integer_value == 0)
        {
            return uint64_t{0};
        }
        return -static_cast<int64_t>(number.integer_value - 1) - 1;
    }

    /// A minus directly before a number makes a negative literal (so IN (-1, 6) holds two
    /// literals); before anything else it negates.
    ExpressionPtr unary()
    {
        if (!atKind(TokenKind::Minus))
        {
            return subscripts(primary());
        }
        const SourcePosition position = advance().position;
        if (negatable(current()))
        {
            return expressionNode(Literal{negated(advance())}, position);
        }
        NestingGuard guard(*this);
        return expressionNode(UnaryOperation{UnaryOperator::Negate, unary()}, position);
    }

    /// `value[index]...`: ClickHouse's arrayElement(value, index), for arrays and maps.
    ExpressionPtr subscripts(ExpressionPtr value)
    {
        while (atKind(TokenKind::LeftBracket))
        {
            const SourcePosition position = advance().position;
            NestingGuard guard(*this);
            ExpressionPtr index = expression();
            expect(TokenKind::RightBracket);
            value = expressionNode(
                FunctionCall{"arrayElement", {std::move(value), std::move(index)}, false},
                position);
        }
        return value;
    }

    ExpressionPtr primary()
    {
        const Token& token = current();
        const SourcePosition position = token.position;
        switch (token.kind)
        {
            case TokenKind::Integer:
                advance();
                return expressionNode(Literal{token.integer_value}, position);
            case TokenKind::Float:
                advance();
                return expressionNode(Literal{token.float_value}, position);
            case TokenKind::String:
                advance();
                return expressionNode(Literal{token.decoded}, position);
            case TokenKind::LeftParen:
            {
                if (atQuery(1))
                {
                    return subquery();
                }
                advance();
                NestingGuard guard(*this);
                ExpressionPtr inner = expression();
                expect(TokenKind::RightParen);
                return inner;
            }
            case TokenKind::Word:
                if (atKeyword("CASE"))
                {
                    return caseExpression();
                }
                if (atKeyword("EXTRACT") && atKind(TokenKind::LeftParen, 1) &&
                    atKind(TokenKind::Word, 2) && atKeyword("FROM", 3))
                {
                    return extract();
                }
                if (atKeyword("INTERVAL") && !atKind(TokenKind::LeftParen, 1) &&
                    !atKind(TokenKind::Dot, 1))
                {
                    return interval();
                }
                if (atKeyword("NULL"))
                {
                    advance();
                    return expressionNode(Literal{NullValue{}}, position);
                }
                if (isReservedKeyword(token.text))
                {
                    break;
                }
                return nameOrCall(std::string(token.text));
            case TokenKind::QuotedIdentifier:
                return nameOrCall(token.decoded);
            default:
                break;
        }
        expecting("expression");
        fail();
    }

    /// `(query)` as a value.
    ExpressionPtr subquery()
    {
        const SourcePosition position = current().position;
        return expressionNode(Subquery{parenthesizedQuery()}, position);
    }

    ExpressionPtr nameOrCall(std::string name)
    {
        const SourcePosition position = advance().position;
        // a.b.c is one name: a Nested column's field, or a path of a JSON column.
        while (atKind(TokenKind::Dot) &&
               ((atKind(TokenKind::Word, 1) && !isReservedKeyword(ahead(1).text)) ||
                atKind(TokenKind::QuotedIdentifier, 1)))
        {
            advance();
            const Token& part = advance();
            name += '.';
            name +=
                part.kind == TokenKind::QuotedIdentifier ? part.decoded : std::string(part.text);
        }
        // Not accept(): a '(' is not worth listing among the expectations after every name.
        if (!atKind(TokenKind::LeftParen))
        {
            return expressionNode(ColumnRef{std::move(name)}, position);
        }
        advance();
        NestingGuard guard(*this);
        if (equalsIgnoringCase(name, "CAST") && !atKind(TokenKind::RightParen))
        {
            return castCall(std::move(name), position);
        }
        FunctionCall call{std::move(name), {}, false};
        callArguments(call);
        // f(parameters)(arguments): what was read were a parametric aggregate's parameters.
        if (!call.distinct && atKind(TokenKind::LeftParen))
        {
            advance();
            call.parametric = true;
            call.parameters = std::move(call.arguments);
            call.arguments.clear();
            callArguments(call);
        }
        if (atKeyword("FILTER") && atKind(TokenKind::LeftParen, 1))
        {
            advance();
            advance();
            expectKeyword("WHERE");
            call.filter = expression();
            expect(TokenKind::RightParen);
        }
        return expressionNode(std::move(call), position);
    }

    /// `CAST(x AS T)` as ClickHouse reads it, CAST(x, 'T'), or `CAST(x, 'T')` itself; the
    /// caller read `CAST (`.
    ExpressionPtr castCall(std::string name, const SourcePosition& position)
    {
        FunctionCall call{std::move(name), {expression()}, false};
        if (acceptKeyword("AS"))
        {
            const SourcePosition type_position = current().position;
            call.arguments.push_back(
                expressionNode(Literal{dataTypeName(dataType())}, type_position));
        }
        else
        {
            expect(TokenKind::Comma);
            call.arguments.push_back(expression());
        }
        expect(TokenKind::RightParen);
        return expressionNode(std::move(call), position);
    }

    /// A call's parenthesised arguments, after its '(': *, DISTINCT x, a list, or none.
    void callArguments(FunctionCall& call)
    {
        if (atKind(TokenKind::Star))
        {
            call.arguments.push_back(expressionNode(Asterisk{}, advance().position));
        }
        else
        {
            expecting(describeTokenKind(TokenKind::Star));
            call.distinct = acceptKeyword("DISTINCT");
            const bool no_arguments = !call.distinct && atKind(TokenKind::RightParen);
            if (!no_arguments)
            {
                if (!call.distinct)
                {
                    expecting(describeTokenKind(TokenKind::RightParen));
                }
                call.arguments = expressionList();
            }
        }
        expect(TokenKind::RightParen);
    }

    /// INTERVAL n UNIT, as ClickHouse reads it: toIntervalUnit(n).
    ExpressionPtr interval()
    {
        const SourcePosition position = advance().position;
        ExpressionPtr count = unary();
        if (!atKind(TokenKind::Word) || !intervalUnitByKeyword(current().text))
        {
            expecting("interval unit (SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR)");
            fail();
        }
        const IntervalUnit unit = *intervalUnitByKeyword(advance().text);
        FunctionCall call;
        call.name = "toInterval" + std::string(intervalUnitName(unit));
        call.arguments.push_back(std::move(count));
        return expressionNode(std::move(call), position);
    }

    ExpressionPtr caseExpression()
    {
        const SourcePosition position = advance().position;
        NestingGuard guard(*this);
        CaseExpression case_expression;
        if (!atKeyword("WHEN"))
        {
            expecting("WHEN");
            case_expression.operand = expression();
        }
        expectKeyword("WHEN");
        do
        {
            ExpressionPtr condition = expression();
            expectKeyword("THEN");
            case_expression.branches.push_back({std::move(condition), expression()});
        } while (acceptKeyword("WHEN"));
        if (acceptKeyword("ELSE"))
        {
            case_expression.else_result = expression();
        }
        expectKeyword("END");
        return expressionNode(std::move(case_expression), position);
    }

    /// extract(part FROM source); the caller saw `extract ( word FROM`.
    ExpressionPtr extract()
    {
        const SourcePosition position = advance().position;
        advance();
        const Token& part_name = advance();
        const std::optional<DatePart> part = datePartFromName(part_name.text);
        if (!part)
        {
            failAt(part_name.position,
                   "unknown date part '" + std::string(part_name.text) +
                       "' in extract: expected YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE or "
                       "SECOND");
        }
        advance();
        NestingGuard guard(*this);
        ExpressionPtr source = expression();
        expect(TokenKind::RightParen);
        return expressionNode(Extract{*part, std::move(source)}, position);
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    size_t index_ = 0;
    size_t depth_ = 0;
    /// What the checks at the current token looked for, in the order they looked.
    std::vector<std::string> expected_;
};

}  // namespace

Statement parseStatement(std::string_view text)
{
    return Parser(text).singleStatement();
}

std::vector<Statement> parseScript(std::string_view text)
{
    return Parser(text).script();
}

SelectStatement parseSelect(std::string_view text)
{
    return Parser(text).singleSelect();
}

ExpressionPtr parseExpression(std::string_view text)
{
    return Parser(text).singleExpression();
}

}  // namespace granary::sql
