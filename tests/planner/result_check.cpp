#include "tests/planner/result_check.h"

#include <algorithm>
#include <unordered_map>

namespace granary::oracle
{
namespace
{

enum class Kind
{
    Integer,
    Float,
    String,
    Date,
    DateTime,
};

Kind kindOf(const Value& value)
{
    if (isIntegerValue(value))
    {
        return Kind::Integer;
    }
    if (std::holds_alternative<double>(value))
    {
        return Kind::Float;
    }
    if (std::holds_alternative<std::string>(value))
    {
        return Kind::String;
    }
    return std::holds_alternative<DateValue>(value) ? Kind::Date : Kind::DateTime;
}

/// The parts of a row that must match exactly (floats left out), as a hash key; integers of
/// either signedness spell the same.
std::string exactPart(const Row& row)
{
    std::string key;
    for (const Value& value : row)
    {
        key += std::to_string(static_cast<int>(kindOf(value)));
        if (const auto* text = std::get_if<std::string>(&value))
        {
            key += std::to_string(text->size()) + ":" + *text;
        }
        else if (!std::holds_alternative<double>(value))
        {
            const __int128 number = exactInteger(value);
            key += (number < 0 ? "-" : "+") +
                   std::to_string(static_cast<uint64_t>(number < 0 ? -number : number));
        }
        key += '|';
    }
    return key;
}

bool rowsMatch(const Row& left, const Row& right)
{
    if (left.size() != right.size())
    {
        return false;
    }
    for (size_t c = 0; c < left.size(); ++c)
    {
        if (!approximatelyEqual(left[c], right[c]))
        {
            return false;
        }
    }
    return true;
}

}  // namespace

std::vector<Row> rowsOf(const Block& block)
{
    std::vector<Row> rows(block.rows());
    for (const Block::Entry& entry : block.columns)
    {
        for (size_t r = 0; r < rows.size(); ++r)
        {
            rows[r].push_back(valueAt(entry.column, r));
        }
    }
    return rows;
}

std::string differenceFromOracle(const Block& engine, const NaiveResult& expected)
{
    std::vector<std::string> names;
    for (const Block::Entry& entry : engine.columns)
    {
        names.push_back(entry.name);
    }
    if (names != expected.names)
    {
        std::string message = "column names differ: engine";
        for (const std::string& name : names)
        {
            message += " [" + name + "]";
        }
        message += ", oracle";
        for (const std::string& name : expected.names)
        {
            message += " [" + name + "]";
        }
        return message;
    }
    const std::vector<Row> rows = rowsOf(engine);
    const size_t total = expected.rows.size();
    const size_t begin = std::min<uint64_t>(expected.offset, total);
    const size_t end = expected.limit ? std::min<uint64_t>(total, begin + *expected.limit) : total;
    if (rows.size() != end - begin)
    {
        return "engine returned " + std::to_string(rows.size()) + " rows, oracle " +
               std::to_string(end - begin) + " (of " + std::to_string(total) +
               " before OFFSET/LIMIT)";
    }
    if (!rows.empty())
    {
        for (size_t c = 0; c < names.size(); ++c)
        {
            if (kindOf(rows[0][c]) != kindOf(expected.rows[begin].values[c]))
            {
                return "column " + names[c] + " has the wrong kind of value: engine " +
                       describe(rows[0][c]) + ", oracle " +
                       describe(expected.rows[begin].values[c]);
            }
        }
    }

    const bool ordered = !expected.descending.empty();
    auto same_key = [&](size_t a, size_t b)
    { return rowsMatch(expected.rows[a].sort_key, expected.rows[b].sort_key); };
    size_t run_begin = 0;
    while (run_begin < end)
    {
        size_t run_end = run_begin + 1;
        while (run_end < total && (!ordered || same_key(run_begin, run_end)))
        {
            ++run_end;
        }
        const size_t from = std::max(run_begin, begin);
        const size_t to = std::min(run_end, end);
        if (from < to)
        {
            std::unordered_map<std::string, std::vector<size_t>> candidates;
            for (size_t r = run_begin; r < run_end; ++r)
            {
                candidates[exactPart(expected.rows[r].values)].push_back(r);
            }
            for (size_t position = from; position < to; ++position)
            {
                const Row& row = rows[position - begin];
                std::vector<size_t>& bucket = candidates[exactPart(row)];
                const auto match =
                    std::find_if(bucket.begin(), bucket.end(),
                                 [&](size_t r) { return rowsMatch(row, expected.rows[r].values); });
                if (match == bucket.end())
                {
                    return "engine row " + std::to_string(position - begin) + " " + describe(row) +
                           " is not among the oracle's " + std::to_string(run_end - run_begin) +
                           " rows with its sort key " + describe(expected.rows[position].sort_key) +
                           "; the oracle has there " + describe(expected.rows[position].values);
                }
                bucket.erase(match);
            }
        }
        run_begin = run_end;
    }
    return "";
}

}  // namespace granary::oracle
