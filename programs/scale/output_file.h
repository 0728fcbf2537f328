#pragma once

#include <filesystem>
#include <fstream>
#include <string_view>

namespace granary::scale
{

/// Creates `dir` and its parents if missing; throws Exception(kCannotOpenFile) naming it.
void createOutputDirectory(const std::filesystem::path& dir);

/// `path` truncated for writing; throws Exception(kCannotOpenFile) naming it.
std::ofstream openForWriting(const std::filesystem::path& path);

/// Replaces `path` with `content`; throws Exception(kCannotOpenFile) naming it.
void writeFile(const std::filesystem::path& path, std::string_view content);

}  // namespace granary::scale
