#include "engine/storage/text_loader.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <fstream>
#include <optional>

#include "engine/common/ascii.h"
#include "engine/common/exception.h"
#include "engine/exec/executor.h"
#include "engine/storage/progress_bar.h"
#include "engine/storage/table_insert.h"
#include "engine/storage/text_parser.h"

namespace granary
{
namespace
{

/// Bytes of input parsed per worker and buffer.
constexpr size_t kChunkBytes = size_t{8} << 20;

Block concatenate(std::vector<Block>& blocks, bool parallel)
{
    if (blocks.size() == 1)
    {
        return std::move(blocks.front());
    }
    Block result;
    for (const Block::Entry& entry : blocks.front().columns)
    {
        result.columns.push_back({entry.name, entry.column.emptyLike()});
    }
    auto fill = [&](size_t index)
    {
        Column& column = result.columns[index].column;
        for (const Block& block : blocks)
        {
            const ColumnView view = block.columns[index].column.view();
            column.appendRange(view, 0, view.rows);
        }
    };
    if (parallel)
    {
        Executor::forEachNested(result.columns.size(), fill);
    }
    else
    {
        for (size_t index = 0; index < result.columns.size(); ++index)
        {
            fill(index);
        }
    }
    return result;
}

/// Reads the input in buffers of whole rows, parses them in parallel, and hands the rows to
/// a TableInsert in blocks of about Table::kMaxPartRows.
class TextLoad
{
public:
    TextLoad(Table& table, std::istream& input, const LoadOptions& options)
        : table_(table),
          input_(input),
          options_(options),
          threads_(std::max<size_t>(1, options.threads)),
          insert_(table),
          progress_(options.progress)
    {
    }

    size_t run(uint64_t total_bytes)
    {
        progress_.start(total_bytes);
        readMore();
        std::vector<size_t> field_columns = readHeader();
        const TextParser parser(options_.format, table_.schema(), std::move(field_columns));
        while (!buffer_.empty())
        {
            size_t end =
                at_end_ ? buffer_.size() : TextParser::lastRowEnd(options_.format, buffer_);
            if (end == 0)
            {
                readMore();  // a row longer than the buffer: grow it
                continue;
            }
            parseBuffer(parser, std::string_view(buffer_).substr(0, end));
            progress_.advance(0, end);
            buffer_.erase(0, end);
            readMore();
        }
        flush();
        insert_.commit();
        progress_.finish();
        return insert_.rows();
    }

private:
    void readMore()
    {
        const size_t want = std::max(buffer_.size(), threads_ * kChunkBytes);
        const size_t filled = buffer_.size();
        buffer_.resize(filled + want);
        input_.read(buffer_.data() + filled, static_cast<std::streamsize>(want));
        const size_t got = static_cast<size_t>(input_.gcount());
        buffer_.resize(filled + got);
        if (got < want)
        {
            at_end_ = true;
        }
    }

    std::vector<size_t> readHeader()
    {
        if (!hasHeader(options_.format))
        {
            return table_.schema().fieldColumns(options_.columns);
        }
        if (buffer_.empty())
        {
            throw Exception(ErrorCode::kCannotParseInput,
                            "line 1: empty input, expected a header line of column names");
        }
        size_t position = 0;
        std::string problem;
        while (TextParser::lastRowEnd(options_.format, buffer_) == 0 && !at_end_)
        {
            readMore();
        }
        const std::optional<std::vector<std::string>> names =
            TextParser::parseHeader(options_.format, buffer_, position, problem);
        if (!names)
        {
            throw Exception(ErrorCode::kCannotParseInput, "line 1 (header): " + problem);
        }
        progress_.advance(0, position);
        buffer_.erase(0, position);
        lines_ = 1;
        return table_.schema().fieldColumns(*names);
    }

