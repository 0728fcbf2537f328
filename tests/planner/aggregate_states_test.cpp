// SQL's -State and -Merge combinators: states of a GROUP BY written out as TSV, loaded into a
// table of AggregateFunction(...) columns (on disk, reopened), and merged there give what the
// functions give over all the rows at once; at one thread and many. Damaged states, states of
// another function and columns that hold no states are clear errors.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/common/exception.h"
#include "engine/formats/output_format.h"
#include "engine/session/session.h"
#include "engine/storage/database.h"

namespace granary
{
namespace
{

namespace fs = std::filesystem;

constexpr size_t kRows = 200'000;  // Several morsels per half.

/// The functions merged: exact ones (equal to the one-pass answer to the byte) and sketches
/// whose merge is exact for these sizes (uniq keeps every hash up to 192 values per group;
/// topK's 3,000 counters hold every value of a group).
struct StatefulCall
{
    std::string function;   ///< As in a one-pass query: "quantilesExact(0.5, 0.9)".
    std::string arguments;  ///< "x" or "x, c".
    std::string type;       ///< The column's AggregateFunction(...) type.
};

const std::vector<StatefulCall> kCalls = {
    {"count", "", "AggregateFunction(count)"},
    {"sum", "x", "AggregateFunction(sum, UInt64)"},
    {"uniqExact", "name", "AggregateFunction(uniqExact, String)"},
    {"uniq", "x", "AggregateFunction(uniq, UInt64)"},
    {"quantilesExact(0.5, 0.9)", "x", "AggregateFunction(quantilesExact(0.5, 0.9), UInt64)"},
    {"topK(3, 1000)", "name", "AggregateFunction(topK(3, 1000), String)"},
    {"maxIf", "x, c", "AggregateFunction(maxIf, UInt64, UInt8)"},
    {"argMin", "name, id", "AggregateFunction(argMin, String, UInt32)"},
};

/// `function` with `suffix` after its name and before its parameters: quantilesExactState(0.5).
std::string withSuffix(const std::string& function, const std::string& suffix)
{
    const size_t parameters = function.find('(');
    return parameters == std::string::npos
               ? function + suffix
               : function.substr(0, parameters) + suffix + function.substr(parameters);
}

class AggregateStates : public ::testing::TestWithParam<size_t>
{
protected:
    void SetUp() override
    {
        directory_ = fs::temp_directory_path() /
                     ("granary_states_" + std::to_string(std::random_device{}()));
        fs::create_directories(directory_);
        session_.emplace(Session::openDatabase(directory_ / "data"));
        session_->execute(
            "CREATE TABLE src (id UInt32, k UInt16, x UInt64, name String, "
            "c UInt8) ORDER BY id");
        std::mt19937_64 random(11);
        Block block;
        block.columns.push_back({"id", Column(TypeId::UInt32)});
        block.columns.push_back({"k", Column(TypeId::UInt16)});
        block.columns.push_back({"x", Column(TypeId::UInt64)});
        block.columns.push_back({"name", Column(TypeId::String)});
        block.columns.push_back({"c", Column(TypeId::UInt8)});
        for (size_t row = 0; row < kRows; ++row)
        {
            block.columns[0].column.append(static_cast<uint32_t>(row));
            block.columns[1].column.append(static_cast<uint16_t>(random() % 50));
            block.columns[2].column.append(static_cast<uint64_t>(random() % 100));
            block.columns[3].column.appendString("n" + std::to_string(random() % 300) +
                                                 std::string(random() % 3 * 10, '.'));
            block.columns[4].column.append(static_cast<uint8_t>(random() % 3 == 0));
        }
        std::vector<Block> blocks;
        blocks.push_back(std::move(block));
        session_->database().insert("src", std::move(blocks));
        options_.threads = GetParam();
    }
    void TearDown() override
    {
        session_.reset();
        fs::remove_all(directory_);
    }

    std::string tsv(const std::string& query)
    {
        std::ostringstream out;
        writeBlock(session_->execute(query, options_).block, OutputFormat::kTSV, out);
        return out.str();
    }

    ErrorCode errorOf(const std::string& query, std::string* message = nullptr)
    {
        try
        {
            session_->execute(query, options_);
        }
        catch (const Exception& error)
        {
            if (message != nullptr)
            {
                *message = error.what();
            }
            return error.code();
        }
        return ErrorCode{};
    }

    /// Creates `agg` and loads into it the states of src's rows where `where`, per k, through
    /// a TSV file as a client would.
    void loadStates(const std::string& where, const std::string& file)
    {
        std::string select = "SELECT k";
        for (const StatefulCall& call : kCalls)
        {
            select += ", " + withSuffix(call.function, "State") + "(" + call.arguments + ")";
        }
        const fs::path path = directory_ / file;
        std::ofstream(path, std::ios::binary)
            << tsv(select + " FROM src WHERE " + where + " GROUP BY k");
        session_->execute("INSERT INTO agg FROM INFILE '" + path.string() + "' FORMAT TSV");
    }

