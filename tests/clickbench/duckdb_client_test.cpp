#include "programs/clickbench/duckdb_client.h"

#include <gtest/gtest.h>

#include "engine/common/exception.h"
#include "programs/clickbench/duckdb_engine.h"
#include "programs/clickbench/result_comparison.h"
#include "programs/clickbench/suite_verification.h"
#include "tests/support/temporary_folder.h"

namespace granary::clickbench
{
namespace
{

class DuckDbClientTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const auto library = DuckDbApi::findLibrary();
        if (library.empty())
        {
            GTEST_SKIP() << "libduckdb.so not installed (tools/install_duckdb.sh or "
                            "GRANARY_DUCKDB_LIB)";
        }
        client_ = std::make_unique<DuckDbClient>(DuckDbApi::load(library));
    }

    std::unique_ptr<DuckDbClient> client_;
};

/// A Block with one column of every Granary type, including ClickHouse's zero date and
/// strings on both sides of DuckDB's 12-byte inline limit.
Block everyTypeBlock(size_t rows)
{
    Block block;
    block.columns.reserve(13);  // add() hands out references into the vector
    const auto add = [&](std::string name, TypeId type) -> Column&
    {
        block.columns.push_back({std::move(name), Column(type)});
        return block.columns.back().column;
    };
    Column& u8 = add("u8", TypeId::UInt8);
    Column& u16 = add("u16", TypeId::UInt16);
    Column& u32 = add("u32", TypeId::UInt32);
    Column& u64 = add("u64", TypeId::UInt64);
    Column& i8 = add("i8", TypeId::Int8);
    Column& i16 = add("i16", TypeId::Int16);
    Column& i32 = add("i32", TypeId::Int32);
    Column& i64 = add("i64", TypeId::Int64);
    Column& f32 = add("f32", TypeId::Float32);
    Column& f64 = add("f64", TypeId::Float64);
    Column& date = add("d", TypeId::Date);
    Column& time = add("t", TypeId::DateTime);
    Column& text = add("s", TypeId::String);
    for (size_t row = 0; row < rows; ++row)
    {
        u8.append<uint8_t>(static_cast<uint8_t>(250 + row % 6));
        u16.append<uint16_t>(static_cast<uint16_t>(65535 - row));
        u32.append<uint32_t>(static_cast<uint32_t>(4'000'000'000u + row));
        u64.append<uint64_t>(18'000'000'000'000'000'000ull + row);
        i8.append<int8_t>(static_cast<int8_t>(-128 + static_cast<int>(row % 3)));
        i16.append<int16_t>(static_cast<int16_t>(-30000 + static_cast<int>(row)));
        i32.append<int32_t>(-2'000'000'000 + static_cast<int32_t>(row));
        i64.append<int64_t>(-9'000'000'000'000'000'000ll + static_cast<int64_t>(row));
        f32.append<float>(0.5f + static_cast<float>(row));
        f64.append<double>(1.0 / (static_cast<double>(row) + 3));
        date.append<uint16_t>(static_cast<uint16_t>(row % 2 == 0 ? 0 : 15901));
        time.append<uint32_t>(static_cast<uint32_t>(1373846400u + row));
        text.appendString(row % 2 == 0
                              ? std::string("short")
                              : "a string longer than twelve bytes #" + std::to_string(row));
    }
    return block;
}

TEST_F(DuckDbClientTest, ReadsResultTypes)
{
    const TimedResult result = client_->query(
        "SELECT 42::BIGINT AS b, 1.5::DOUBLE AS d, 'hello' AS s, 'longer than twelve bytes' AS l, "
        "DATE '2013-07-15' AS dt, TIMESTAMP '2013-07-15 01:01:01' AS ts, "
        "SUM(x) AS h, NULL::INTEGER AS n, 7::USMALLINT AS u, TRUE AS flag "
        "FROM (VALUES (9223372036854775807), (9223372036854775807)) v(x)");
    ASSERT_EQ(result.table.rows.size(), 1u);
    EXPECT_GE(result.seconds, 0.0);
    const auto& row = result.table.rows[0];
    EXPECT_EQ(result.table.column_names[0], "b");
    EXPECT_TRUE(valuesEqual(row[0], Value::ofInteger(42)));
    EXPECT_TRUE(valuesEqual(row[1], Value::ofFloat(1.5)));
    EXPECT_EQ(row[2].text, "hello");
    EXPECT_EQ(row[3].text, "longer than twelve bytes");
    EXPECT_TRUE(valuesEqual(row[4], Value::ofDate(15901)));
    EXPECT_TRUE(valuesEqual(row[5], Value::ofTimestamp((15901LL * 86400 + 3661) * 1000000)));
    // SUM of BIGINT is a 128-bit HUGEINT in DuckDB: 2 * (2^63 - 1).
    EXPECT_TRUE(valuesEqual(row[6], Value::ofInteger((static_cast<__int128>(1) << 64) - 2)));
    EXPECT_EQ(row[7].kind, Value::Kind::Null);
    EXPECT_TRUE(valuesEqual(row[8], Value::ofInteger(7)));
    EXPECT_TRUE(valuesEqual(row[9], Value::ofInteger(1)));
}

TEST_F(DuckDbClientTest, ManyChunksOfResults)
{
    const TimedResult result = client_->query("SELECT range AS n FROM range(10000)");
    ASSERT_EQ(result.table.rows.size(), 10000u);
    EXPECT_TRUE(valuesEqual(result.table.rows[9999][0], Value::ofInteger(9999)));
}

TEST_F(DuckDbClientTest, ErrorsCarryDuckDbsMessage)
{
    try
    {
        client_->query("SELECT no_such_column FROM range(1)");
        FAIL() << "expected an exception";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("no_such_column"), std::string::npos)
            << error.what();
    }
}

TEST_F(DuckDbClientTest, AppendedBlockReadsBackEqual)
{
    // More rows than one DuckDB vector (2048), so several data chunks are appended.
    const Block block = everyTypeBlock(5000);
    client_->createTable("every_type", BlockView::of(block));
    client_->append("every_type", {BlockView::of(block)});
    const TimedResult back = client_->query("SELECT * FROM every_type");
    const ResultTable expected = resultTableOf(block);
    const Comparison comparison = compareResults(back.table, expected, OrderSpec{});
    EXPECT_EQ(comparison.outcome, Comparison::Outcome::kEqual) << comparison.detail;

    const TimedResult types = client_->query(
        "SELECT typeof(u16), typeof(d), typeof(t), typeof(s), min(d)::VARCHAR FROM every_type "
        "GROUP BY ALL");
    ASSERT_EQ(types.table.rows.size(), 1u);
    EXPECT_EQ(types.table.rows[0][0].text, "USMALLINT");
    EXPECT_EQ(types.table.rows[0][1].text, "DATE");
    EXPECT_EQ(types.table.rows[0][2].text, "TIMESTAMP");
    EXPECT_EQ(types.table.rows[0][3].text, "VARCHAR");
    EXPECT_EQ(types.table.rows[0][4].text, "1970-01-01");  // the zero date loads as itself
}

TEST_F(DuckDbClientTest, DatabaseFileKeepsTheRowsForTheNextClient)
{
    const testing::TemporaryFolder folder;
    std::filesystem::create_directories(folder.path());
    const std::filesystem::path file = folder.path() / "kept.duckdb";
    const Block block = everyTypeBlock(3000);
    {
        DuckDbClient writer(DuckDbApi::load(DuckDbApi::findLibrary()), file);
        writer.createTable("every_type", BlockView::of(block));
        writer.append("every_type", {BlockView::of(block)});
        writer.execute("CHECKPOINT");
    }
    EXPECT_TRUE(std::filesystem::exists(file));
    DuckDbClient reader(DuckDbApi::load(DuckDbApi::findLibrary()), file);
    const Comparison comparison = compareResults(reader.query("SELECT * FROM every_type").table,
                                                 resultTableOf(block), OrderSpec{});
    EXPECT_EQ(comparison.outcome, Comparison::Outcome::kEqual) << comparison.detail;
    EXPECT_THROW(DuckDbClient(DuckDbApi::load(DuckDbApi::findLibrary()),
                              folder.path() / "missing" / "folder" / "x.duckdb"),
                 Exception);
}

TEST_F(DuckDbClientTest, ArraysMapsBoolsAndDateTime64Load)
{
    // 3000 rows: row r has the array [r, r+1, ..., r+(r%4)-1], the map {'k': 'v<r>', 'n': ''}
    // for even r and {} for odd r, DateTime64(9) r ns + 1 s, DateTime64(3) r ms, Bool r % 2.
    constexpr size_t kRows = 3000;
    Block block;
    block.columns.push_back({"a", Column(DataType::array(TypeId::UInt32))});
    block.columns.push_back({"m", Column(DataType::map(TypeId::String, TypeId::String))});
    block.columns.push_back({"t", Column(DataType::dateTime64(9))});
    block.columns.push_back({"t3", Column(DataType::dateTime64(3))});
    block.columns.push_back({"b", Column(TypeId::Bool)});
    block.columns.push_back({"r", Column(TypeId::UInt32)});
    for (size_t row = 0; row < kRows; ++row)
    {
        Column& array = block.columns[0].column;
        for (size_t i = 0; i < row % 4; ++i)
        {
            array.child(0).append<uint32_t>(static_cast<uint32_t>(row + i));
        }
        array.closeNestedRow();
        Column& map = block.columns[1].column;
        if (row % 2 == 0)
        {
            map.child(0).appendString("k");
            map.child(1).appendString("v" + std::to_string(row));
            map.child(0).appendString("n");
            map.child(1).appendString("");
        }
        map.closeNestedRow();
        block.columns[2].column.append<int64_t>(1'000'000'000 + static_cast<int64_t>(row));
        block.columns[3].column.append<int64_t>(static_cast<int64_t>(row));
        block.columns[4].column.append<uint8_t>(static_cast<uint8_t>(row % 2));
        block.columns[5].column.append<uint32_t>(static_cast<uint32_t>(row));
    }
    client_->createTable("nested", BlockView::of(block));
    client_->append("nested", {BlockView::of(block)});
    const TimedResult back = client_->query(
        "SELECT r, len(a), coalesce(a[1], 0), coalesce(list_sum(a), 0), len(map_keys(m)), "
        "coalesce(m['k'], '-'), epoch_ns(t), epoch_ms(t3), b::INTEGER FROM nested ORDER BY r");
    ASSERT_EQ(back.table.rows.size(), kRows);
    for (size_t row = 0; row < kRows; ++row)
    {
        const std::vector<Value>& values = back.table.rows[row];
        const uint64_t length = row % 4;
        const uint64_t sum = length * row + length * (length - (length > 0 ? 1 : 0)) / 2;
        const std::vector<Value> expected = {
            Value::ofInteger(row),
            Value::ofInteger(length),
            Value::ofInteger(length > 0 ? row : 0),
            Value::ofInteger(sum),
            Value::ofInteger(row % 2 == 0 ? 2 : 0),
            Value::ofString(row % 2 == 0 ? "v" + std::to_string(row) : "-"),
            Value::ofInteger(1'000'000'000 + row),
            Value::ofInteger(row),
            Value::ofInteger(row % 2)};
        ASSERT_EQ(values.size(), expected.size());
        for (size_t column = 0; column < expected.size(); ++column)
        {
            EXPECT_TRUE(valuesEqual(values[column], expected[column]))
                << "row " << row << " column " << column << ": " << formatValue(values[column]);
        }
    }
    const TimedResult types =
        client_->query("SELECT typeof(a), typeof(m), typeof(t), typeof(b) FROM nested LIMIT 1");
    EXPECT_EQ(types.table.rows[0][0].text, "UINTEGER[]");
    EXPECT_EQ(types.table.rows[0][1].text, "MAP(VARCHAR, VARCHAR)");
    EXPECT_EQ(types.table.rows[0][2].text, "TIMESTAMP_NS");
    EXPECT_EQ(types.table.rows[0][3].text, "BOOLEAN");
}

TEST_F(DuckDbClientTest, RowsOfEveryBlockArrive)
{
    const std::vector<Block> blocks = {everyTypeBlock(5000), everyTypeBlock(1),
                                       everyTypeBlock(2049), everyTypeBlock(3000),
                                       everyTypeBlock(700)};
    std::vector<BlockView> views;
    ResultTable expected;
    for (const Block& block : blocks)
    {
        views.push_back(BlockView::of(block));
        ResultTable part = resultTableOf(block);
        expected.column_names = part.column_names;
        expected.rows.insert(expected.rows.end(), part.rows.begin(), part.rows.end());
    }
    client_->createTable("every_type", views[0]);
    client_->append("every_type", views);
    const TimedResult back = client_->query("SELECT * FROM every_type");
    const Comparison comparison = compareResults(back.table, expected, OrderSpec{});
    EXPECT_EQ(comparison.outcome, Comparison::Outcome::kEqual) << comparison.detail;
}

TEST_F(DuckDbClientTest, AppendToMissingTableNamesIt)
{
    const Block block = everyTypeBlock(10);
    try
    {
        client_->append("no_such_table", {BlockView::of(block)});
        FAIL() << "expected an exception";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kBadArguments);
        EXPECT_NE(std::string(error.what()).find("no_such_table"), std::string::npos)
            << error.what();
    }
}

TEST_F(DuckDbClientTest, SuiteOnDuckDbVerifiesAgainstItself)
{
    const Block block = everyTypeBlock(3000);
    client_->createTable("hits", BlockView::of(block));
    client_->append("hits", {BlockView::of(block)});
    DuckDbEngine engine(*client_);
    const std::vector<std::string> queries = {
        "SELECT s, count(*) AS c FROM hits GROUP BY s ORDER BY c DESC, s LIMIT 5",
        "SELECT d, count(DISTINCT i16) FROM hits GROUP BY d", "SELECT no_such_column FROM hits"};
    SuiteRun first{"duckdb", runSuite(engine, queries, 2, true, {}), 0, {}};
    SuiteRun second{"duckdb", runSuite(engine, queries, 1, true, {}), 0, {}};
    EXPECT_EQ(first.queries[0].rows, 5u);
    EXPECT_EQ(first.queries[1].rows, 2u);
    EXPECT_FALSE(first.queries[2].error.empty());
    const auto comparisons = verifySuites(first, second);
    ASSERT_TRUE(comparisons[0] && comparisons[1]);
    EXPECT_EQ(comparisons[0]->outcome, Comparison::Outcome::kEqual) << comparisons[0]->detail;
    EXPECT_EQ(comparisons[1]->outcome, Comparison::Outcome::kEqual) << comparisons[1]->detail;
    EXPECT_EQ(countVerificationFailures(first, second, comparisons), 1u);
}

}  // namespace
}  // namespace granary::clickbench