    void parseBuffer(const TextParser& parser, std::string_view text)
    {
        const std::vector<size_t> bounds = TextParser::splitRows(options_.format, text, threads_);
        std::vector<ParsedText> chunks(bounds.size() - 1);
        auto parse = [&](size_t chunk) {
            chunks[chunk] =
                parser.parse(text.substr(bounds[chunk], bounds[chunk + 1] - bounds[chunk]));
        };
        runParallel(chunks.size(), parse);
        for (ParsedText& chunk : chunks)
        {
            if (chunk.error)
            {
                const TextParseError& error = *chunk.error;
                throw Exception(ErrorCode::kCannotParseInput,
                                "line " + std::to_string(lines_ + error.line) + ", column " +
                                    std::to_string(error.field) + " (" + error.column_name +
                                    "): " + error.problem);
            }
            lines_ += chunk.lines;
            const size_t rows = chunk.block.rows();
            if (pending_rows_ > 0 && pending_rows_ + rows > Table::kMaxPartRows)
            {
                flush();
            }
            pending_rows_ += rows;
            progress_.advance(rows, 0);
            if (rows > 0)
            {
                pending_.push_back(std::move(chunk.block));
            }
        }
    }

    void flush()
    {
        if (pending_.empty())
        {
            return;
        }
        std::vector<Block> blocks;
        runInArena([&] { blocks.push_back(concatenate(pending_, threads_ > 1)); });
        pending_.clear();
        pending_rows_ = 0;
        insert_.add(std::move(blocks), threads_);
    }

    template <typename Body>
    void runParallel(size_t count, Body&& body)
    {
        if (threads_ == 1)
        {
            for (size_t index = 0; index < count; ++index)
            {
                body(index);
            }
            return;
        }
        runInArena([&] { Executor::forEachNested(count, body); });
    }

    template <typename Body>
    void runInArena(Body&& body)
    {
        if (threads_ == 1)
        {
            body();
            return;
        }
        if (!arena_)
        {
            arena_.emplace(static_cast<int>(threads_));
        }
        arena_->execute(body);
    }

    Table& table_;
    std::istream& input_;
    const LoadOptions& options_;
    size_t threads_;
    TableInsert insert_;
    ProgressBar progress_;
    std::optional<tbb::task_arena> arena_;
    std::string buffer_;
    bool at_end_ = false;
    size_t lines_ = 0;  ///< Lines before the buffer.
    std::vector<Block> pending_;
    size_t pending_rows_ = 0;
};

size_t load(Database& database, std::string_view table, std::istream& input,
            const LoadOptions& options, uint64_t total_bytes)
{
    const std::shared_ptr<Table> target = database.table(table);
    TextLoad load(*target, input, options);
    return load.run(total_bytes);
}

}  // namespace

TextFormat textFormatFromName(std::string_view name)
{
    static constexpr std::pair<std::string_view, TextFormat> kNames[] = {
        {"TSV", TextFormat::kTSV},
        {"TabSeparated", TextFormat::kTSV},
        {"TSVWithNames", TextFormat::kTSVWithNames},
        {"TabSeparatedWithNames", TextFormat::kTSVWithNames},
        {"CSV", TextFormat::kCSV},
        {"CSVWithNames", TextFormat::kCSVWithNames},
    };
    for (const auto& [known, format] : kNames)
    {
        if (equalsIgnoringCase(known, name))
        {
            return format;
        }
    }
    throw Exception(ErrorCode::kBadArguments, "unknown format '" + std::string(name) + "'");
}

size_t loadText(Database& database, std::string_view table, std::istream& input,
                const LoadOptions& options)
{
    return load(database, table, input, options, 0);
}

size_t loadTextFile(Database& database, std::string_view table, const std::filesystem::path& path,
                    const LoadOptions& options)
{
    std::ifstream input(path, std::ios::binary);
    std::error_code error;
    const uint64_t size = std::filesystem::file_size(path, error);
    if (!input || error)
    {
        throw Exception(ErrorCode::kCannotOpenFile, "cannot read '" + path.string() + "'");
    }
    return load(database, table, input, options, size);
}

}  // namespace granary
