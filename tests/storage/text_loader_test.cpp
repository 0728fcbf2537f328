#include "engine/storage/text_loader.h"

#include <gtest/gtest.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include "engine/common/exception.h"
#include "storage_test_support.h"

namespace granary::storage_test
{
namespace
{

std::string formatDate(uint16_t days)
{
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
    char text[16];
    std::snprintf(text, sizeof(text), "%04d-%02u-%02u", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
    return text;
}

std::string formatDateTime(uint32_t seconds)
{
    const auto days = static_cast<uint16_t>(seconds / 86400);
    const uint32_t in_day = seconds % 86400;
    char text[16];
    std::snprintf(text, sizeof(text), " %02u:%02u:%02u", in_day / 3600, in_day / 60 % 60,
                  in_day % 60);
    return formatDate(days) + text;
}

template <typename T>
std::string formatNumber(T value)
{
    char text[64];
    const auto result = std::to_chars(text, text + sizeof(text), value);
    return std::string(text, result.ptr);
}

std::string escapeTsv(std::string_view value)
{
    std::string escaped;
    for (const char byte : value)
    {
        switch (byte)
        {
            case '\t':
                escaped += "\\t";
                break;
            case '\n':
                escaped += "\\n";
                break;
            case '\\':
                escaped += "\\\\";
                break;
            case '\0':
                escaped += "\\0";
                break;
            default:
                escaped += byte;
        }
    }
    return escaped;
}

std::string quoteCsv(std::string_view value)
{
    std::string quoted = "\"";
    for (const char byte : value)
    {
        quoted += byte;
        if (byte == '"')
        {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

/// The block as text, written independently of the loader: every value through the standard
/// library's formatting.
std::string formatBlock(const Block& block, TextFormat format)
{
    const bool csv = isCsv(format);
    std::string text;
    if (hasHeader(format))
    {
        for (size_t column = 0; column < block.columns.size(); ++column)
        {
            text += (column ? (csv ? "," : "\t") : "") + block.columns[column].name;
        }
        text += "\n";
    }
    for (size_t row = 0; row < block.rows(); ++row)
    {
        for (size_t column = 0; column < block.columns.size(); ++column)
        {
            if (column > 0)
            {
                text += csv ? ',' : '\t';
            }
            const Column& values = block.columns[column].column;
            if (values.isNull(row))
            {
                text += "\\N";
                continue;
            }
            switch (values.type())
            {
                case TypeId::Date:
                    text += formatDate(values.valueAt<uint16_t>(row));
                    break;
                case TypeId::DateTime:
                    text += formatDateTime(values.valueAt<uint32_t>(row));
                    break;
                case TypeId::String:
                    text += csv ? quoteCsv(values.stringAt(row)) : escapeTsv(values.stringAt(row));
                    break;
                default:
                    dispatchFixedType(values.type(), [&]<typename T>(TypeTag<T>)
                                      { text += formatNumber(values.valueAt<T>(row)); });
            }
        }
        text += csv && row % 2 ? "\r\n" : "\n";
    }
    return text;
}

std::shared_ptr<Database> databaseWithTable()
{
    auto database = Database::openInMemory();
    createTable(*database, parseCreate(kAllTypesTable));
    return database;
}

class Formats : public ::testing::TestWithParam<TextFormat>
{
};

TEST_P(Formats, ParallelLoadEqualsTheValuesWritten)
{
    const Block block = randomAllTypesBlock(20000, 31);
    const std::string text = formatBlock(block, GetParam());
    const std::vector<std::string> expected = sortedRows(std::vector<Block>{block});
    for (const size_t threads : {1, 4})
    {
        auto database = databaseWithTable();
        std::istringstream input(text);
        LoadOptions options;
        options.format = GetParam();
        options.threads = threads;
        EXPECT_EQ(loadText(*database, "t", input, options), 20000u);
        EXPECT_EQ(sortedRows(*database->table("t")->snapshot()), expected) << threads << " threads";
    }
}

INSTANTIATE_TEST_SUITE_P(Storage, Formats,
                         ::testing::Values(TextFormat::kTSV, TextFormat::kTSVWithNames,
                                           TextFormat::kCSV, TextFormat::kCSVWithNames));

TEST(TextLoader, SubsetOfColumnsFillsTheOthersWithDefaults)
{
    auto database = Database::openInMemory();
    createTable(*database, parseCreate("CREATE TABLE t (a UInt8, b String, c Int32)"));
    std::istringstream input("x\t7\ny\t-3\n");
    LoadOptions options;
    options.columns = {"b", "c"};
    EXPECT_EQ(loadText(*database, "t", input, options), 2u);
    const auto& part = *database->table("t")->snapshot()->parts.at(0);
    EXPECT_EQ(WholeColumn(part, 0).view().valueAt<uint8_t>(1), 0);
    EXPECT_EQ(WholeColumn(part, 1).view().stringAt(1), "y");
    EXPECT_EQ(WholeColumn(part, 2).view().valueAt<int32_t>(1), -3);
}

TEST(TextLoader, FormatNames)
{
    EXPECT_EQ(textFormatFromName("TabSeparated"), TextFormat::kTSV);
    EXPECT_EQ(textFormatFromName("tsvwithnames"), TextFormat::kTSVWithNames);
    EXPECT_EQ(textFormatFromName("TabSeparatedWithNames"), TextFormat::kTSVWithNames);
    EXPECT_EQ(textFormatFromName("CSV"), TextFormat::kCSV);
    EXPECT_EQ(textFormatFromName("CSVWithNames"), TextFormat::kCSVWithNames);
    EXPECT_THROW(textFormatFromName("Parquet"), Exception);
}

TEST(TextLoader, EmptyInputLoadsNothing)
{
    auto database = Database::openInMemory();
    createTable(*database, parseCreate("CREATE TABLE t (a UInt8)"));
    std::istringstream input("");
    EXPECT_EQ(loadText(*database, "t", input, {}), 0u);
    EXPECT_EQ(database->table("t")->snapshot()->rows(), 0u);
}

struct MalformedCase
{
    const char* name;
    TextFormat format;
    std::string input;
    std::vector<std::string> columns;
    ErrorCode code;
    std::vector<std::string> message_parts;
};

class Malformed : public ::testing::TestWithParam<MalformedCase>
{
};

TEST_P(Malformed, FailsWithCodeAndPlaceAndChangesNothing)
{
    const MalformedCase& malformed = GetParam();
    TemporaryFolder folder;
    auto database = Database::open(folder.path());
    createTable(
        *database,
        parseCreate(
            "CREATE TABLE t (id UInt32, small UInt8, day Date, moment DateTime, name String)"));
    std::istringstream good("1\t2\t2020-01-01\t2020-01-01 10:00:00\tfirst\n");
    ASSERT_EQ(loadText(*database, "t", good, {}), 1u);
    // Enough good rows before the bad one that a parallel load splits them across workers.
    std::string input;
    if (malformed.format == TextFormat::kTSV && malformed.code == ErrorCode::kCannotParseInput)
    {
        for (int row = 0; row < 1000; ++row)
        {
            input += "5\t6\t2021-02-03\t2021-02-03 04:05:06\tfine\n";
        }
    }
    input += malformed.input;
    std::istringstream stream(input);
    LoadOptions options;
    options.format = malformed.format;
    options.columns = malformed.columns;
    options.threads = 3;
    try
    {
        loadText(*database, malformed.name == std::string("unknown table") ? "nope" : "t", stream,
                 options);
        FAIL() << "no error";
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), malformed.code) << error.what();
        for (const std::string& part : malformed.message_parts)
        {
            EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
                << "'" << error.what() << "' lacks '" << part << "'";
        }
    }
    EXPECT_EQ(database->table("t")->snapshot()->rows(), 1u);
    EXPECT_EQ(Database::open(folder.path())->table("t")->snapshot()->rows(), 1u);
}

constexpr auto kTSV = TextFormat::kTSV;
constexpr auto kCSV = TextFormat::kCSV;
const ErrorCode kParse = ErrorCode::kCannotParseInput;

INSTANTIATE_TEST_SUITE_P(
    Storage, Malformed,
    ::testing::Values(
        MalformedCase{"bad int",
                      kTSV,
                      "1\t2\t2020-01-01\t2020-01-01 00:00:00\tx\nabc\t2\t2020-01-01\t2020-01-01 "
                      "00:00:00\tx\n",
                      {},
                      kParse,
                      {"line 1002, column 1 (id)", "cannot parse 'abc' as UInt32"}},
        MalformedCase{"out of range",
                      kTSV,
                      "1\t300\t2020-01-01\t2020-01-01 00:00:00\tx\n",
                      {},
                      kParse,
                      {"line 1001, column 2 (small)", "'300' as UInt8", "out of range"}},
        MalformedCase{"negative unsigned",
                      kTSV,
                      "-1\t3\t2020-01-01\t2020-01-01 00:00:00\tx\n",
                      {},
                      kParse,
                      {"line 1001, column 1 (id)", "out of range"}},
        MalformedCase{"bad date",
                      kTSV,
                      "1\t3\t2020-02-30\t2020-01-01 00:00:00\tx\n",
                      {},
                      kParse,
                      {"line 1001, column 3 (day)", "'2020-02-30' as Date"}},
        MalformedCase{"bad datetime",
                      kTSV,
                      "1\t3\t2020-02-03\t2020-01-01 25:00:00\tx\n",
                      {},
                      kParse,
                      {"line 1001, column 4 (moment)", "as DateTime"}},
        MalformedCase{"too few fields",
                      kTSV,
                      "1\t3\t2020-02-03\n",
                      {},
                      kParse,
                      {"line 1001, column 3 (day)", "too few fields"}},
        MalformedCase{"too many fields",
                      kTSV,
                      "1\t3\t2020-02-03\t2020-01-01 00:00:00\tx\ty\n",
                      {},
                      kParse,
                      {"line 1001, column 5 (name)", "too many fields"}},
        MalformedCase{"bad escape",
                      kTSV,
                      "1\t3\t2020-02-03\t2020-01-01 00:00:00\tx\\q\n",
                      {},
                      kParse,
                      {"line 1001, column 5 (name)", "bad escape"}},
        MalformedCase{"unterminated quote",
                      kCSV,
                      "1,3,2020-02-03,2020-01-01 00:00:00,\"fine\"\n"
                      "2,3,2020-02-03,2020-01-01 00:00:00,\"open\nstill open\n",
                      {},
                      kParse,
                      {"line 2, column 5 (name)", "unterminated"}},
        MalformedCase{"empty input with header",
                      TextFormat::kTSVWithNames,
                      "",
                      {},
                      kParse,
                      {"line 1", "empty input"}},
        MalformedCase{"unknown column",
                      kTSV,
                      "1\n",
                      {"id", "missing"},
                      ErrorCode::kUnknownColumn,
                      {"missing"}},
        MalformedCase{"unknown header column",
                      TextFormat::kCSVWithNames,
                      "id,bogus\n1,2\n",
                      {},
                      ErrorCode::kUnknownColumn,
                      {"bogus"}},
        MalformedCase{"unknown table", kTSV, "1\n", {}, ErrorCode::kUnknownTable, {"nope"}},
        MalformedCase{"text after quote",
                      kCSV,
                      "1,3,2020-02-03,2020-01-01 00:00:00,\"a\"b\n",
                      {},
                      kParse,
                      {"line 1, column 5 (name)"}}),
    [](const auto& info)
    {
        std::string name = info.param.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        return name;
    });

TEST(TextLoader, MissingFileIsCannotOpenFile)
{
    auto database = databaseWithTable();
    try
    {
        loadTextFile(*database, "t", "/nonexistent/granary/input.tsv", {});
        FAIL();
    }
    catch (const Exception& error)
    {
        EXPECT_EQ(error.code(), ErrorCode::kCannotOpenFile);
        EXPECT_NE(std::string(error.what()).find("/nonexistent/granary/input.tsv"),
                  std::string::npos);
    }
}

TEST(TextLoader, MillionRowSpeed)
{
    TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "rows.tsv";
    std::filesystem::create_directories(folder.path());
    {
        std::ofstream output(file, std::ios::binary);
        std::mt19937_64 random(41);
        std::string line;
        for (size_t row = 0; row < 1000000; ++row)
        {
            line = std::to_string(random() % 100000) + "\t" + std::to_string(random() % 1000) +
                   "\t2013-07-" + std::to_string(10 + random() % 20) +
                   " 12:34:56\thttp://example.com/" + std::to_string(random() % 100000) + "\t" +
                   std::to_string(random()) + "\n";
            output << line;
        }
    }
    for (const bool on_disk : {false, true})
    {
        auto database = on_disk ? Database::open(folder.path() / "db") : Database::openInMemory();
        createTable(*database, parseCreate("CREATE TABLE hits (CounterID UInt32, RegionID UInt32, "
                                           "EventTime DateTime, URL String, "
                                           "UserID UInt64) ORDER BY (CounterID, EventTime)"));
        LoadOptions options;
        options.threads = 2;
        const auto started = std::chrono::steady_clock::now();
        const std::clock_t cpu_started = std::clock();
        EXPECT_EQ(loadTextFile(*database, "hits", file, options), 1000000u);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const double cpu_seconds = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
        // CPU time too: on a shared machine the wall time mostly measures the neighbours.
        std::printf(
            "[ speed    ] 1M-row TSV load (%s, 2 threads, %.1f MB): %.2f s wall, "
            "%.0f rows/s; %.2f s CPU, %.0f rows per CPU second\n",
            on_disk ? "on disk" : "in memory",
            static_cast<double>(std::filesystem::file_size(file)) / 1e6, seconds, 1e6 / seconds,
            cpu_seconds, 1e6 / cpu_seconds);
    }
}

}  // namespace
}  // namespace granary::storage_test
