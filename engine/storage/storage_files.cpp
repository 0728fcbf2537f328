#include "engine/storage/storage_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "engine/common/exception.h"

namespace granary
{
namespace
{

std::function<void(const std::filesystem::path&)>& writeHook()
{
    static std::function<void(const std::filesystem::path&)> hook;
    return hook;
}

std::string systemError(std::string_view what, const std::filesystem::path& path)
{
    return std::string(what) + " '" + path.string() + "': " + std::strerror(errno);
}

/// Closes a descriptor when the scope ends, on the error paths too.
struct FileDescriptor
{
    int fd;
    ~FileDescriptor()
    {
        if (fd >= 0)
        {
            ::close(fd);
        }
    }
};

uint64_t rotateLeft(uint64_t value, int bits)
{
    return (value << bits) | (value >> (64 - bits));
}

void writeAll(int fd, const std::filesystem::path& path,
              std::initializer_list<std::span<const char>> buffers)
{
    for (std::span<const char> buffer : buffers)
    {
        const char* next = buffer.data();
        size_t left = buffer.size();
        while (left > 0)
        {
            const ssize_t written = ::write(fd, next, left);
            if (written < 0 && errno == EINTR)
            {
                continue;
            }
            if (written <= 0)
            {
                throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot write", path));
            }
            next += written;
            left -= static_cast<size_t>(written);
        }
    }
}

/// Opens `path` with `flags` and fsyncs it: a written file, or a folder after entries changed.
void openAndSync(const std::filesystem::path& path, int flags)
{
    FileDescriptor file{::open(path.c_str(), flags)};
    if (file.fd < 0 || ::fsync(file.fd) != 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot fsync", path));
    }
}

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path)
{
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0)
    {
        throw Exception(ErrorCode::kCorruptedData, systemError("cannot open part file", path));
    }
    struct stat status;
    if (::fstat(file.fd, &status) != 0)
    {
        throw Exception(ErrorCode::kCorruptedData, systemError("cannot stat part file", path));
    }
    size_ = static_cast<size_t>(status.st_size);
    if (size_ == 0)
    {
        return;
    }
    void* mapping = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, file.fd, 0);
    if (mapping == MAP_FAILED)
    {
        throw Exception(ErrorCode::kCorruptedData, systemError("cannot map part file", path));
    }
    data_ = static_cast<const char*>(mapping);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
{
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
}

MappedFile::~MappedFile()
{
    if (data_ != nullptr)
    {
        ::munmap(const_cast<char*>(data_), size_);
    }
}

void syncFile(const std::filesystem::path& path)
{
    openAndSync(path, O_RDONLY | O_CLOEXEC);
    callStorageWriteHook(path);
}

void writeFileDurably(const std::filesystem::path& path,
                      std::initializer_list<std::span<const char>> buffers)
{
    FileDescriptor file{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (file.fd < 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot create", path));
    }
    writeAll(file.fd, path, buffers);
    if (::fsync(file.fd) != 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot fsync", path));
    }
    callStorageWriteHook(path);
}

void syncDirectory(const std::filesystem::path& directory)
{
    openAndSync(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

void renameDurably(const std::filesystem::path& from, const std::filesystem::path& to)
{
    if (::rename(from.c_str(), to.c_str()) != 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile,
                        systemError("cannot rename '" + from.string() + "' to", to));
    }
    syncDirectory(to.parent_path());
    callStorageWriteHook(to);
}

std::string readWholeFile(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
    {
        throw Exception(ErrorCode::kCorruptedData, "cannot open '" + path.string() + "'");
    }
    std::ostringstream contents;
    contents << file.rdbuf();
    return contents.str();
}

namespace
{

constexpr uint64_t kChecksumPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kChecksumPrime2 = 0xC2B2AE3D27D4EB4FULL;

/// Four independent lanes over 32-byte blocks keep the multiplier pipeline busy (several GB/s).
void mixBlocks(uint64_t (&lanes)[4], const char* data, size_t blocks)
{
    for (size_t block = 0; block < blocks; ++block, data += 32)
    {
        for (int lane = 0; lane < 4; ++lane)
        {
            uint64_t word;
            std::memcpy(&word, data + lane * 8, 8);
            lanes[lane] = rotateLeft(lanes[lane] + word * kChecksumPrime2, 31) * kChecksumPrime1;
        }
    }
}

}  // namespace

FileChecksum::FileChecksum()
    : lanes_{kChecksumPrime1, kChecksumPrime2, kChecksumPrime1 ^ kChecksumPrime2, ~kChecksumPrime1}
{
}

void FileChecksum::update(const char* data, size_t size)
{
    // Empty buffers (an empty file's mapping, an empty column's chars) may be null pointers,
    // which memcpy must not see.
    if (size == 0)
    {
        return;
    }
    size_ += size;
    if (tail_size_ > 0)
    {
        const size_t taken = std::min(size, kBlockBytes - tail_size_);
        std::memcpy(tail_ + tail_size_, data, taken);
        tail_size_ += taken;
        data += taken;
        size -= taken;
        if (tail_size_ < kBlockBytes)
        {
            return;
        }
        mixBlocks(lanes_, tail_, 1);
        tail_size_ = 0;
    }
    const size_t blocks = size / kBlockBytes;
    mixBlocks(lanes_, data, blocks);
    tail_size_ = size - blocks * kBlockBytes;
    std::memcpy(tail_, data + blocks * kBlockBytes, tail_size_);
}

uint64_t FileChecksum::value() const
{
    uint64_t hash = size_ * kChecksumPrime1;
    for (uint64_t lane : lanes_)
    {
        hash = rotateLeft(hash ^ lane, 27) * kChecksumPrime1 + kChecksumPrime2;
    }
    for (size_t offset = 0; offset < tail_size_; ++offset)
    {
        hash = rotateLeft(hash ^ (static_cast<uint8_t>(tail_[offset]) * kChecksumPrime2), 23) *
               kChecksumPrime1;
    }
    return hash ^ (hash >> 29);
}

uint64_t fileChecksum(const char* data, size_t size)
{
    FileChecksum checksum;
    checksum.update(data, size);
    return checksum.value();
}

ChecksummedFileWriter::ChecksummedFileWriter(const std::filesystem::path& path)
    : path_(path), fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644))
{
    if (fd_ < 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot create", path));
    }
}

ChecksummedFileWriter::~ChecksummedFileWriter()
{
    if (fd_ >= 0)
    {
        ::close(fd_);
    }
}

void ChecksummedFileWriter::append(std::span<const char> bytes)
{
    checksum_.update(bytes.data(), bytes.size());
    writeAll(fd_, path_, {bytes});
    size_ += bytes.size();
    if (size_ - writeback_started_ >= kWritebackStartBytes)
    {
        // Only a hint, as in close().
        ::sync_file_range(fd_, static_cast<off_t>(writeback_started_),
                          static_cast<off_t>(size_ - writeback_started_), SYNC_FILE_RANGE_WRITE);
        writeback_started_ = size_;
    }
}

void ChecksummedFileWriter::close()
{
    // Only a hint: where it is unsupported, the fsync in syncFile does all the work.
    ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0)
    {
        throw Exception(ErrorCode::kCannotOpenFile, systemError("cannot write", path_));
    }
}

void setStorageWriteHookForTesting(std::function<void(const std::filesystem::path&)> hook)
{
    writeHook() = std::move(hook);
}

void callStorageWriteHook(const std::filesystem::path& path)
{
    if (writeHook())
    {
        writeHook()(path);
    }
}

}  // namespace granary
