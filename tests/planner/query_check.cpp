#include "tests/planner/query_check.h"

#include "engine/common/exception.h"
#include "engine/sql/parser.h"
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

}  // namespace granary::oracle
