#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace granary::testing
{

/// A fresh folder path under the system temporary folder (created by whoever writes there),
/// removed with everything in it at the end of the test.
class TemporaryFolder
{
public:
    TemporaryFolder()
    {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("granary_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path_);
    }
    ~TemporaryFolder() { std::filesystem::remove_all(path_); }
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace granary::testing
