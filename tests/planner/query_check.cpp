#include "tests/planner/query_check.h"

#include "engine/common/exception.h"
#include "engine/sql/parser.h"
#include "tests/planner/oracle_value.h"
#include "tests/planner/result_check.h"

namespace granary::oracle
{

std::string differenceForQuery(Session& session, const RowTable& table, std::string_view sql,
                               const QueryOptions& options)
{
    return differenceForQuery(session, evaluateNaively(sql::parseSelect(sql), table), sql, options);
}

std::string differenceForQuery(Session& session, const NaiveResult& expected, std::string_view sql,
                               const QueryOptions& options)
{
    try
    {
        const QueryResult result = session.execute(sql, options);
        return differenceFromOracle(result.block, expected);
    }
    catch (const Exception& error)
    {
        return "engine threw " + std::string(errorCodeName(error.code())) + ": " + error.what();
    }
}

std::string printedResult(const QueryResult& result)
{
    std::string text;
    for (const auto& column : result.block.columns)
    {
        text += column.name + ":" + std::string(typeName(column.column.type())) + "\t";
    }
    for (size_t row = 0; row < result.block.rows(); ++row)
    {
        text += '\n';
        for (const auto& column : result.block.columns)
        {
            text += describe(valueAt(column.column, row)) + "\t";
        }
    }
    return text;
}

}  // namespace granary::oracle
