#include "programs/scale/machine_description.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace granary::scale
{
namespace
{

TEST(MachineDescription, DescribesThisMachine)
{
    const MachineDescription machine = describeThisMachine();
    EXPECT_GE(machine.hardware_threads, 1u);
    EXPECT_GE(machine.cores, 1u);
    EXPECT_LE(machine.cores, machine.hardware_threads);
    EXPECT_LE(machine.hardware_threads, static_cast<size_t>(sysconf(_SC_NPROCESSORS_CONF)));
    EXPECT_GE(machine.threadsPerCore(), 1u);
    EXPECT_GT(machine.memory_bytes, 0u);
    const std::string summary = machine.summary();
    EXPECT_NE(summary.find(std::to_string(machine.cores) + " cores"), std::string::npos) << summary;
    const nlohmann::json json = nlohmann::json::parse(machine.toJson());
    EXPECT_EQ(json.at("hardware_threads").get<size_t>(), machine.hardware_threads);
    EXPECT_TRUE(json.at("caches").is_array());
}

}  // namespace
}  // namespace granary::scale
