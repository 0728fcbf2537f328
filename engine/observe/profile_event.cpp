#include "engine/observe/profile_event.h"

namespace granary
{
namespace
{

struct ProfileEventInfo
{
    std::string_view name;
    std::string_view description;
};

constexpr std::array<ProfileEventInfo, kProfileEventCount> kProfileEventInfos = {{
#define GRANARY_PROFILE_EVENT_INFO(name, description) {#name, description},
    GRANARY_PROFILE_EVENTS(GRANARY_PROFILE_EVENT_INFO)
#undef GRANARY_PROFILE_EVENT_INFO
}};

}  // namespace

std::string_view profileEventName(ProfileEvent event)
{
    return kProfileEventInfos[profileEventIndex(event)].name;
}

std::string_view profileEventDescription(ProfileEvent event)
{
    return kProfileEventInfos[profileEventIndex(event)].description;
}

ProfileEventCounts& ProfileEventCounts::operator+=(const ProfileEventCounts& other)
{
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        values[i] += other.values[i];
    }
    return *this;
}

ProfileEventCounts& ProfileEventCounts::operator-=(const ProfileEventCounts& other)
{
    for (size_t i = 0; i < kProfileEventCount; ++i)
    {
        values[i] -= other.values[i];
    }
    return *this;
}

}  // namespace granary
