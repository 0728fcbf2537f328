#pragma once

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace granary::sql
{

/// The ClickBench files are CC BY-NC-SA, so they stay out of the repository: tests read them
/// from GRANARY_CLICKBENCH_DIR (the environment variable, else the folder CMake found next to
/// the checkout) and skip when they are absent.
inline std::optional<std::string> readClickBenchFile(const std::string& name)
{
    const char* from_environment = std::getenv("GRANARY_CLICKBENCH_DIR");
    const std::string directory = from_environment ? from_environment : GRANARY_CLICKBENCH_DIR;
    std::ifstream file(directory + "/" + name, std::ios::binary);
    if (!file)
    {
        return std::nullopt;
    }
    std::ostringstream contents;
    contents << file.rdbuf();
    return contents.str();
}

/// The 43 queries, one per line: element i is Q(i+1).
inline std::optional<std::vector<std::string>> readClickBenchQueries()
{
    const std::optional<std::string> text = readClickBenchFile("clickhouse-queries.sql");
    if (!text)
    {
        return std::nullopt;
    }
    std::vector<std::string> queries;
    std::istringstream lines(*text);
    for (std::string line; std::getline(lines, line);)
    {
        if (!line.empty())
        {
            queries.push_back(line);
        }
    }
    return queries;
}

}  // namespace granary::sql
