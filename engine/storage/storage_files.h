#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string_view>

namespace granary
{

/// A read-only memory mapping of a whole file; empty files map to no memory.
class MappedFile
{
public:
    /// Throws kCorruptedData naming the file when it is missing or cannot be mapped.
    explicit MappedFile(const std::filesystem::path& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    const char* data() const { return data_; }
    size_t size() const { return size_; }

private:
    const char* data_ = nullptr;
    size_t size_ = 0;
};

/// Writes the buffers, in order, into a new file and fsyncs it. Throws kCannotOpenFile.
void writeFileDurably(const std::filesystem::path& path,
                      std::initializer_list<std::span<const char>> buffers);
/// fsync of a file written before, then the write hook. Throws kCannotOpenFile.
void syncFile(const std::filesystem::path& path);
/// fsync of a directory, so that the entries created or renamed in it survive a crash.
void syncDirectory(const std::filesystem::path& directory);
/// rename(2), then syncs the parent directory.
void renameDurably(const std::filesystem::path& from, const std::filesystem::path& to);
std::string readWholeFile(const std::filesystem::path& path);

/// A fast 64-bit hash detecting corrupted part files (not cryptographic), fed in pieces: the
/// value depends on the bytes only, not on how they were split.
class FileChecksum
{
public:
    FileChecksum();
    void update(const char* data, size_t size);
    uint64_t value() const;

private:
    static constexpr size_t kBlockBytes = 32;

    uint64_t lanes_[4];
    uint64_t size_ = 0;
    /// The bytes after the last whole block.
    char tail_[kBlockBytes] = {};
    size_t tail_size_ = 0;
};

/// FileChecksum of one buffer.
uint64_t fileChecksum(const char* data, size_t size);

/// A new file written in pieces and checksummed on the way, so that a writer can stream it
/// from a small reused buffer. close() asks the kernel to start writing it to disk without
/// waiting: syncFile() later finds little left to do. Throws kCannotOpenFile naming the file.
class ChecksummedFileWriter
{
public:
    explicit ChecksummedFileWriter(const std::filesystem::path& path);
    ChecksummedFileWriter(const ChecksummedFileWriter&) = delete;
    ChecksummedFileWriter& operator=(const ChecksummedFileWriter&) = delete;
    ~ChecksummedFileWriter();

    void append(std::span<const char> bytes);
    void close();
    uint64_t size() const { return size_; }
    uint64_t checksum() const { return checksum_.value(); }

private:
    std::filesystem::path path_;
    int fd_ = -1;
    /// Writeback of every this many written bytes starts at once, so that the fsync after the
    /// last write waits for little more than that last stretch.
    static constexpr uint64_t kWritebackStartBytes = 1 << 20;

    uint64_t size_ = 0;
    uint64_t writeback_started_ = 0;
    FileChecksum checksum_;
};

/// Tests set this to observe (and stall) writers: it is called after each durable file write
/// and rename with the path concerned, and before a table manifest is published.
void setStorageWriteHookForTesting(std::function<void(const std::filesystem::path&)> hook);
void callStorageWriteHook(const std::filesystem::path& path);

}  // namespace granary
