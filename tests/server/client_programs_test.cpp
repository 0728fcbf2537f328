// Independent clients against the server: Debian's clickhouse-client 18.16 (revision 54412,
// settings in binary form) and Python clickhouse-driver 0.2.5 (revision 54453).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/server/run_command.h"
#include "tests/server/test_server.h"

namespace granary::server::testing
{
namespace
{

constexpr const char* kClickHouseClient = "/usr/bin/clickhouse-client";
constexpr const char* kPython = "/usr/bin/python3";

std::string expectedTsv(size_t rows)
{
    std::string tsv;
    for (size_t row = 0; row < rows; ++row)
    {
        tsv += fakeRowTsv(row) + "\n";
    }
    return tsv;
}

bool pythonDriverInstalled()
{
    return std::system(
               fmt::format("{} -c 'import clickhouse_driver' 2>/dev/null", kPython).c_str()) == 0;
}

class ClickHouseClient : public ::testing::TestWithParam<int>
{
};

TEST_P(ClickHouseClient, GetsTheSameRowsAsTheHandlerProduces)
{
    if (!std::filesystem::exists(kClickHouseClient))
    {
        GTEST_SKIP() << "clickhouse-client is not installed (Debian package clickhouse-client)";
    }
    TestServer server;
    const auto query = [&](const std::string& sql, int* status = nullptr)
    {
        // Never without a timeout: a confused clickhouse-client can spin forever.
        return runCommand(fmt::format("timeout 30 {} --host 127.0.0.1 --port {} --compression {} "
                                      "--format TSV --query '{}' 2>&1",
                                      kClickHouseClient, server.port(), GetParam(), sql),
                          status);
    };
    EXPECT_EQ(query("SELECT count() FROM t"), "100000\n");
    EXPECT_EQ(query("SELECT * FROM t LIMIT 25000"), expectedTsv(25000));
    int status = 0;
    const std::string error = query("SELECT fail", &status);
    EXPECT_NE(status, 0);
    EXPECT_NE(error.find("Table default.missing does not exist"), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(Compression, ClickHouseClient, ::testing::Values(0, 1));

TEST(PythonDriver, GetsTheSameRowsAsTheHandlerProduces)
{
    if (!pythonDriverInstalled())
    {
        GTEST_SKIP() << "clickhouse-driver is not installed (python3-clickhouse-driver)";
    }
    TestServer server;
    // Rows printed as TSV the same way fakeRowTsv does (floats via repr, without ".0").
    const std::string script = fmt::format(R"(
import clickhouse_driver, sys
c = clickhouse_driver.Client(host="127.0.0.1", port={})
print(c.execute("SELECT count() FROM t")[0][0])
for row in c.execute("SELECT * FROM t LIMIT 3000"):
    v = row[2]
    print("%d\t%s\t%s\t%s" % (row[0], row[1], int(v) if v == int(v) else v, row[3]))
try:
    c.execute("SELECT fail")
except clickhouse_driver.errors.ServerException as e:
    print("error", e.code)
print(c.execute("SELECT count() FROM t", settings={{"fake_threads": 2}})[0][0])
)",
                                           server.port());
    const std::string output =
        runCommand(fmt::format("timeout 60 {} -c '{}' 2>&1", kPython, script));
    EXPECT_EQ(output, "100000\n" + expectedTsv(3000) + "error 60\n100000\n");
}

}  // namespace
}  // namespace granary::server::testing
