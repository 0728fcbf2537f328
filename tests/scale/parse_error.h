#pragma once

// What a CSV reader's refusal says, for the tests of the readers of programs/scale.

#include <gtest/gtest.h>

#include <string>

#include "engine/common/exception.h"

namespace granary::scale
{

/// The message of the kCannotParseInput exception `parse()` throws, or "" if it parses.
template <typename Parse>
std::string parseErrorOf(Parse&& parse)
{
    try
    {
        parse();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kCannotParseInput);
        return error.what();
    }
    return "";
}

}  // namespace granary::scale
