#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/ingest/binary_cursor.h"
#include "engine/sql/statement.h"
#include "engine/storage/async_insert_queue.h"

namespace granary
{
class Database;
}

namespace granary::ingest
{

/// Bytes a caller may keep readable past in-memory insert data (InsertSource::bytes_padded),
/// so that decoders which read ahead in SIMD blocks (simdjson) use the data in place rather
/// than a padded copy.
inline constexpr size_t kInputPaddingBytes = 64;

/// Where an INSERT's data comes from when the statement has no FROM INFILE.
/// async_insert=1: the rows join their table's batch (storage/async_insert_queue.h) instead
/// of making a part of their own; with wait false the insert returns once they are queued
/// (and a crash before the batch is written loses them, as in ClickHouse). RowBinary,
/// JSONEachRow and native blocks only: TSV and CSV stream through the loader.
struct AsyncInsert
{
    bool enabled = false;
    bool wait = true;
    AsyncInsertQueue::Limits limits;
};

struct InsertSource
{
    /// The rows as blocks (the native protocol's Data packets): each holds the INSERT's
    /// columns by name and type; the table's other columns get defaults. Taken by move.
    std::vector<Block>* blocks = nullptr;
    /// The whole data in memory (an HTTP body), used in place.
    std::optional<std::string_view> bytes;
    /// kInputPaddingBytes past the end of `bytes` are readable (their values do not matter).
    bool bytes_padded = false;
    /// Otherwise a stream (standard input of `granary local`).
    std::istream* stream = nullptr;
    bool progress = false;  ///< Progress bar for text read from a file or stream.
    BinaryLimits limits;
    /// RowBinary JSON values are Strings of JSON text (input_format_binary_read_json_as_string).
    bool binary_json_as_string = false;
    AsyncInsert async;
};

/// Runs `INSERT INTO t [(columns)] [FROM INFILE 'f'] FORMAT name` with its data: TSV, CSV and
/// their WithNames forms, RowBinary, RowBinaryWithNamesAndTypes or JSONEachRow (names
/// case-insensitive; another is kUnknownFormat). All rows become visible at once or, on any
/// error, none. Returns the rows inserted.
size_t executeInsert(Database& database, const sql::InsertStatement& insert,
                     const InsertSource& source, size_t threads);

}  // namespace granary::ingest
