// `granary gen-hits`: a synthetic ClickBench `hits` table as a Granary data directory, TSV or
// CSV. Chunks are generated in parallel in windows and consumed in chunk order, so the output
// is the same for any thread count.
#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <variant>

#include "engine/common/exception.h"
#include "engine/datagen/hits_generator.h"
#include "engine/datagen/hits_schema.h"
#include "engine/datagen/hits_statistics.h"
#include "engine/formats/output_format.h"
#include "engine/session/create_table.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "engine/storage/progress_bar.h"
#include "engine/storage/table.h"
#include "engine/storage/table_insert.h"
#include "programs/command_registry.h"

namespace granary::programs
{
namespace
{

struct GenHitsOptions
{
    uint64_t rows = 0;
    std::string out;
    uint64_t seed = 1;
    size_t threads = std::max(1U, std::thread::hardware_concurrency());
    std::string format = "native";
    std::string storage_format = "compressed";
    std::string string_codec;
    /// Native only: N > 0 writes DIR/shard-0 ... DIR/shard-(N-1) (parts dealt round-robin);
    /// 0 writes the table into DIR itself.
    size_t shards = 0;
    bool check = false;
};

/// Blocks whose rows have been consumed, kept to be filled again: the generator then writes
/// into memory it has touched before instead of fresh pages, which the kernel zeroes on first
/// touch (on a virtual machine the host may have to back them first). Holds no more blocks
/// than were ever in flight at once.
class SpareBlocks
{
public:
    Block take()
    {
        const std::lock_guard lock(mutex_);
        if (blocks_.empty())
        {
            return {};
        }
        Block block = std::move(blocks_.back());
        blocks_.pop_back();
        return block;
    }
    void give(Block block)
    {
        const std::lock_guard lock(mutex_);
        blocks_.push_back(std::move(block));
    }

private:
    std::mutex mutex_;
    std::vector<Block> blocks_;
};

/// Where generated chunks go, in chunk order. Consumed blocks go back to the spares.
class ChunkSink
{
public:
    explicit ChunkSink(SpareBlocks& spares) : spares_(spares) {}
    virtual ~ChunkSink() = default;
    /// Called in parallel, once per chunk, before consume(): per-chunk work that can run on
    /// any thread (formatting text).
    virtual void prepare(const Block& block, std::string& text) const = 0;
    virtual void consume(std::vector<Block> blocks, const std::vector<std::string>& texts) = 0;
    virtual void finish() = 0;

protected:
    void recycle(std::vector<Block>& blocks)
    {
        for (Block& block : blocks)
        {
            spares_.give(std::move(block));
        }
    }

private:
    SpareBlocks& spares_;
};

class TextSink : public ChunkSink
{
public:
    TextSink(SpareBlocks& spares, const std::filesystem::path& path, OutputFormat format)
        : ChunkSink(spares), format_(format), out_(path, std::ios::binary)
    {
        if (!out_)
        {
            throw Exception(ErrorCode::kCannotOpenFile, "cannot create " + path.string());
        }
    }
    void prepare(const Block& block, std::string& text) const override
    {
        std::ostringstream formatted;
        writeBlockRows(block, format_, formatted);
        text = std::move(formatted).str();
    }
    void consume(std::vector<Block> blocks, const std::vector<std::string>& texts) override
    {
        for (const std::string& text : texts)
        {
            out_ << text;
        }
        recycle(blocks);
    }
    void finish() override
    {
        out_.flush();
        if (!out_)
        {
            throw Exception(ErrorCode::kCannotOpenFile, "writing the hits file failed");
        }
    }

private:
    OutputFormat format_;
    std::ofstream out_;
};

/// Table `hits` of a Granary data directory, inserted all or nothing. The chunks of one
/// generator group form a part (how many depends on the row count only, so the parts are the
/// same for any thread count). Their rows come sorted, so each window of chunks is written
/// to its part's files as it comes, on other threads while the next windows are generated:
/// only a few windows of rows are in memory, and their freed buffers serve the next ones.
/// With shards, part p goes to the table of DIR/shard-(p mod shards): the shards' union is
/// the unsharded table, part for part.
class NativeSink : public ChunkSink
{
public:
    NativeSink(SpareBlocks& spares, const std::filesystem::path& dir, size_t threads,
               size_t chunks_per_part, const GenHitsOptions& options)
        : ChunkSink(spares), threads_(threads), chunks_per_part_(chunks_per_part)
    {
        const sql::Statement statement =
            sql::parseStatement(datagen::hitsCreateTableSql(options.string_codec) +
                                " SETTINGS storage_format = '" + options.storage_format + "'");
        for (size_t shard = 0; shard < std::max<size_t>(options.shards, 1); ++shard)
        {
            Shard& created = shards_.emplace_back();
            created.database = Database::open(
                options.shards == 0 ? dir : dir / ("shard-" + std::to_string(shard)));
            createTable(*created.database, std::get<sql::CreateTableStatement>(statement));
            created.table = created.database->table("hits");
            created.insert = std::make_unique<TableInsert>(*created.table);
        }
    }
    ~NativeSink() override
    {
        for (std::shared_future<void>& write : writes_)
        {
            write.wait();
        }
    }
    void prepare(const Block&, std::string&) const override {}
    void consume(std::vector<Block> blocks, const std::vector<std::string>&) override
    {
        // Two windows may wait to be written, in order, each after the one before: the fsyncs
        // that end a part then stall generation less.
        if (writes_.size() == 2)
        {
            writes_.front().get();
            writes_.pop_front();
        }
        const std::shared_future<void> previous =
            writes_.empty() ? std::shared_future<void>() : writes_.back();
        writes_.push_back(std::async(std::launch::async,
                                     [this, previous, blocks = std::move(blocks)]() mutable
                                     {
                                         if (previous.valid())
                                         {
                                             previous.get();
                                         }
                                         write(std::move(blocks));
                                     })
                              .share());
    }
    void finish() override
    {
        while (!writes_.empty())
        {
            writes_.front().get();
            writes_.pop_front();
        }
        if (chunks_written_ % chunks_per_part_ != 0)
        {
            shards_[current_shard_].insert->finishSortedPart(threads_);
        }
        for (Shard& shard : shards_)
        {
            shard.insert->commit();
        }
    }

private:
    struct Shard
    {
        std::shared_ptr<Database> database;
        std::shared_ptr<Table> table;
        std::unique_ptr<TableInsert> insert;
    };

