#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/common/exception.h"
#include "engine/storage/storage_files.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

/// A database with one part of kAllTypesTable (encoded, the default, or raw as a test's
/// fixture asks); each test damages one of its files.
class Corruption : public ::testing::Test
{
protected:
    virtual std::string createStatement() const { return kAllTypesTable; }

    void SetUp() override
    {
        auto database = Database::open(folder_.path());
        createTable(*database, parseCreate(createStatement()));
        database->insert("t", {randomAllTypesBlock(20000, 21)});
        part_ = folder_.path() / "t" / "part_1";
        ASSERT_TRUE(std::filesystem::exists(part_ / "metadata.json"));
    }

    /// Opening the database and reading every column fails with kCorruptedData whose message
    /// holds `fragment`.
    void expectCorruptedNaming(const std::string& fragment)
    {
        try
        {
            auto database = Database::open(folder_.path());
            for (const auto& part : database->table("t")->snapshot()->parts)
            {
                for (size_t column = 0; column < part->columnCount(); ++column)
                {
                    WholeColumn read(*part, column);
                }
            }
            FAIL() << "no error naming " << fragment;
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kCorruptedData) << error.what();
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
    }
    void expectCorrupted(const std::filesystem::path& file)
    {
        expectCorruptedNaming(file.filename().string());
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

class RawCorruption : public Corruption
{
protected:
    std::string createStatement() const override
    {
        return std::string(kAllTypesTable) + " SETTINGS storage_format = 'raw'";
    }
};

TEST_F(RawCorruption, TruncatedColumnFile)
{
    std::filesystem::resize_file(part_ / "c3.bin", 100);
    expectCorrupted(part_ / "c3.bin");
}

TEST_F(RawCorruption, TruncatedStringOffsets)
{
    std::filesystem::resize_file(part_ / "c12.offsets", 8);
    expectCorrupted(part_ / "c12.offsets");
}

TEST_F(RawCorruption, EmptiedStringChars)
{
    std::filesystem::resize_file(part_ / "c12.chars", 0);
    expectCorrupted(part_ / "c12.chars");
}

TEST_F(Corruption, TruncatedValidityFile)
{
    std::filesystem::resize_file(part_ / "c14.null", 10);
    expectCorrupted(part_ / "c14.null");
}

TEST_F(RawCorruption, DeletedValidityFile)
{
    std::filesystem::remove(part_ / "c13.null");
    expectCorrupted(part_ / "c13.null");
}

TEST_F(Corruption, FlippedBytesInValidityAreCaughtByTheirChecksum)
{
    overwrite(part_ / "c13.null", 7, "\x5a");
    expectCorrupted(part_ / "c13.null");
}

TEST_F(Corruption, DeletedMarksFile)
{
    std::filesystem::remove(part_ / "k1.marks");
    expectCorrupted(part_ / "k1.marks");
}

TEST_F(RawCorruption, DeletedColumnFile)
{
    std::filesystem::remove(part_ / "c0.bin");
    expectCorrupted(part_ / "c0.bin");
}

TEST_F(Corruption, GarbledMetadata)
{
    overwrite(part_ / "metadata.json", 0, "{\"rows\": [garbage");
    expectCorrupted(part_ / "metadata.json");
}

TEST_F(RawCorruption, FlippedBytesInAColumnAreCaughtByItsChecksum)
{
    overwrite(part_ / "c7.bin", 4000, "\x5a\xa5\x5a\xa5");
    expectCorrupted(part_ / "c7.bin");
}

TEST_F(RawCorruption, FlippedBytesInStringsAreCaughtByTheirChecksum)
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

TEST_F(Corruption, TruncatedBlocksFile)
{
    std::filesystem::resize_file(part_ / "c3.blocks", 100);
    expectCorrupted(part_ / "c3.blocks");
}

TEST_F(Corruption, TruncatedBlockIndex)
{
    std::filesystem::resize_file(part_ / "c3.index", 8);
    expectCorrupted(part_ / "c3.index");
}

TEST_F(Corruption, DeletedDictionary)
{
    std::filesystem::remove(part_ / "c12.dict");
    expectCorrupted(part_ / "c12.dict");
}

TEST_F(Corruption, FlippedBytesInBlocksAreCaughtByTheirChecksum)
{
    overwrite(part_ / "c7.blocks", 40, "\x5a\xa5\x5a\xa5");
    expectCorrupted(part_ / "c7.blocks");
}

TEST_F(Corruption, FlippedBytesInADictionaryAreCaughtByItsChecksum)
{
    overwrite(part_ / "c12.dict", 20, "\x01\x02\x03");
    expectCorrupted(part_ / "c12.dict");
}

/// Damage the checksum cannot see (the metadata rewritten to match): the block decoder itself
/// refuses, naming the file and the granule.
class ConsistentlyDamagedBlocks : public Corruption
{
protected:
    void damageConsistently(const std::string& file, size_t offset, std::string_view bytes)
    {
        overwrite(part_ / file, offset, bytes);
        const std::string contents = readWholeFile(part_ / file);
        nlohmann::json metadata = nlohmann::json::parse(readWholeFile(part_ / "metadata.json"));
        metadata["files"][file]["checksum"] = fileChecksum(contents.data(), contents.size());
        std::ofstream(part_ / "metadata.json", std::ios::trunc) << metadata.dump();
    }
};

TEST_F(ConsistentlyDamagedBlocks, WrongRowCount)
{
    // The first block's row count (bytes 4..7 of its header).
    damageConsistently("c3.blocks", 4, std::string("\x01\x00\x00\x00", 4));
    expectCorruptedNaming("granule ");
}

TEST_F(ConsistentlyDamagedBlocks, UnknownEncoding)
{
    damageConsistently("c5.blocks", 0, "\x77");
    expectCorruptedNaming("granule ");
}

TEST_F(ConsistentlyDamagedBlocks, UnknownCodec)
{
    damageConsistently("c12.blocks", 1, "\x09");
    expectCorruptedNaming("granule ");
}

TEST_F(ConsistentlyDamagedBlocks, StoredSizePastTheBlock)
{
    damageConsistently("c9.blocks", 8, std::string("\xff\xff\x00\x00", 4));
    expectCorruptedNaming("granule ");
}

}  // namespace
}  // namespace granary::storage_test
