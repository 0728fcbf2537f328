#include "programs/clickbench/process_memory.h"

#include <fstream>
#include <string>

namespace granary::clickbench
{

ResidentMemory residentMemory()
{
    ResidentMemory memory;
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key)
    {
        size_t kibibytes = 0;
        if (key == "VmRSS:" && status >> kibibytes)
        {
            memory.current_bytes = kibibytes * 1024;
        }
        else if (key == "VmHWM:" && status >> kibibytes)
        {
            memory.peak_bytes = kibibytes * 1024;
        }
        status.ignore(1 << 16, '\n');
    }
    return memory;
}

bool resetPeakResident()
{
    std::ofstream clear_refs("/proc/self/clear_refs");
    clear_refs << "5";
    clear_refs.flush();
    return clear_refs.good();
}

PhaseMemory PhaseMemory::begin()
{
    PhaseMemory phase;
    phase.peak_is_per_phase = resetPeakResident();
    phase.start_bytes = residentMemory().current_bytes;
    return phase;
}

void PhaseMemory::end()
{
    peak_bytes = residentMemory().peak_bytes;
}

}  // namespace granary::clickbench
