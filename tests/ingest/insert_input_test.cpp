// INSERT with data in every input format through a Session: the same rows land whatever the
// format (the TSV loader, tested on its own, is the oracle), and a failed insert leaves
// nothing behind.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/common/exception.h"
#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

constexpr std::string_view kCreate =
    "CREATE TABLE t (id UInt32, name String, day Date, score Float64) ORDER BY id";

/// Deterministic rows as TSV, and the same rows written by Granary in `format`.
std::string tsvRows(size_t rows)
{
    std::string tsv;
    for (size_t row = 0; row < rows; ++row)
    {
        tsv += std::to_string(row * 7919 % 100003) + "\tname " + std::to_string(row % 13) +
               "\t2024-0" + std::to_string(1 + row % 9) + "-1" + std::to_string(row % 10) + "\t" +
               std::to_string(row) + ".25\n";
    }
    return tsv;
}

std::string tableAs(Session& session, OutputFormat format)
{
    std::ostringstream out;
    writeBlock(session.execute("SELECT * FROM t ORDER BY id").block, format, out);
    return out.str();
}

class InsertFormats : public ::testing::Test
{
protected:
    void SetUp() override
    {
        reference_ = std::make_unique<Session>(Database::openInMemory());
        reference_->execute(kCreate);
        const std::string rows = tsvRows(5000);
        QueryOptions options;
        options.insert_bytes = rows;
        reference_->execute("INSERT INTO t FORMAT TSV", options);
        session_ = std::make_unique<Session>(Database::openInMemory());
        session_->execute(kCreate);
    }

    size_t insert(std::string_view sql, std::string_view data)
    {
        QueryOptions options;
        options.insert_bytes = data;
        return session_->execute(sql, options).rows_written;
    }

    size_t rowCount()
    {
        return session_->execute("SELECT count() FROM t")
            .block.columns[0]
            .column.valueAt<uint64_t>(0);
    }

    std::unique_ptr<Session> reference_;
    std::unique_ptr<Session> session_;
};

TEST_F(InsertFormats, EveryFormatLandsTheSameRows)
{
    const std::string expected = tableAs(*reference_, OutputFormat::kTSV);
    for (const OutputFormat format :
         {OutputFormat::kRowBinary, OutputFormat::kRowBinaryWithNamesAndTypes,
          OutputFormat::kJSONEachRow, OutputFormat::kCSVWithNames})
    {
        SetUp();
        const std::string data = tableAs(*reference_, format);
        const char* name = format == OutputFormat::kRowBinary ? "RowBinary"
                           : format == OutputFormat::kRowBinaryWithNamesAndTypes
                               ? "RowBinaryWithNamesAndTypes"
                           : format == OutputFormat::kJSONEachRow ? "JSONEachRow"
                                                                  : "CSVWithNames";
        EXPECT_EQ(insert(std::string("INSERT INTO t FORMAT ") + name, data), 5000u) << name;
        EXPECT_EQ(tableAs(*session_, OutputFormat::kTSV), expected) << name;
    }
}

TEST_F(InsertFormats, AFailedInsertLeavesNothing)
{
    std::string data = tableAs(*reference_, OutputFormat::kRowBinary);
    data.pop_back();  // the last row is cut short
    EXPECT_THROW(insert("INSERT INTO t FORMAT RowBinary", data), Exception);
    EXPECT_EQ(rowCount(), 0u);
    std::string json = tableAs(*reference_, OutputFormat::kJSONEachRow);
    json += "{\"id\": \"x\"}\n";
    EXPECT_THROW(insert("INSERT INTO t FORMAT JSONEachRow", json), Exception);
    EXPECT_EQ(rowCount(), 0u);
}

TEST_F(InsertFormats, UnknownFormatIsNamed)
{
    try
    {
        insert("INSERT INTO t FORMAT Parquet", "");
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kUnknownFormat);
        EXPECT_NE(std::string(error.what()).find("Parquet"), std::string::npos);
    }
}

}  // namespace
}  // namespace granary
