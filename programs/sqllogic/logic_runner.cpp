#include "programs/sqllogic/logic_runner.h"

#include <sstream>

#include "engine/common/exception.h"
#include "engine/formats/output_format.h"
#include "engine/formats/text_escaping.h"
#include "engine/formats/value_text.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary::sqllogic
{
namespace
{

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const std::string& line : lines)
    {
        text += "\n    " + line;
    }
    return text;
}

std::string mismatch(const std::vector<std::string>& expected, const std::vector<std::string>& got)
{
    return "expected " + std::to_string(expected.size()) + " rows:" + joinLines(expected) +
           "\n  got " + std::to_string(got.size()) + ":" + joinLines(got);
}

/// What one record did on Granary: nullopt when as expected, else why not.
std::optional<std::string> checkRecord(const Record& record, Session& session,
                                       const QueryOptions& options)
{
    QueryResult result;
    try
    {
        result = session.execute(record.sql, options);
    }
    catch (const Exception& error)
    {
        const std::string got = std::to_string(static_cast<int>(error.code())) + " (" +
                                std::string(errorCodeName(error.code())) + "): " + error.what();
        if (record.kind != Record::Kind::kStatementError)
        {
            return "unexpected error " + got;
        }
        if (static_cast<int>(error.code()) != record.error_code ||
            std::string_view(error.what()).find(record.error_text) == std::string_view::npos)
        {
            return "expected error " + std::to_string(record.error_code) + " '" +
                   record.error_text + "', got " + got;
        }
        return std::nullopt;
    }
    if (record.kind == Record::Kind::kStatementError)
    {
        return "expected error " + std::to_string(record.error_code) + ", but it succeeded";
    }
    if (record.kind == Record::Kind::kStatementOk)
    {
        return std::nullopt;
    }
    if (!record.has_expected)
    {
        return "no expected rows: run granary sqllogic --generate";
    }
    std::ostringstream tsv;
    writeBlockRows(result.block, OutputFormat::kTSV, tsv);
    std::ostringstream totals;
    if (result.totals)
    {
        writeBlockRows(*result.totals, OutputFormat::kTSV, totals);
    }
    const std::vector<std::string> got = resultLines(tsv.str(), record.row_sort, totals.str());
    std::vector<std::string> expected = record.expected;
    sortExpectedLines(expected, record.row_sort);
    if (got != expected)
    {
        return mismatch(expected, got);
    }
    return std::nullopt;
}

/// A DuckDB value as Granary's TSV writes the same value.
void appendTsvValue(const clickbench::Value& value, std::string& out)
{
    using Kind = clickbench::Value::Kind;
    switch (value.kind)
    {
        case Kind::Null:
            out += "\\N";
            return;
        case Kind::Integer:
        {
            // Signed 128-bit in decimal (DuckDB's HUGEINT sums).
            __int128 magnitude = value.integer < 0 ? -value.integer : value.integer;
            std::string digits;
            do
            {
                digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
                magnitude /= 10;
            } while (magnitude != 0);
            out += (value.integer < 0 ? "-" : "") + digits;
            return;
        }
        case Kind::Float:
            appendFloat(value.real, out);
            return;
        case Kind::String:
            appendTsvEscaped(value.text, out);
            return;
        case Kind::Date:
            formatDate(static_cast<uint16_t>(value.integer), out);
            return;
        case Kind::Timestamp:
            formatDateTime(static_cast<uint32_t>(value.integer / 1'000'000), out);
            return;
        case Kind::List:
            out += '[';
            for (size_t i = 0; i < value.elements.size(); ++i)
            {
                out += i == 0 ? "" : ",";
                const bool quoted = value.elements[i].kind == Kind::String;
                out += quoted ? "\\'" : "";
                appendTsvValue(value.elements[i], out);
                out += quoted ? "\\'" : "";
            }
            out += ']';
            return;
    }
}

}  // namespace

std::vector<Failure> runOnGranary(const LogicFile& file, size_t threads)
{
    Session session(Database::openInMemory());
    QueryOptions options;
    options.threads = threads;
    std::vector<Failure> failures;
    for (const Record& record : file.records)
    {
        if (std::optional<std::string> failure = checkRecord(record, session, options))
        {
            failures.push_back({record.line, std::move(*failure)});
        }
    }
    return failures;
}

std::vector<Failure> fillExpectedFromDuckDb(LogicFile& file, clickbench::DuckDbClient& duckdb)
{
    std::vector<Failure> failures;
    for (Record& record : file.records)
    {
        if (record.granary_only || record.kind == Record::Kind::kStatementError)
        {
            continue;
        }
        try
        {
            if (record.kind == Record::Kind::kStatementOk)
            {
                duckdb.execute(record.sql);
                continue;
            }
            const clickbench::ResultTable table = duckdb.query(record.sql).table;
            std::string tsv;
            for (const std::vector<clickbench::Value>& row : table.rows)
            {
                for (size_t c = 0; c < row.size(); ++c)
                {
                    tsv += c == 0 ? "" : "\t";
                    appendTsvValue(row[c], tsv);
                }
                tsv += '\n';
            }
            record.expected = resultLines(tsv, record.row_sort);
            record.has_expected = true;
        }
        catch (const Exception& error)
        {
            failures.push_back({record.line, std::string("DuckDB: ") + error.what()});
        }
    }
    return failures;
}

std::string describeFailures(const LogicFile& file, const std::vector<Failure>& failures)
{
    std::string text;
    for (const Failure& failure : failures)
    {
        text +=
            file.path.string() + ":" + std::to_string(failure.line) + ": " + failure.message + "\n";
    }
    return text;
}

}  // namespace granary::sqllogic
