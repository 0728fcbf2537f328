#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace granary
{

/// A one-line progress report on stderr (rows, MB, rate and, when the total is known, the
/// percentage), redrawn at most ten times a second. Silent unless enabled and stderr is a
/// terminal.
class ProgressBar
{
public:
    explicit ProgressBar(bool enabled);
    ~ProgressBar();

    /// total_bytes 0: unknown.
    void start(uint64_t total_bytes);
    void advance(uint64_t rows, uint64_t bytes);
    /// Draws the final state and ends the line.
    void finish();

private:
    void draw();

    bool active_;
    bool finished_ = false;
    uint64_t total_bytes_ = 0;
    uint64_t rows_ = 0;
    uint64_t bytes_ = 0;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace granary
