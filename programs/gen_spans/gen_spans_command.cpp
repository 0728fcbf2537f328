// `granary gen-spans`: synthetic OpenTelemetry spans for `otel_traces`, encoded as the
// ClickHouse exporters send them (RowBinary, or JSONEachRow / TSV for the text paths; Map
// attributes as the collector's exporter, or JSON ones as Rotel's JSON mode),
// optionally in the CityHash-checked LZ4 frames of `decompress=1` bodies.
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "engine/datagen/otel_spans.h"
#include "engine/formats/output_format.h"
#include "engine/session/create_table.h"
#include "engine/sql/parser.h"
#include "engine/storage/database.h"
#include "engine/storage/progress_bar.h"
#include "engine/storage/table_insert.h"
#include "programs/command_registry.h"
#include "server/compression.h"
#include "server/wire.h"

namespace granary::programs
{
namespace
{

/// Rotel's frame budget: 256 KiB less room for the frame header and a row's overshoot.
constexpr size_t kRotelFrameBytes = 256 * 1024 - 2048;
/// Spans generated and written per step.
constexpr size_t kChunkSpans = 65536;

struct GenSpansOptions
{
    uint64_t rows = 0;
    std::string out;
    std::string data_dir;
    size_t threads = 0;
    std::string format = "RowBinary";
    uint64_t seed = 1;
    bool frames = false;
    size_t frame_bytes = kRotelFrameBytes;
    bool print_ddl = false;
    bool json = false;

    datagen::AttributeEncoding encoding() const
    {
        return json ? datagen::AttributeEncoding::kJson : datagen::AttributeEncoding::kMap;
    }
};

/// The spans as table otel_traces of a data directory, in one all-or-nothing insert (the
/// exporter's DDL: the rows are sorted by its key into parts), for queries and comparisons.
int writeDataDirectory(const GenSpansOptions& options)
{
    const std::shared_ptr<Database> database = Database::open(options.data_dir);
    createTable(*database, std::get<sql::CreateTableStatement>(
                               sql::parseStatement(datagen::otelTracesCreate(options.encoding()))));
    TableInsert insert(*database->table("otel_traces"));
    const size_t threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    ProgressBar progress(::isatty(STDERR_FILENO) != 0);
    progress.start(0);
    // A million spans per add(): sorted and written while the next ones are generated later.
    constexpr size_t kSpansPerAdd = 16 * kChunkSpans;
    for (uint64_t first = 0; first < options.rows; first += kSpansPerAdd)
    {
        std::vector<Block> blocks;
        const uint64_t end = std::min<uint64_t>(options.rows, first + kSpansPerAdd);
        for (uint64_t chunk = first; chunk < end; chunk += kChunkSpans)
        {
            const size_t count = static_cast<size_t>(std::min<uint64_t>(kChunkSpans, end - chunk));
            blocks.push_back(
                datagen::generateSpans(chunk, count, options.seed, options.encoding()));
        }
        insert.add(std::move(blocks), threads);
        progress.advance(end - first, 0);
    }
    insert.commit();
    progress.finish();
    std::cerr << fmt::format("gen-spans: {} spans into {}/otel_traces\n", options.rows,
                             options.data_dir);
    return 0;
}

int runGenSpans(const GenSpansOptions& options)
{
    if (options.print_ddl)
    {
        std::cout << datagen::otelTracesCreate(options.encoding()) << "\n";
        return 0;
    }
    if (!options.data_dir.empty())
    {
        return writeDataDirectory(options);
    }
    const OutputFormat format = outputFormatFromName(options.format);
    std::ofstream out(options.out, std::ios::binary | std::ios::trunc);
    if (!out)
    {
        std::cerr << "gen-spans: cannot write " << options.out << "\n";
        return 1;
    }
    ProgressBar progress(::isatty(STDERR_FILENO) != 0);
    progress.start(0);
    std::string pending;  // Encoded rows not yet framed: frames hold frame_bytes each.
    uint64_t written_bytes = 0;
    auto flush = [&](bool last)
    {
        if (!options.frames)
        {
            out << pending;
            written_bytes += pending.size();
            pending.clear();
            return;
        }
        // Whole frames only, but for the last: rows may continue in the next frame.
        const size_t framed =
            last ? pending.size() : pending.size() / options.frame_bytes * options.frame_bytes;
        server::WriteBuffer frames;
        if (framed > 0)
        {
            server::compressFrames(std::string_view(pending).substr(0, framed), frames,
                                   options.frame_bytes);
        }
        out << frames.bytes();
        written_bytes += frames.size();
        pending.erase(0, framed);
    };
    for (uint64_t first = 0; first < options.rows; first += kChunkSpans)
    {
        const size_t count =
            static_cast<size_t>(std::min<uint64_t>(kChunkSpans, options.rows - first));
        const Block block = datagen::generateSpans(first, count, options.seed, options.encoding());
        std::ostringstream encoded;
        if (first == 0)
        {
            writeHeader(block, format, encoded);
        }
        writeBlockRows(block, format, encoded);
        const size_t before = pending.size();
        pending += encoded.str();
        flush(false);
        progress.advance(count, pending.size() - before);
    }
    flush(true);
    progress.finish();
    if (!out.flush())
    {
        std::cerr << "gen-spans: writing " << options.out << " failed\n";
        return 1;
    }
    std::cerr << fmt::format("gen-spans: {} spans, {} bytes ({:.1f} per span) in {}\n",
                             options.rows, written_bytes,
                             static_cast<double>(written_bytes) /
                                 static_cast<double>(std::max<uint64_t>(options.rows, 1)),
                             options.out);
    return 0;
}

std::function<int()> setupGenSpans(CLI::App& app)
{
    auto options = std::make_shared<GenSpansOptions>();
    app.add_option("--rows", options->rows, "Spans to generate");
    app.add_option("--out", options->out, "Output file");
    app.add_option("--data-dir", options->data_dir,
                   "Instead of a file, insert the spans into table otel_traces of this data "
                   "directory (created with the exporter's DDL)");
    app.add_option("--threads", options->threads, "Threads sorting and writing parts (0: all)");
    app.add_option("--format", options->format,
                   "RowBinary (as the exporters send), RowBinaryWithNamesAndTypes, JSONEachRow "
                   "or TSV")
        ->capture_default_str();
    app.add_option("--seed", options->seed, "Random seed")->capture_default_str();
    app.add_flag("--lz4-frames", options->frames,
                 "Write the body as LZ4 frames with CityHash checksums (decompress=1)");
    app.add_option("--frame-bytes", options->frame_bytes,
                   "Uncompressed bytes per frame (Rotel: 256 KiB - 2048)")
        ->check(CLI::Range(size_t{1024}, size_t{64} << 20))
        ->capture_default_str();
    app.add_flag("--json", options->json,
                 "Rotel's JSON mode: attribute columns are JSON, values tagged with their types");
    app.add_flag("--print-ddl", options->print_ddl,
                 "Print the otel_traces CREATE TABLE the spans are for, and exit");
    return [options, &app]
    {
        if (!options->print_ddl &&
            (app.count("--rows") == 0 || options->out.empty() == options->data_dir.empty()))
        {
            std::cerr << "gen-spans: --rows and one of --out and --data-dir are required\n";
            return 2;
        }
        return runGenSpans(*options);
    };
}

const CommandRegistrar kGenSpans({"gen-spans",
                                  "Generate synthetic OpenTelemetry spans for otel_traces",
                                  setupGenSpans});

}  // namespace
}  // namespace granary::programs
