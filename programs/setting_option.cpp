#include "programs/setting_option.h"

#include <vector>

namespace granary::programs
{

void addSettingOption(CLI::App& app, std::map<std::string, std::string, std::less<>>& settings)
{
    app.add_option_function<std::vector<std::string>>(
           "--setting",
           [&settings](const std::vector<std::string>& assignments)
           {
               for (const std::string& assignment : assignments)
               {
                   const size_t equals = assignment.find('=');
                   if (equals == std::string::npos)
                   {
                       throw CLI::ValidationError("--setting",
                                                  "NAME=VALUE expected, got '" + assignment + "'");
                   }
                   settings[assignment.substr(0, equals)] = assignment.substr(equals + 1);
               }
           },
           "A query setting NAME=VALUE (repeatable; docs/planner.md lists them)")
        ->type_name("NAME=VALUE");
}

}  // namespace granary::programs
