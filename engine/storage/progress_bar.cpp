#include "engine/storage/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace granary
{

ProgressBar::ProgressBar(bool enabled) : active_(enabled && ::isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar()
{
    if (active_ && !finished_)
    {
        std::fputc('\n', stderr);
    }
}

void ProgressBar::start(uint64_t total_bytes)
{
    total_bytes_ = total_bytes;
    started_ = last_draw_ = std::chrono::steady_clock::now();
}

void ProgressBar::advance(uint64_t rows, uint64_t bytes)
{
    rows_ += rows;
    bytes_ += bytes;
    if (active_ && std::chrono::steady_clock::now() - last_draw_ >= std::chrono::milliseconds(100))
    {
        draw();
    }
}

void ProgressBar::finish()
{
    if (active_ && !finished_)
    {
        draw();
        std::fputc('\n', stderr);
    }
    finished_ = true;
}

void ProgressBar::draw()
{
    last_draw_ = std::chrono::steady_clock::now();
    const double seconds =
        std::max(1e-3, std::chrono::duration<double>(last_draw_ - started_).count());
    const double megabytes = static_cast<double>(bytes_) / 1e6;
    std::fprintf(stderr, "\r%llu rows, %.1f MB, %.0f rows/s, %.1f MB/s",
                 static_cast<unsigned long long>(rows_), megabytes,
                 static_cast<double>(rows_) / seconds, megabytes / seconds);
    if (total_bytes_ > 0)
    {
        std::fprintf(stderr, ", %.1f%%",
                     100.0 * static_cast<double>(bytes_) / static_cast<double>(total_bytes_));
    }
    std::fflush(stderr);
}

}  // namespace granary
