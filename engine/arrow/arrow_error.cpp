#include "engine/arrow/arrow_error.h"

namespace granary::arrow
{

std::string describeColumn(size_t index, std::string_view name)
{
    return "Arrow column " + std::to_string(index) + " '" + std::string(name) + "'";
}

void throwArrowError(ErrorCode code, std::string_view subject, const std::string& problem)
{
    throw Exception(code, std::string(subject) + ": " + problem);
}

}  // namespace granary::arrow
