#include "programs/sqllogic/logic_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace granary::sqllogic
{
namespace
{

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    size_t begin = 0;
    while (begin < text.size())
    {
        const size_t end = std::min(text.find('\n', begin), text.size());
        lines.emplace_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return lines;
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

/// The line with every empty field (between tabs, or the whole line) written kEmptyField.
std::string markEmptyFields(std::string_view line)
{
    std::string marked;
    size_t begin = 0;
    while (true)
    {
        const size_t end = std::min(line.find('\t', begin), line.size());
        const std::string_view field = line.substr(begin, end - begin);
        marked += field.empty() ? kEmptyField : field;
        if (end == line.size())
        {
            return marked;
        }
        marked += '\t';
        begin = end + 1;
    }
}

class FileParser
{
public:
    FileParser(std::string_view text, const std::filesystem::path& path)
        : lines_(splitLines(text)), path_(path)
    {
    }

    LogicFile parse()
    {
        LogicFile file;
        file.path = path_;
        std::vector<std::string> comments;
        bool granary_only = false;
        for (; next_ < lines_.size(); ++next_)
        {
            const std::string& line = lines_[next_];
            if (isBlank(line))
            {
                continue;
            }
            if (line.starts_with('#'))
            {
                comments.push_back(line);
            }
            else if (line == "onlyif granary")
            {
                granary_only = true;
            }
            else
            {
                Record record = parseRecord();
                record.preamble = std::exchange(comments, {});
                record.granary_only = std::exchange(granary_only, false);
                file.records.push_back(std::move(record));
            }
        }
        file.trailing = std::move(comments);
        return file;
    }

private:
    [[noreturn]] void fail(const std::string& reason) const
    {
        throw std::runtime_error(path_.string() + ":" + std::to_string(next_ + 1) + ": " + reason);
    }

    /// The record whose kind line is lines_[next_]; leaves next_ on its last line.
    Record parseRecord()
    {
        Record record;
        record.line = next_ + 1;
        std::istringstream kind_line(lines_[next_]);
        std::string kind;
        std::string mode;
        kind_line >> kind >> mode;
        if (kind == "statement" && mode == "ok")
        {
            record.kind = Record::Kind::kStatementOk;
        }
        else if (kind == "statement" && mode == "error")
        {
            record.kind = Record::Kind::kStatementError;
            if (!(kind_line >> record.error_code))
            {
                fail("statement error needs an error code");
            }
            std::getline(kind_line >> std::ws, record.error_text);
        }
        else if (kind == "query" && (mode.empty() || mode == "nosort" || mode == "rowsort"))
        {
            record.kind = Record::Kind::kQuery;
            record.row_sort = mode == "rowsort";
        }
        else
        {
            fail("expected 'statement ok', 'statement error CODE' or 'query [nosort|rowsort]'");
        }
        ++next_;
        bool in_result = false;
        for (; next_ < lines_.size() && !isBlank(lines_[next_]); ++next_)
        {
            const std::string& line = lines_[next_];
            if (line == "----" && record.kind == Record::Kind::kQuery && !in_result)
            {
                in_result = true;
            }
            else if (in_result)
            {
                record.expected.push_back(line);
            }
            else
            {
                record.sql += (record.sql.empty() ? "" : "\n") + line;
            }
        }
        if (record.sql.empty())
        {
            fail("record without SQL");
        }
        record.has_expected = in_result;
        return record;
    }

    std::vector<std::string> lines_;
    std::filesystem::path path_;
    size_t next_ = 0;
};

}  // namespace

LogicFile parseLogicFile(std::string_view text, const std::filesystem::path& path)
{
    return FileParser(text, path).parse();
}

LogicFile readLogicFile(const std::filesystem::path& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error("cannot open " + path.string());
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parseLogicFile(text.str(), path);
}

std::string formatLogicFile(const LogicFile& file)
{
    std::string out;
    for (const Record& record : file.records)
    {
        out += out.empty() ? "" : "\n";
        for (const std::string& comment : record.preamble)
        {
            out += comment + "\n";
        }
        out += record.granary_only ? "onlyif granary\n" : "";
        switch (record.kind)
        {
            case Record::Kind::kStatementOk:
                out += "statement ok\n";
                break;
            case Record::Kind::kStatementError:
                out += "statement error " + std::to_string(record.error_code) +
                       (record.error_text.empty() ? "" : " " + record.error_text) + "\n";
                break;
            case Record::Kind::kQuery:
                out += record.row_sort ? "query rowsort\n" : "query nosort\n";
                break;
        }
        out += record.sql + "\n";
        if (record.kind == Record::Kind::kQuery)
        {
            out += "----\n";
            for (const std::string& line : record.expected)
            {
                out += line + "\n";
            }
        }
    }
    if (!file.trailing.empty())
    {
        out += "\n";
        for (const std::string& comment : file.trailing)
        {
            out += comment + "\n";
        }
    }
    return out;
}

std::vector<std::string> resultLines(std::string_view tsv, bool row_sort,
                                     std::string_view totals_tsv)
{
    std::vector<std::string> lines = splitLines(tsv);
    for (std::string& line : lines)
    {
        line = markEmptyFields(line);
    }
    if (row_sort)
    {
        std::sort(lines.begin(), lines.end());
    }
    for (const std::string& line : splitLines(totals_tsv))
    {
        lines.push_back(std::string(kTotalsPrefix) + markEmptyFields(line));
    }
    return lines;
}

void sortExpectedLines(std::vector<std::string>& lines, bool row_sort)
{
    const auto totals = std::stable_partition(lines.begin(), lines.end(),
                                              [](const std::string& line)
                                              { return !line.starts_with(kTotalsPrefix); });
    if (row_sort)
    {
        std::sort(lines.begin(), totals);
    }
}

}  // namespace granary::sqllogic
