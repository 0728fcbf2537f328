#pragma once

#include <cstddef>

namespace granary::clickbench
{

/// This process's resident memory, from /proc/self/status (VmRSS, VmHWM); zeros where the
/// file cannot be read.
struct ResidentMemory
{
    size_t current_bytes = 0;
    size_t peak_bytes = 0;
};

ResidentMemory residentMemory();

/// Restarts the peak (VmHWM) at the current resident size by writing 5 to
/// /proc/self/clear_refs (Linux 4.0+), so that each engine's phase of one process gets its own
/// peak. False where the kernel refuses; the peak then spans the whole process.
bool resetPeakResident();

/// Memory of one engine's phase: resident size when it began and the peak during it; the
/// difference is what the phase added on top of what the process already held.
struct PhaseMemory
{
    size_t start_bytes = 0;
    size_t peak_bytes = 0;
    bool peak_is_per_phase = false;  ///< resetPeakResident() worked.

    static PhaseMemory begin();
    void end();  ///< Records the phase's peak.
};

}  // namespace granary::clickbench
