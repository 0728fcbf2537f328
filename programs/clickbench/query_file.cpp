#include "programs/clickbench/query_file.h"

#include <fstream>
#include <sstream>

#include "engine/common/exception.h"

namespace granary::clickbench
{

namespace
{

/// Length of the quoted text or comment starting at text[position], or 0 if none starts there.
size_t skippableLength(std::string_view text, size_t position)
{
    const char first = text[position];
    if (first == '\'' || first == '"' || first == '`')
    {
        size_t end = position + 1;
        while (end < text.size())
        {
            if (text[end] == '\\' && first == '\'')
            {
                end += 2;
                continue;
            }
            if (text[end] == first)
            {
                if (end + 1 < text.size() && text[end + 1] == first)
                {
                    end += 2;
                    continue;
                }
                return end + 1 - position;
            }
            ++end;
        }
        return text.size() - position;
    }
    if (text.substr(position, 2) == "--")
    {
        const size_t end = text.find('\n', position);
        return (end == std::string_view::npos ? text.size() : end) - position;
    }
    if (text.substr(position, 2) == "/*")
    {
        const size_t end = text.find("*/", position + 2);
        return (end == std::string_view::npos ? text.size() : end + 2) - position;
    }
    return 0;
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// The query with its leading blanks and comments and its trailing blanks removed; empty if
/// nothing else is left.
std::string trimQuery(std::string_view piece)
{
    size_t begin = 0;
    while (begin < piece.size())
    {
        if (isBlank(piece[begin]))
        {
            ++begin;
        }
        else if (piece.substr(begin, 2) == "--" || piece.substr(begin, 2) == "/*")
        {
            begin += skippableLength(piece, begin);
        }
        else
        {
            break;
        }
    }
    size_t end = piece.size();
    while (end > begin && isBlank(piece[end - 1]))
    {
        --end;
    }
    return std::string(piece.substr(begin, end - begin));
}

void addQuery(std::vector<std::string>& queries, std::string_view piece)
{
    std::string query = trimQuery(piece);
    if (!query.empty())
    {
        queries.push_back(std::move(query));
    }
}

}  // namespace

std::vector<std::string> splitQueries(std::string_view text)
{
    std::vector<std::string> queries;
    bool has_separator = false;
    size_t start = 0;
    size_t position = 0;
    while (position < text.size())
    {
        if (const size_t skip = skippableLength(text, position); skip != 0)
        {
            position += skip;
        }
        else if (text[position] == ';')
        {
            has_separator = true;
            addQuery(queries, text.substr(start, position - start));
            start = ++position;
        }
        else
        {
            ++position;
        }
    }
    if (has_separator)
    {
        addQuery(queries, text.substr(start));
        return queries;
    }
    size_t line_start = 0;
    while (line_start <= text.size())
    {
        size_t line_end = text.find('\n', line_start);
        if (line_end == std::string_view::npos)
        {
            line_end = text.size();
        }
        addQuery(queries, text.substr(line_start, line_end - line_start));
        line_start = line_end + 1;
    }
    return queries;
}

std::vector<std::string> readQueryFile(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot read query file " + path.string());
    }
    std::ostringstream text;
    text << file.rdbuf();
    std::vector<std::string> queries = splitQueries(text.str());
    if (queries.empty())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "query file " + path.string() + " holds no query");
    }
    return queries;
}

std::filesystem::path duckDbTwinOf(const std::filesystem::path& queries)
{
    std::string name = queries.filename().string();
    if (const size_t found = name.find("clickhouse"); found != std::string::npos)
    {
        name.replace(found, std::string_view("clickhouse").size(), "duckdb");
    }
    else
    {
        name = queries.stem().string() + ".duckdb" + queries.extension().string();
    }
    std::filesystem::path twin = queries.parent_path() / name;
    std::error_code error;
    return std::filesystem::is_regular_file(twin, error) ? twin : std::filesystem::path{};
}

}  // namespace granary::clickbench
