#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace granary::testing
{

/// Collects a fixed-key table's contents (via forEachCell) into a std::unordered_map, failing
/// the test on a duplicate key; the result is then compared with the oracle as a whole.
template <typename Table, typename Key, typename Mapped>
std::unordered_map<Key, Mapped> contentsOf(const Table& table)
{
    std::unordered_map<Key, Mapped> contents;
    table.forEachCell(
        [&](const auto& cell)
        {
            const bool fresh = contents.emplace(cell.key(), cell.mapped()).second;
            EXPECT_TRUE(fresh) << "key visited twice";
        });
    return contents;
}

template <typename Table, typename Key>
std::unordered_set<Key> keysOf(const Table& table)
{
    std::unordered_set<Key> keys;
    table.forEachCell(
        [&](const auto& cell)
        {
            const bool fresh = keys.insert(cell.key()).second;
            EXPECT_TRUE(fresh) << "key visited twice";
        });
    return keys;
}

/// Same for string tables (forEach with string_view keys).
template <typename Table, typename Mapped>
std::unordered_map<std::string, Mapped> stringContentsOf(const Table& table)
{
    std::unordered_map<std::string, Mapped> contents;
    table.forEach(
        [&](std::string_view key, const Mapped& mapped)
        {
            const bool fresh = contents.emplace(std::string(key), mapped).second;
            EXPECT_TRUE(fresh) << "key visited twice: " << key;
        });
    return contents;
}

template <typename Table>
std::unordered_set<std::string> stringKeysOf(const Table& table)
{
    std::unordered_set<std::string> keys;
    table.forEach(
        [&](std::string_view key)
        {
            const bool fresh = keys.emplace(key).second;
            EXPECT_TRUE(fresh) << "key visited twice: " << key;
        });
    return keys;
}

}  // namespace granary::testing
