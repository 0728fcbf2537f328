#pragma once

// A bounded mutation fuzz for decoders of untrusted bytes: a valid input with bytes flipped,
// cut, inserted or repeated must decode or fail with a granary::Exception, never crash or
// throw anything else (the sanitizer builds run the tests that use it).

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>

#include "engine/common/exception.h"

namespace granary::testing
{

/// 1 to 4 random edits of `input`.
inline std::string mutateBytes(std::string input, std::mt19937_64& random)
{
    const size_t mutations = 1 + random() % 4;
    for (size_t i = 0; i < mutations && !input.empty(); ++i)
    {
        const size_t at = random() % input.size();
        switch (random() % 4)
        {
            case 0:
                input[at] = static_cast<char>(random());
                break;
            case 1:
                input.resize(at);
                break;
            case 2:
                input.insert(at, 1 + random() % 12, static_cast<char>(random()));
                break;
            default:
                input.insert(at, input.substr(at, random() % 64));
                break;
        }
    }
    return input;
}

/// Feeds `mutations` mutants of `valid` to `decode`; granary::Exception is the only failure
/// allowed, and more than a quarter of the mutants must fail (else the mutator does nothing).
template <typename Decode>
void fuzzDecoder(const std::string& valid, size_t mutations, uint64_t seed, Decode decode)
{
    std::mt19937_64 random(seed);
    size_t failures = 0;
    for (size_t i = 0; i < mutations; ++i)
    {
        try
        {
            decode(mutateBytes(valid, random));
        }
        catch (const Exception&)
        {
            ++failures;
        }
    }
    EXPECT_GT(failures, mutations / 4);
}

}  // namespace granary::testing
