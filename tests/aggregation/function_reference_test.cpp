// docs/functions.md is what the registry generates: a function added, renamed or re-described
// without regenerating the file fails here.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/function_reference.h"
#include "engine/common/ascii.h"

namespace granary
{
namespace
{

TEST(FunctionReference, TheDocsAreWhatTheRegistryGenerates)
{
    std::ifstream file(GRANARY_FUNCTIONS_DOC);
    ASSERT_TRUE(file) << "cannot read " << GRANARY_FUNCTIONS_DOC;
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(text.str(), aggregateFunctionReference())
        << "regenerate it: granary functions > docs/functions.md";
}

TEST(FunctionReference, NamesAndAliasesAreUniqueAndResolve)
{
    std::set<std::string> seen;
    for (const AggregateFunctionEntry& entry : aggregateFunctions())
    {
        std::vector<std::string> names = entry.aliases;
        names.push_back(entry.name);
        for (const std::string& name : names)
        {
            EXPECT_TRUE(seen.insert(lowerCaseAscii(name)).second) << name << " twice";
            EXPECT_EQ(findAggregateFunction(name), &entry) << name;
            EXPECT_EQ(resolveAggregateName(name + "If").entry, &entry) << name << "If";
            EXPECT_TRUE(resolveAggregateName(name + "If").if_combinator);
        }
        EXPECT_LE(entry.min_arguments, entry.max_arguments) << entry.name;
        EXPECT_LE(entry.min_parameters, entry.max_parameters) << entry.name;
        EXPECT_TRUE(entry.create) << entry.name;
    }
    EXPECT_EQ(resolveAggregateName("frobnicate").entry, nullptr);
    EXPECT_EQ(resolveAggregateName("if").entry, nullptr);
}

}  // namespace
}  // namespace granary
