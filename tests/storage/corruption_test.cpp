#include <gtest/gtest.h>

#include <fstream>

#include "engine/common/exception.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// A database with one part of kAllTypesTable; each test damages one of its files.
class Corruption : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto database = Database::open(folder_.path());
        database->createTable(parseCreate(kAllTypesTable));
        database->insert("t", {randomAllTypesBlock(20000, 21)});
        part_ = folder_.path() / "t" / "part_1";
        ASSERT_TRUE(std::filesystem::exists(part_ / "metadata.json"));
    }

    /// Opening and reading every column fails with kCorruptedData naming `file`.
    void expectCorrupted(const std::filesystem::path& file)
    {
        try
        {
            auto database = Database::open(folder_.path());
            for (const auto& part : database->table("t")->snapshot()->parts)
            {
                for (size_t column = 0; column < part->columnCount(); ++column)
                {
                    part->column(column);
                }
            }
            FAIL() << "no error for damaged " << file;
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kCorruptedData) << error.what();
            EXPECT_NE(std::string(error.what()).find(file.filename().string()), std::string::npos)
                << error.what();
        }
    }

    static void overwrite(const std::filesystem::path& file, size_t offset, std::string_view bytes)
    {
        std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
        stream.seekp(static_cast<std::streamoff>(offset));
        stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

    TemporaryFolder folder_;
    std::filesystem::path part_;
};

TEST_F(Corruption, TruncatedColumnFile)
{
    std::filesystem::resize_file(part_ / "c3.bin", 100);
    expectCorrupted(part_ / "c3.bin");
}

TEST_F(Corruption, TruncatedStringOffsets)
{
    std::filesystem::resize_file(part_ / "c12.offsets", 8);
    expectCorrupted(part_ / "c12.offsets");
}

TEST_F(Corruption, EmptiedStringChars)
{
    std::filesystem::resize_file(part_ / "c12.chars", 0);
    expectCorrupted(part_ / "c12.chars");
}

TEST_F(Corruption, DeletedMarksFile)
{
    std::filesystem::remove(part_ / "k1.marks");
    expectCorrupted(part_ / "k1.marks");
}

TEST_F(Corruption, DeletedColumnFile)
{
    std::filesystem::remove(part_ / "c0.bin");
    expectCorrupted(part_ / "c0.bin");
}

TEST_F(Corruption, GarbledMetadata)
{
    overwrite(part_ / "metadata.json", 0, "{\"rows\": [garbage");
    expectCorrupted(part_ / "metadata.json");
}

TEST_F(Corruption, FlippedBytesInAColumnAreCaughtByItsChecksum)
{
    overwrite(part_ / "c7.bin", 4000, "\x5a\xa5\x5a\xa5");
    expectCorrupted(part_ / "c7.bin");
}

TEST_F(Corruption, FlippedBytesInStringsAreCaughtByTheirChecksum)
{
    overwrite(part_ / "c12.chars", 10, "\x01\x02\x03");
    expectCorrupted(part_ / "c12.chars");
}

TEST_F(Corruption, FlippedBytesInMarks)
{
    overwrite(part_ / "k0.marks", 0, "\x7f\x7f\x7f\x7f");
    expectCorrupted(part_ / "k0.marks");
}

TEST_F(Corruption, GarbledManifest)
{
    overwrite(folder_.path() / "t" / "manifest.json", 0, "]]]]");
    expectCorrupted(folder_.path() / "t" / "manifest.json");
}

TEST_F(Corruption, GarbledSchema)
{
    overwrite(folder_.path() / "t" / "schema.json", 0, "nonsense");
    expectCorrupted(folder_.path() / "t" / "schema.json");
}

TEST_F(Corruption, PartListedInManifestButMissing)
{
    std::filesystem::remove_all(part_);
    expectCorrupted(part_ / "metadata.json");
}

}  // namespace
}  // namespace granary::storage_test
