// The pieces a part writer streams through: a checksum fed in pieces, and sorted rows read out
// in row ranges into a reused column.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/storage/part_builder.h"
#include "engine/storage/storage_files.h"

namespace granary
{
namespace
{

TEST(FileChecksum, AnySplitOfTheBytesGivesTheWholeBuffersChecksum)
{
    std::mt19937_64 random(7);
    std::string bytes(10'000, '\0');
    for (char& byte : bytes)
    {
        byte = static_cast<char>(random());
    }
    for (size_t size :
         {size_t{0}, size_t{1}, size_t{31}, size_t{32}, size_t{33}, size_t{100}, bytes.size()})
    {
        const uint64_t whole = fileChecksum(bytes.data(), size);
        for (int trial = 0; trial < 20; ++trial)
        {
            FileChecksum pieces;
            for (size_t offset = 0; offset < size;)
            {
                const size_t piece = std::min<size_t>(size - offset, random() % 70);
                pieces.update(bytes.data() + offset, piece);
                offset += piece;
            }
            EXPECT_EQ(pieces.value(), whole) << size << " bytes, trial " << trial;
        }
    }
    EXPECT_NE(fileChecksum(bytes.data(), 64), fileChecksum(bytes.data() + 1, 64));
}

/// Piece p's columns: key k (Int32) and string s, `rows` rows.
struct Pieces
{
    std::vector<Column> keys;
    std::vector<Column> strings;
    std::vector<std::vector<ColumnView>> views;
};

Pieces makePieces(const std::vector<size_t>& piece_rows, bool sorted, uint64_t seed)
{
    std::mt19937_64 random(seed);
    Pieces pieces;
    int32_t next_key = 0;
    for (size_t rows : piece_rows)
    {
        Column keys(TypeId::Int32);
        Column strings(TypeId::String);
        for (size_t row = 0; row < rows; ++row)
        {
            keys.append(sorted ? next_key++ : static_cast<int32_t>(random() % 50));
            strings.appendString(std::string(random() % 40, static_cast<char>('a' + row % 26)) +
                                 std::to_string(row));
        }
        pieces.keys.push_back(std::move(keys));
        pieces.strings.push_back(std::move(strings));
    }
    for (size_t piece = 0; piece < piece_rows.size(); ++piece)
    {
        pieces.views.push_back({pieces.keys[piece].view(), pieces.strings[piece].view()});
    }
    return pieces;
}

/// The naive part: all rows, stably sorted by the key, as (key, string) pairs.
std::vector<std::pair<int32_t, std::string>> naiveRows(const Pieces& pieces)
{
    std::vector<std::pair<int32_t, std::string>> rows;
    for (size_t piece = 0; piece < pieces.keys.size(); ++piece)
    {
        for (size_t row = 0; row < pieces.keys[piece].size(); ++row)
        {
            rows.emplace_back(pieces.keys[piece].valueAt<int32_t>(row),
                              std::string(pieces.strings[piece].stringAt(row)));
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& left, const auto& right) { return left.first < right.first; });
    return rows;
}

void expectRangesMatchNaiveRows(const Pieces& pieces)
{
    TableSchema schema;
    schema.columns = {{"k", TypeId::Int32, {}}, {"s", TypeId::String, {}}};
    schema.sort_key = {"k"};
    const SortedRows sorted(pieces.views, schema, false);
    const auto expected = naiveRows(pieces);
    ASSERT_EQ(sorted.rows(), expected.size());
    Column keys(TypeId::Int32);
    Column strings(TypeId::String);
    // Ranges of varying length that cross piece boundaries, into the same reused columns.
    for (size_t begin = 0, length = 1; begin < expected.size();
         begin += length, length = length * 3 % 1000 + 1)
    {
        const size_t end = std::min(expected.size(), begin + length);
        sorted.gather(0, begin, end, keys);
        sorted.gather(1, begin, end, strings);
        ASSERT_EQ(keys.size(), end - begin);
        ASSERT_EQ(strings.size(), end - begin);
        for (size_t row = begin; row < end; ++row)
        {
            ASSERT_EQ(keys.valueAt<int32_t>(row - begin), expected[row].first) << "row " << row;
            ASSERT_EQ(strings.stringAt(row - begin), expected[row].second) << "row " << row;
        }
    }
}

TEST(SortedRows, RangesOfUnsortedPiecesMatchANaiveStableSort)
{
    expectRangesMatchNaiveRows(makePieces({3000, 0, 1, 2500}, false, 11));
}

TEST(SortedRows, RangesOfPiecesAlreadyInOrderMatchTheirConcatenation)
{
    expectRangesMatchNaiveRows(makePieces({1200, 0, 7, 3000, 1}, true, 12));
}

}  // namespace
}  // namespace granary
