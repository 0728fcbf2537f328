// Nullable columns on disk: a part with NULLs keeps a validity file per Nullable column, a part
// without keeps exactly what a non-Nullable column's part keeps.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// Every file of a part's folder but the metadata, with its size.
std::map<std::string, uintmax_t> partFiles(const std::filesystem::path& part)
{
    std::map<std::string, uintmax_t> files;
    for (const auto& entry : std::filesystem::directory_iterator(part))
    {
        if (entry.path().filename() != "metadata.json")
        {
            files[entry.path().filename().string()] = entry.file_size();
        }
    }
    return files;
}

/// Rows k, k * 3, "value-k" (no NULL) in columns of the given types.
Block rowsOf(const DataType& number, const DataType& text, size_t rows)
{
    Block block;
    block.columns.push_back({"k", Column(TypeId::UInt32)});
    block.columns.push_back({"a", Column(number)});
    block.columns.push_back({"s", Column(text)});
    for (size_t row = 0; row < rows; ++row)
    {
        block.columns[0].column.append(static_cast<uint32_t>(row));
        block.columns[1].column.append(static_cast<uint64_t>(row * 3));
        block.columns[2].column.appendString("value-" + std::to_string(row % 97));
    }
    return block;
}

class NullableStorage : public ::testing::TestWithParam<std::string>
{
protected:
    /// Tables `plain` (a UInt64, s String) and `nullable` (the same, Nullable), keyed by k.
    std::shared_ptr<Database> createTables()
    {
        auto database = Database::open(folder_.path());
        for (const auto& [table, columns] :
             {std::pair{"plain", "a UInt64, s String"},
              std::pair{"nullable", "a Nullable(UInt64), s Nullable(String)"}})
        {
            createTable(
                *database,
                parseCreate(std::string("CREATE TABLE ") + table + " (k UInt32, " + columns +
                            ") ORDER BY k SETTINGS storage_format = '" + GetParam() + "'"));
        }
        return database;
    }

    TemporaryFolder folder_;
};

TEST_P(NullableStorage, PartsWithoutNullsKeepTheSameFilesAsNotNullColumns)
{
    auto database = createTables();
    constexpr size_t kRows = 30000;
    database->insert("plain", {rowsOf(TypeId::UInt64, TypeId::String, kRows)});
    database->insert("nullable", {rowsOf(DataType::makeNullable(TypeId::UInt64),
                                         DataType::makeNullable(TypeId::String), kRows)});
    const auto plain = partFiles(folder_.path() / "plain" / "part_1");
    EXPECT_EQ(partFiles(folder_.path() / "nullable" / "part_1"), plain);
    EXPECT_FALSE(plain.empty());
}

TEST_P(NullableStorage, NullsLiveInOneValidityFilePerColumnAndReadBack)
{
    auto database = createTables();
    constexpr size_t kRows = 30000;
    Block block = rowsOf(DataType::makeNullable(TypeId::UInt64),
                         DataType::makeNullable(TypeId::String), kRows);
    for (size_t row = 0; row < kRows; row += 7)
    {
        block.columns[1].column.setNull(row);
    }
    database->insert("nullable", {block});
    const auto files = partFiles(folder_.path() / "nullable" / "part_1");
    EXPECT_EQ(files.at("c1.null"), (kRows + 7) / 8);
    EXPECT_FALSE(files.contains("c2.null")) << "s has no NULL";
    EXPECT_FALSE(files.contains("c0.null")) << "k is not Nullable";

    // Reopened from disk, the part reads the same rows, NULLs where they were.
    auto reopened = Database::open(folder_.path());
    EXPECT_EQ(sortedRows(*reopened->table("nullable")->snapshot()), sortedRows({block}));
    const auto& part = *reopened->table("nullable")->snapshot()->parts.at(0);
    const WholeColumn values(part, 1);
    size_t nulls = 0;
    for (size_t row = 0; row < part.rows(); ++row)
    {
        nulls += values.view().isValid(row) ? 0 : 1;
        if (!values.view().isValid(row))
        {
            EXPECT_EQ(values.view().valueAt<uint64_t>(row), 0u) << "a NULL row holds the default";
        }
    }
    EXPECT_EQ(nulls, (kRows + 6) / 7);
}

INSTANTIATE_TEST_SUITE_P(Formats, NullableStorage, ::testing::Values("raw", "compressed"));

}  // namespace
}  // namespace granary::storage_test
