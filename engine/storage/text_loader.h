#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/storage/database.h"
#include "engine/storage/text_format.h"

namespace granary
{

struct LoadOptions
{
    TextFormat format = TextFormat::kTSV;
    /// The columns the fields fill, in field order; empty: all, in schema order. Ignored by
    /// the *WithNames formats, whose header names the columns. Columns not named get
    /// default values.
    std::vector<std::string> columns;
    size_t threads = 1;
    bool progress = false;  ///< Progress bar on stderr when it is a terminal.
};

/// Loads TSV/CSV rows into a table and returns the number loaded. The input is read in
/// buffers cut at row boundaries (CSV quotes respected), parsed by `threads` workers, and
/// written as parts of one TableInsert: all or nothing. A malformed value or row is
/// Exception(kCannotParseInput) "line L, column C (name): problem"; an unknown column is
/// kUnknownColumn, an unknown table kUnknownTable.
size_t loadText(Database& database, std::string_view table, std::istream& input,
                const LoadOptions& options);
/// The same from a file (kCannotOpenFile naming it when it cannot be read); the progress bar
/// shows a percentage.
size_t loadTextFile(Database& database, std::string_view table, const std::filesystem::path& path,
                    const LoadOptions& options);

}  // namespace granary
