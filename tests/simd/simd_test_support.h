#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "simd/cpu_features.h"
#include "simd/string_column_view.h"

namespace granary::simd
{

/// GoogleTest prints parameters with this (found by argument-dependent lookup).
inline void PrintTo(SimdLevel level, std::ostream* out)
{
    *out << simdLevelName(level);
}

}  // namespace granary::simd

namespace granary::simd::testing
{

/// Every kernel level; tests run once per level and skip the levels this CPU lacks.
inline const std::vector<SimdLevel> kAllSimdLevels = {SimdLevel::Scalar, SimdLevel::Sse,
                                                      SimdLevel::Avx2, SimdLevel::Avx512};

inline std::string simdLevelTestName(const ::testing::TestParamInfo<SimdLevel>& info)
{
    return std::string(simdLevelName(info.param));
}

/// Fixture base: the parameter is the forced kernel level.
class SimdLevelTest : public ::testing::TestWithParam<SimdLevel>
{
protected:
    void SetUp() override
    {
        if (!cpuSupports(GetParam()))
        {
            GTEST_SKIP() << "this CPU lacks " << simdLevelName(GetParam());
        }
    }
};

/// A String column whose chars sit in a heap buffer of exactly their size, so that AddressSanitizer
/// reports any read past the last row's final byte.
class ExactColumn
{
public:
    explicit ExactColumn(const std::vector<std::string>& rows) : offsets_(rows.size() + 1, 0)
    {
        for (size_t i = 0; i < rows.size(); ++i)
        {
            offsets_[i + 1] = offsets_[i] + rows[i].size();
        }
        chars_ = std::make_unique<char[]>(offsets_.back());
        for (size_t i = 0; i < rows.size(); ++i)
        {
            rows[i].copy(chars_.get() + offsets_[i], rows[i].size());
        }
    }

    StringColumnView view() const { return {chars_.get(), offsets_.data(), offsets_.size() - 1}; }

private:
    std::unique_ptr<char[]> chars_;
    std::vector<uint64_t> offsets_;
};

/// ASCII lower case, the oracle's way of ignoring case.
inline std::string asciiLower(std::string_view text)
{
    std::string lowered(text);
    for (char& byte : lowered)
    {
        if (byte >= 'A' && byte <= 'Z')
        {
            byte = static_cast<char>(byte - 'A' + 'a');
        }
    }
    return lowered;
}

}  // namespace granary::simd::testing