    void write(std::vector<Block> blocks)
    {
        for (Block& block : blocks)
        {
            if (chunks_written_ % chunks_per_part_ == 0)
            {
                current_shard_ = chunks_written_ / chunks_per_part_ % shards_.size();
                shards_[current_shard_].insert->beginSortedPart();
            }
            TableInsert& insert = *shards_[current_shard_].insert;
            insert.appendSorted(block, threads_);
            ++chunks_written_;
            if (chunks_written_ % chunks_per_part_ == 0)
            {
                insert.finishSortedPart(threads_);
            }
        }
        recycle(blocks);
    }

    std::vector<Shard> shards_;
    size_t threads_;
    size_t chunks_per_part_;
    /// Touched by one write at a time, each after the one before, or after all of them.
    size_t chunks_written_ = 0;
    size_t current_shard_ = 0;  ///< The shard of the part being written.
    std::deque<std::shared_future<void>> writes_;
};

/// Discards the rows: measures the generator alone.
class NullSink : public ChunkSink
{
public:
    using ChunkSink::ChunkSink;
    void prepare(const Block&, std::string&) const override {}
    void consume(std::vector<Block> blocks, const std::vector<std::string>&) override
    {
        recycle(blocks);
    }
    void finish() override {}
};

std::unique_ptr<ChunkSink> makeSink(const GenHitsOptions& options,
                                    const datagen::HitsGenerator& generator, SpareBlocks& spares)
{
    const std::filesystem::path dir(options.out);
    if (options.format == "native")
    {
        // A part per group: its rows come sorted, so each chunk is written as it comes.
        static_assert(datagen::HitsGenerator::kMaxGroupChunks *
                          datagen::HitsGenerator::kChunkRows <=
                      Table::kMaxPartRows);
        return std::make_unique<NativeSink>(spares, dir, std::max<size_t>(1, options.threads),
                                            generator.groupChunks(), options);
    }
    if (options.shards != 0)
    {
        throw Exception(ErrorCode::kBadArguments, "--shards writes native data directories only");
    }
    if (options.format == "none")
    {
        return std::make_unique<NullSink>(spares);
    }
    if (options.format != "tsv" && options.format != "csv")
    {
        throw Exception(ErrorCode::kBadArguments,
                        "unknown --format '" + options.format + "' (native, tsv, csv or none)");
    }
    std::filesystem::create_directories(dir);
    return std::make_unique<TextSink>(
        spares, dir / ("hits." + options.format),
        options.format == "tsv" ? OutputFormat::kTSV : OutputFormat::kCSV);
}

uint64_t blockBytes(const Block& block)
{
    uint64_t bytes = 0;
    for (const Block::Entry& entry : block.columns)
    {
        const ColumnView view = entry.column.view();
        bytes += isString(view.type) ? view.offsets[view.rows] - view.offsets[0] + 8 * view.rows
                                     : fixedWidth(view.type) * view.rows;
    }
    return bytes;
}

int runGenHits(const GenHitsOptions& options)
{
    if (options.rows == 0)
    {
        throw Exception(ErrorCode::kBadArguments, "--rows must be positive");
    }
    const size_t threads = std::max<size_t>(1, options.threads);
    const datagen::HitsGenerator generator(options.rows, options.seed);
    SpareBlocks spares;  // Outlives the sink, whose writers give blocks back.
    std::unique_ptr<ChunkSink> sink = makeSink(options, generator, spares);
    datagen::HitsStatistics statistics;
    ProgressBar progress(isatty(STDERR_FILENO) != 0);
    tbb::task_arena arena(static_cast<int>(threads));
    // A chunk per thread: the window being generated and the few waiting to be written are all
    // the rows in memory, so their freed buffers serve the next windows instead of fresh pages.
    const size_t window = threads;
    const auto started = std::chrono::steady_clock::now();
    bool progress_started = false;
    size_t count = 0;
    std::shared_ptr<const datagen::HitsGenerator::SortedKeys> keys;
    for (size_t first = 0; first < generator.chunkCount(); first += count)
    {
        // Windows stay within a group, whose keys are sorted first.
        const size_t group = first / generator.groupChunks();
        const size_t group_end =
            std::min(generator.chunkCount(), (group + 1) * generator.groupChunks());
        count = std::min(window, group_end - first);
        if (first % generator.groupChunks() == 0)
        {
            arena.execute([&] { keys = generator.sortGroup(group); });
        }
        std::vector<Block> blocks(count);
        for (Block& block : blocks)
        {
            block = spares.take();
        }
        std::vector<std::string> texts(count);
        arena.execute(
            [&]
            {
                tbb::parallel_for(size_t{0}, count,
                                  [&](size_t i)
                                  {
                                      generator.generateChunkInto(first + i, *keys, blocks[i]);
                                      sink->prepare(blocks[i], texts[i]);
                                  });
            });
        uint64_t rows = 0;
        uint64_t bytes = 0;
        for (const Block& block : blocks)
        {
            rows += block.rows();
            bytes += blockBytes(block);
            if (options.check)
            {
                statistics.add(block);
            }
        }
        if (!progress_started)
        {
            // The first window's bytes per row estimate the total, for the percentage.
            progress.start(bytes * options.rows / std::max<uint64_t>(rows, 1));
            progress_started = true;
        }
        sink->consume(std::move(blocks), texts);
        progress.advance(rows, bytes);
    }
    sink->finish();
    progress.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << fmt::format("gen-hits: {} rows ({}) in {:.2f} s, {:.0f} rows/s, {} threads\n",
                             options.rows, options.format, seconds,
                             static_cast<double>(options.rows) / seconds, threads);
    if (options.check)
    {
        statistics.printReport(std::cout);
    }
    return 0;
}

std::function<int()> setupGenHits(CLI::App& app)
{
    auto options = std::make_shared<GenHitsOptions>();
    app.add_option("--rows", options->rows, "Rows to generate (ClickBench has 99997497)")
        ->required();
    app.add_option("--out", options->out, "Output directory")->required();
    app.add_option("--seed", options->seed, "Random seed")->capture_default_str();
    app.add_option("--threads", options->threads, "Generator threads")->capture_default_str();
    app.add_option(
           "--format", options->format,
           "native (Granary data directory), tsv, csv (DIR/hits.tsv or .csv), none (discard)")
        ->capture_default_str();
    app.add_option("--storage-format", options->storage_format,
                   "native only: compressed (per granule the cheapest encoding, LZ4) or raw")
        ->check(CLI::IsMember({"compressed", "raw"}))
        ->capture_default_str();
    app.add_option("--string-codec", options->string_codec,
                   "native, compressed only: the codec of the String columns (LZ4, ZSTD(level), "
                   "NONE; default LZ4)");
    app.add_option("--shards", options->shards,
                   "native only: write DIR/shard-0 ... DIR/shard-(N-1), generator parts dealt "
                   "round-robin, for `granary mpi-query` (their union is the unsharded table)")
        ->check(CLI::PositiveNumber);
    app.add_flag("--check", options->check,
                 "Measure the published statistics on the rows and print them");
    return [options] { return runGenHits(*options); };
}

const CommandRegistrar kGenHits({"gen-hits", "Generate a synthetic ClickBench hits table",
                                 setupGenHits});

}  // namespace
}  // namespace granary::programs