    fs::path directory_;
    std::optional<Session> session_;
    QueryOptions options_;
};

TEST_P(AggregateStates, StatesLoadedInPartsMergeToTheOnePassAnswer)
{
    std::string create = "CREATE TABLE agg (k UInt16";
    std::string merged = "SELECT k";
    std::string one_pass = "SELECT k";
    for (size_t i = 0; i < kCalls.size(); ++i)
    {
        create += ", s" + std::to_string(i) + " " + kCalls[i].type;
        merged += ", " + withSuffix(kCalls[i].function, "Merge") + "(s" + std::to_string(i) + ")";
        one_pass += ", " + kCalls[i].function + "(" + kCalls[i].arguments + ")";
    }
    session_->execute(create + ") ORDER BY k");
    // Three loads of states over disjoint rows: several states per group to merge.
    loadStates("id % 3 = 0", "a.tsv");
    loadStates("id % 3 = 1", "b.tsv");
    loadStates("id % 3 = 2", "c.tsv");
    const std::string expected = tsv(one_pass + " FROM src GROUP BY k ORDER BY k");
    EXPECT_EQ(tsv(merged + " FROM agg GROUP BY k ORDER BY k"), expected);
    // The parts on disk read back in a new session the same.
    session_.emplace(Session::openDatabase(directory_ / "data"));
    EXPECT_EQ(tsv(merged + " FROM agg GROUP BY k ORDER BY k"), expected);
    // Without keys, and a state and its function side by side are not taken for one another.
    EXPECT_EQ(tsv("SELECT sumMerge(s1), count() FROM agg"), tsv("SELECT sum(x), 150 FROM src"));
    EXPECT_EQ(tsv("SELECT length(sumState(x)) > 0, sum(x) FROM src"),
              tsv("SELECT 1, sum(x) FROM src"));
}

TEST_P(AggregateStates, StatesOfASubqueryOrCteMergeWithTheirType)
{
    std::string states = "SELECT k";
    std::string merged = "SELECT k";
    std::string finalized = "SELECT k";
    std::string one_pass = "SELECT k";
    for (size_t i = 0; i < kCalls.size(); ++i)
    {
        const std::string column = "s" + std::to_string(i);
        states += ", " + withSuffix(kCalls[i].function, "State") + "(" + kCalls[i].arguments +
                  ") AS " + column;
        merged += ", " + withSuffix(kCalls[i].function, "Merge") + "(" + column + ")";
        finalized += ", finalizeAggregation(" + column + ")";
        one_pass += ", " + kCalls[i].function + "(" + kCalls[i].arguments + ")";
    }
    // The subquery's groups (k, id % 4) merge into k's: each group of k has four states.
    const std::string by_k = " GROUP BY k ORDER BY k";
    const std::string expected = tsv(one_pass + " FROM src" + by_k);
    EXPECT_EQ(tsv(merged + " FROM (" + states + " FROM src GROUP BY k, id % 4)" + by_k), expected);
    EXPECT_EQ(tsv("WITH partial AS (" + states + " FROM src GROUP BY k, id % 4) " + merged +
                  " FROM partial" + by_k),
              expected);
    // finalizeAggregation of a group's one state is the group's answer.
    EXPECT_EQ(tsv(finalized + " FROM (" + states + " FROM src GROUP BY k) ORDER BY k"), expected);
    // The result's columns are typed as the states are, ORDER BY and LIMIT between.
    const QueryResult result =
        session_->execute(states + " FROM src GROUP BY k ORDER BY k LIMIT 3", options_);
    for (size_t i = 0; i < kCalls.size(); ++i)
    {
        EXPECT_EQ(dataTypeName(result.block.columns[i + 1].column.dataType()), kCalls[i].type);
    }
}

TEST_P(AggregateStates, WrongStatesAndColumnsAreClearErrors)
{
    session_->execute(
        "CREATE TABLE agg (k UInt16, u AggregateFunction(uniqExact, String), plain String) "
        "ORDER BY k");
    std::string message;
    EXPECT_EQ(errorOf("SELECT sumMerge(u) FROM agg", &message), ErrorCode::kTypeMismatch);
    EXPECT_NE(message.find("AggregateFunction(uniqExact, String)"), std::string::npos) << message;
    EXPECT_EQ(errorOf("SELECT uniqExactMerge(plain) FROM agg", &message), ErrorCode::kTypeMismatch);
    EXPECT_NE(message.find("line 1, column 8"), std::string::npos) << message;
    EXPECT_EQ(errorOf("SELECT uniqExactMerge(k + 1) FROM agg"), ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("SELECT finalizeAggregation(plain) FROM agg"), ErrorCode::kTypeMismatch);

    // A damaged state fails the query, naming the column, and changes nothing.
    const fs::path path = directory_ / "bad.tsv";
    std::ofstream(path, std::ios::binary) << "1\tgarbage\tp\n";
    session_->execute("INSERT INTO agg FROM INFILE '" + path.string() + "' FORMAT TSV");
    EXPECT_EQ(errorOf("SELECT k, uniqExactMerge(u) FROM agg GROUP BY k", &message),
              ErrorCode::kIncorrectData);
    EXPECT_NE(message.find("state column 'u'"), std::string::npos) << message;
    EXPECT_EQ(errorOf("SELECT finalizeAggregation(u) FROM agg"), ErrorCode::kIncorrectData);

    // Types naming no function, or a function that does not take their arguments.
    EXPECT_EQ(errorOf("CREATE TABLE bad (s AggregateFunction(nope, UInt8)) ORDER BY tuple()"),
              ErrorCode::kUnknownFunction);
    EXPECT_EQ(errorOf("CREATE TABLE bad (s AggregateFunction(sum, String)) ORDER BY tuple()"),
              ErrorCode::kTypeMismatch);
    EXPECT_EQ(errorOf("CREATE TABLE bad (s AggregateFunction(quantiles(2), UInt8)) ORDER BY "
                      "tuple()"),
              ErrorCode::kBadArguments);
    EXPECT_EQ(errorOf("CREATE TABLE bad (s AggregateFunction(sum UInt8)) ORDER BY tuple()"),
              ErrorCode::kSyntaxError);
}

INSTANTIATE_TEST_SUITE_P(Threads, AggregateStates, ::testing::Values(1, 2, 7, 64, 256));

}  // namespace
}  // namespace granary
