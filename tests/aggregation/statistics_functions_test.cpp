// The statistics family (moments, anyLast, argMin/argMax, anyHeavy, groupBit*, sum and
// sumWithOverflow) through the Aggregator on every merge path and thread count, against naive
// per-group oracles; their states merged in any order and through the partial-state format;
// their argument errors; and sum's overflow.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "alloc/arena.h"
#include "engine/aggregation/aggregate_function_factory.h"
#include "engine/aggregation/aggregator.h"
#include "engine/common/exception.h"
#include "merge_path_shapes.h"
#include "test_table.h"

namespace granary
{
namespace
{

constexpr size_t kRows = testing::kShapeRows;
const std::vector<size_t> kThreadCounts = {1, 2, 7, 64, 256};
/// Relative tolerance of float results against the long double oracle: loose enough for the
/// rounding of a mean of 1e9 in doubles, tight enough to catch a variance taken from sums of
/// squares (which loses every digit there).
constexpr long double kTolerance = 1e-7L;

/// A cell: a number (long double holds every 64-bit integer), a string, or NULL.
using Cell = std::variant<std::monostate, long double, std::string>;

Cell cellAt(const ColumnView& column, size_t row)
{
    if (!column.isValid(row))
    {
        return std::monostate{};
    }
    if (isString(column.type))
    {
        return std::string(column.stringAt(row));
    }
    return dispatchFixedType(column.type,
                             [&]<typename T>(TypeTag<T>) -> Cell
                             { return static_cast<long double>(column.valueAt<T>(row)); });
}

std::string printCell(const Cell& cell)
{
    if (std::holds_alternative<std::monostate>(cell))
    {
        return "NULL";
    }
    if (const auto* text = std::get_if<std::string>(&cell))
    {
        return "'" + *text + "'";
    }
    return std::to_string(static_cast<double>(std::get<long double>(cell)));
}

/// How far a deviation from a mean of doubles is off: the mean's last bit, eps * |mean| (a
/// sum of squares would be off by eps * mean^2).
constexpr long double kRoundingOfMean = 16 * std::numeric_limits<double>::epsilon();

/// What a group's result must be: exactly `value`, within kTolerance of it plus
/// `absolute_error`, or one of `allowed`.
struct Expectation
{
    Cell value;
    bool approximate = false;
    long double absolute_error = 0;
    std::set<std::string> allowed = {};
};

std::string mismatch(const Cell& actual, const Expectation& expected)
{
    if (!expected.allowed.empty())
    {
        return expected.allowed.count(printCell(actual)) ? "" : printCell(actual) + " not allowed";
    }
    if (expected.approximate && std::holds_alternative<long double>(actual) &&
        std::holds_alternative<long double>(expected.value))
    {
        const long double a = std::get<long double>(actual);
        const long double e = std::get<long double>(expected.value);
        const long double bound = kTolerance * std::fabs(e) + expected.absolute_error;
        return std::fabs(a - e) <= bound ? "" : printCell(actual) + " != " + printCell(e);
    }
    return actual == expected.value ? "" : printCell(actual) + " != " + printCell(expected.value);
}

/// The oracle of one function: the expectation for a group's rows.
using Oracle = std::function<Expectation(const BlockView& input, const std::vector<size_t>& rows)>;

struct Case
{
    std::string function;
    std::vector<std::string> arguments;
    Oracle oracle;
};

std::vector<long double> numbers(const BlockView& input, const std::string& name,
                                 const std::vector<size_t>& rows)
{
    const ColumnView column = *input.find(name);
    std::vector<long double> values;
    for (size_t row : rows)
    {
        values.push_back(std::get<long double>(cellAt(column, row)));
    }
    return values;
}

long double mean(const std::vector<long double>& values)
{
    long double sum = 0;
    for (long double value : values)
    {
        sum += value;
    }
    return sum / values.size();
}

/// The two-pass co-moment sum((x - mean x)(y - mean y)).
long double coMoment(const std::vector<long double>& x, const std::vector<long double>& y)
{
    const long double x_mean = mean(x);
    const long double y_mean = mean(y);
    long double sum = 0;
    for (size_t i = 0; i < x.size(); ++i)
    {
        sum += (x[i] - x_mean) * (y[i] - y_mean);
    }
    return sum;
}

Oracle varianceOracle(const std::string& column, bool sample, bool root)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const std::vector<long double> x = numbers(input, column, rows);
        const size_t divisor = sample ? rows.size() - 1 : rows.size();
        if (divisor == 0)
        {
            return {std::monostate{}};
        }
        const long double variance = coMoment(x, x) / divisor;
        const long double deviation = std::sqrt(variance);
        const long double error = kRoundingOfMean * std::fabs(mean(x));
        return {root ? deviation : variance, true, root ? error : error * deviation};
    };
}

Oracle covarianceOracle(const std::string& x_column, const std::string& y_column, bool sample)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const std::vector<long double> x = numbers(input, x_column, rows);
        const std::vector<long double> y = numbers(input, y_column, rows);
        const size_t divisor = sample ? rows.size() - 1 : rows.size();
        if (divisor == 0)
        {
            return {std::monostate{}};
        }
        // Rounding errors scale with the spreads, not with a covariance near zero.
        const long double x_deviation = std::sqrt(coMoment(x, x) / divisor);
        const long double y_deviation = std::sqrt(coMoment(y, y) / divisor);
        const long double error =
            kTolerance * x_deviation * y_deviation +
            kRoundingOfMean * (std::fabs(mean(x)) * y_deviation + std::fabs(mean(y)) * x_deviation);
        return {coMoment(x, y) / divisor, true, error};
    };
}

Oracle corrOracle(const std::string& x_column, const std::string& y_column)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const std::vector<long double> x = numbers(input, x_column, rows);
        const std::vector<long double> y = numbers(input, y_column, rows);
        const long double deviations = std::sqrt(coMoment(x, x) * coMoment(y, y));
        if (deviations == 0)
        {
            return {std::monostate{}};
        }
        const long double error =
            kTolerance +
            kRoundingOfMean * (std::fabs(mean(x)) / std::sqrt(coMoment(x, x) / x.size()) +
                               std::fabs(mean(y)) / std::sqrt(coMoment(y, y) / y.size()));
        return {coMoment(x, y) / deviations, true, error};
    };
}

/// The printed values of `column` over the rows where `select` holds.
std::set<std::string> printedValues(const BlockView& input, const std::string& column,
                                    const std::vector<size_t>& rows,
                                    const std::function<bool(size_t)>& select)
{
    const ColumnView view = *input.find(column);
    std::set<std::string> values;
    for (size_t row : rows)
    {
        if (select(row))
        {
            values.insert(printCell(cellAt(view, row)));
        }
    }
    return values;
}

/// anyLast: with one worker, the group's last row; with more, the partials' merge order
/// decides, so any of the group's values.
Oracle anyLastOracle(const std::string& column, bool single_worker)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        if (single_worker)
        {
            return {cellAt(*input.find(column), rows.back())};
        }
        return {{}, false, 0, printedValues(input, column, rows, [](size_t) { return true; })};
    };
}

/// argMin/argMax: the arg of a row whose value is the extreme (ties: any of them).
Oracle argExtremeOracle(const std::string& arg, const std::string& value, bool maximum)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const ColumnView values = *input.find(value);
        Cell extreme = cellAt(values, rows[0]);
        for (size_t row : rows)
        {
            const Cell candidate = cellAt(values, row);
            if (maximum ? extreme < candidate : candidate < extreme)
            {
                extreme = candidate;
            }
        }
        return {{},
                false,
                0,
                printedValues(input, arg, rows,
                              [&](size_t row) { return cellAt(values, row) == extreme; })};
    };
}

/// anyHeavy: the majority value where there is one, else any of the group's values.
Oracle anyHeavyOracle(const std::string& column)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const ColumnView view = *input.find(column);
        std::map<std::string, size_t> counts;
        for (size_t row : rows)
        {
            ++counts[printCell(cellAt(view, row))];
        }
        for (const auto& [value, count] : counts)
        {
            if (2 * count > rows.size())
            {
                return {{}, false, 0, {value}};
            }
        }
        return {{}, false, 0, printedValues(input, column, rows, [](size_t) { return true; })};
    };
}

/// groupBit*: the operation over the group's values, as uint64 bits of the column's type.
template <typename T>
Oracle groupBitOracle(const std::string& column, std::function<T(T, T)> operation, T identity)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        const ColumnView view = *input.find(column);
        T result = identity;
        for (size_t row : rows)
        {
            result = operation(result, view.valueAt<T>(row));
        }
        return {static_cast<long double>(result)};
    };
}

/// sum of integers: exact (the data do not overflow); of floats: within the tolerance.
Oracle sumOracle(const std::string& column, bool is_float)
{
    return [=](const BlockView& input, const std::vector<size_t>& rows) -> Expectation
    {
        long double sum = 0;
        for (long double value : numbers(input, column, rows))
        {
            sum += value;
        }
        return {sum, is_float};
    };
}

/// The test table plus columns that stress the functions: a value with a large mean and a
/// small spread (sums of squares lose every digit there), one correlated with it, a column
/// where most rows of a group share a value (anyHeavy), and a constant (zero variance).
Block makeTable(const std::function<uint64_t(size_t)>& group_of, uint64_t seed)
{
    Block block = testing::makeTestTable(kRows, group_of, seed);
    std::mt19937_64 random(seed + 1);
    Column offset(TypeId::Float64);
    Column correlated(TypeId::Float64);
    Column heavy(TypeId::UInt32);
    Column heavy_str(TypeId::String);
    Column constant(TypeId::Int32);
    for (size_t row = 0; row < kRows; ++row)
    {
        const double noise = static_cast<double>(random() % 1000) / 10.0;
        offset.append(1e9 + noise);
        correlated.append(3.0 * noise - static_cast<double>(random() % 100));
        // Two rows in three take the group's own value.
        const bool majority = random() % 3 != 0;
        const uint32_t value =
            majority ? static_cast<uint32_t>(group_of(row) * 31) : static_cast<uint32_t>(random());
        heavy.append(value);
        heavy_str.appendString("h" + std::to_string(value));
        constant.append(int32_t{7});
    }
    block.columns.push_back({"v_offset", std::move(offset)});
    block.columns.push_back({"v_correlated", std::move(correlated)});
    block.columns.push_back({"v_heavy", std::move(heavy)});
    block.columns.push_back({"v_heavy_str", std::move(heavy_str)});
    block.columns.push_back({"v_constant", std::move(constant)});
    return block;
}

std::vector<Case> allCases(bool single_worker)
{
    std::vector<Case> cases = {
        {"varPop", {"v_f64"}, varianceOracle("v_f64", false, false)},
        {"varPop", {"v_offset"}, varianceOracle("v_offset", false, false)},
        {"var_samp", {"v_i64"}, varianceOracle("v_i64", true, false)},
        {"variance", {"v_i8"}, varianceOracle("v_i8", true, false)},
        {"stddevPop", {"v_u32"}, varianceOracle("v_u32", false, true)},
        {"stddevSamp", {"v_offset"}, varianceOracle("v_offset", true, true)},
        {"stddev", {"v_f64"}, varianceOracle("v_f64", true, true)},
        {"covarPop",
         {"v_offset", "v_correlated"},
         covarianceOracle("v_offset", "v_correlated", false)},
        {"covarSamp", {"v_i64", "v_u32"}, covarianceOracle("v_i64", "v_u32", true)},
        {"covar_samp", {"v_f64", "v_i8"}, covarianceOracle("v_f64", "v_i8", true)},
        {"corr", {"v_offset", "v_correlated"}, corrOracle("v_offset", "v_correlated")},
        {"corr", {"v_constant", "v_u32"}, corrOracle("v_constant", "v_u32")},
        {"varPop", {"v_constant"}, varianceOracle("v_constant", false, false)},
        {"anyLast", {"v_u32"}, anyLastOracle("v_u32", single_worker)},
        {"anyLast", {"v_str"}, anyLastOracle("v_str", single_worker)},
        {"argMin", {"v_str", "v_u32"}, argExtremeOracle("v_str", "v_u32", false)},
        {"argMax", {"v_i64", "v_str"}, argExtremeOracle("v_i64", "v_str", true)},
        {"argMax", {"v_f64", "v_i8"}, argExtremeOracle("v_f64", "v_i8", true)},
        {"argMin", {"k_date", "v_f64"}, argExtremeOracle("k_date", "v_f64", false)},
        {"anyHeavy", {"v_heavy"}, anyHeavyOracle("v_heavy")},
        {"anyHeavy", {"v_heavy_str"}, anyHeavyOracle("v_heavy_str")},
        {"groupBitAnd",
         {"v_u32"},
         groupBitOracle<uint32_t>("v_u32", std::bit_and<uint32_t>(), ~uint32_t{0})},
        {"groupBitOr", {"v_i64"}, groupBitOracle<int64_t>("v_i64", std::bit_or<int64_t>(), 0)},
        {"groupBitXor", {"v_i8"}, groupBitOracle<int8_t>("v_i8", std::bit_xor<int8_t>(), 0)},
        {"sum", {"v_i64"}, sumOracle("v_i64", false)},
        {"sum", {"v_i8"}, sumOracle("v_i8", false)},
        {"sum", {"v_u32"}, sumOracle("v_u32", false)},
        {"sum", {"v_f64"}, sumOracle("v_f64", true)},
        {"sumWithOverflow", {"v_i64"}, sumOracle("v_i64", false)},
    };
    return cases;
}

std::vector<AggregateDescription> describe(const std::vector<Case>& cases)
{
    std::vector<AggregateDescription> descriptions;
    for (size_t i = 0; i < cases.size(); ++i)
    {
        descriptions.push_back({cases[i].function, cases[i].arguments, "a" + std::to_string(i)});
    }
    return descriptions;
}

/// Every group of `result` (keyed by k_u64) against the oracles over the input's rows.
void expectMatchesOracles(const BlockView& input, const Block& result,
                          const std::vector<Case>& cases)
{
    std::map<uint64_t, std::vector<size_t>> groups;
    const ColumnView keys = *input.find("k_u64");
    for (size_t row = 0; row < input.rows(); ++row)
    {
        groups[keys.valueAt<uint64_t>(row)].push_back(row);
    }
    ASSERT_EQ(result.rows(), groups.size());
    const ColumnView result_keys = result.columns[0].column.view();
    for (size_t i = 0; i < cases.size(); ++i)
    {
        const ColumnView column = result.columns[1 + i].column.view();
        size_t failures = 0;
        for (size_t row = 0; row < result.rows() && failures < 3; ++row)
        {
            const uint64_t key = result_keys.valueAt<uint64_t>(row);
            const std::string problem =
                mismatch(cellAt(column, row), cases[i].oracle(input, groups.at(key)));
            if (!problem.empty())
            {
                ++failures;
                ADD_FAILURE() << cases[i].function << "(" << cases[i].arguments[0]
                              << (cases[i].arguments.size() > 1 ? ", " + cases[i].arguments[1] : "")
                              << ") group " << key << ": " << problem;
            }
        }
    }
}

/// The merge-path shapes, and runs of 37 rows of one group: the moments take them by chunks.
std::vector<testing::MergePathShape> shapes()
{
    std::vector<testing::MergePathShape> result = testing::mergePathShapes();
    result.push_back({"runs_of_a_group", [](size_t row) { return (row / 37) % 40; },
                      testing::mergePathSettings()});
    return result;
}

TEST(StatisticsFunctions, MatchNaiveOraclesOnEveryMergePathAndThreadCount)
{
    for (const testing::MergePathShape& shape : shapes())
    {
        const Block table = makeTable(shape.group_of, 23);
        const BlockView input = BlockView::of(table);
        for (size_t threads : kThreadCounts)
        {
            SCOPED_TRACE(shape.name + " threads " + std::to_string(threads));
            const std::vector<Case> cases = allCases(threads == 1);
            AggregationSettings settings = shape.settings;
            settings.max_threads = threads;
            QueryContext context(threads);
            const Block result =
                Aggregator({"k_u64"}, describe(cases), settings).execute(input, context);
            expectMatchesOracles(input, result, cases);
        }
    }
}

/// Without keys: one state, filled by addBatchSinglePlace (sum's vectorized exact loops).
TEST(StatisticsFunctions, WithoutKeysMatchTheOracles)
{
    Block table = makeTable([](size_t) { return 5; }, 3);
    const BlockView input = BlockView::of(table);
    for (size_t threads : {1, 7})
    {
        const std::vector<Case> cases = allCases(threads == 1);
        AggregationSettings settings = testing::mergePathSettings();
        settings.max_threads = threads;
        QueryContext context(threads);
        const Block result = Aggregator({}, describe(cases), settings).execute(input, context);
        std::vector<size_t> rows(kRows);
        for (size_t row = 0; row < kRows; ++row)
        {
            rows[row] = row;
        }
        ASSERT_EQ(result.rows(), 1u);
        for (size_t i = 0; i < cases.size(); ++i)
        {
            EXPECT_EQ(
                mismatch(cellAt(result.columns[i].column.view(), 0), cases[i].oracle(input, rows)),
                "")
                << cases[i].function << " threads " << threads;
        }
    }
}

/// A single-column block `x` of `values`.
template <typename T>
Block columnOf(const std::vector<T>& values, TypeId type)
{
    Column column(type);
    for (const T& value : values)
    {
        if constexpr (std::is_same_v<T, std::string>)
        {
            column.appendString(value);
        }
        else
        {
            column.append(value);
        }
    }
    Block block;
    block.columns.push_back({"x", std::move(column)});
    return block;
}

Block aggregateWithoutKeys(const Block& table, const std::vector<AggregateDescription>& aggregates)
{
    QueryContext context(1);
    return Aggregator({}, aggregates).execute(BlockView::of(table), context);
}

TEST(StatisticsFunctions, MomentsAreNullWhereTheirDivisorIsZero)
{
    const std::vector<AggregateDescription> aggregates = {
        {"varPop", {"x"}, "pop"},     {"varSamp", {"x"}, "samp"},
        {"stddevSamp", {"x"}, "sd"},  {"covarSamp", {"x", "x"}, "covar"},
        {"corr", {"x", "x"}, "corr"}, {"covarPop", {"x", "x"}, "covar_pop"},
    };
    // One row: the population moments are 0, the sample ones and corr NULL.
    const Block one = aggregateWithoutKeys(columnOf<double>({4.5}, TypeId::Float64), aggregates);
    EXPECT_EQ(one.columns[0].column.valueAt<double>(0), 0.0);
    EXPECT_FALSE(one.columns[0].column.isNull(0));
    EXPECT_TRUE(one.columns[1].column.isNull(0));
    EXPECT_TRUE(one.columns[2].column.isNull(0));
    EXPECT_TRUE(one.columns[3].column.isNull(0));
    EXPECT_TRUE(one.columns[4].column.isNull(0));
    EXPECT_EQ(one.columns[5].column.valueAt<double>(0), 0.0);
    // No rows: every one is NULL.
    const Block none = aggregateWithoutKeys(columnOf<double>({}, TypeId::Float64), aggregates);
    for (size_t i = 0; i < aggregates.size(); ++i)
    {
        EXPECT_TRUE(none.columns[i].column.isNull(0)) << aggregates[i].function;
    }
    // A constant: corr NULL, the variances exactly 0.
    const Block constant =
        aggregateWithoutKeys(columnOf<double>({1e9, 1e9, 1e9}, TypeId::Float64), aggregates);
    EXPECT_EQ(constant.columns[1].column.valueAt<double>(0), 0.0);
    EXPECT_TRUE(constant.columns[4].column.isNull(0));
    for (const AggregateDescription& aggregate : aggregates)
    {
        const std::vector<AggregateArgument> arguments(aggregate.arguments.size(),
                                                       {"x", TypeId::Float64});
        EXPECT_TRUE(createAggregateFunction(aggregate.function, arguments)->resultMayBeNull());
    }
}

TEST(StatisticsFunctions, SumOverflowIsAnErrorAndSumWithOverflowWraps)
{
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    const auto expectOverflow = [](const Block& table, const std::string& type)
    {
        for (bool keyed : {false, true})
        {
            Block input = table;
            input.columns.push_back({"k", Column(TypeId::UInt8)});
            input.columns.back().column.resizeFixed(table.rows());
            QueryContext context(1);
            try
            {
                Aggregator(keyed ? std::vector<std::string>{"k"} : std::vector<std::string>{},
                           {{"sum", {"x"}, "s"}})
                    .execute(BlockView::of(input), context);
                ADD_FAILURE() << "expected an overflow of " << type;
            }
            catch (const Exception& e)
            {
                EXPECT_EQ(e.code(), ErrorCode::kValueOutOfRangeOfDataType);
                EXPECT_EQ(std::string(e.what()),
                          "sum of column 'x' overflows " + type + "; sumWithOverflow wraps");
            }
        }
    };
    expectOverflow(columnOf<int64_t>({kMax, 1}, TypeId::Int64), "Int64");
    expectOverflow(columnOf<int64_t>({kMin, -1}, TypeId::Int64), "Int64");
    expectOverflow(columnOf<uint64_t>({std::numeric_limits<uint64_t>::max(), 1}, TypeId::UInt64),
                   "UInt64");

    // Partial sums beyond 64 bits are fine where the total fits.
    const Block back_in_range =
        aggregateWithoutKeys(columnOf<int64_t>({kMax, kMax, -kMax, -kMax, kMin, 5}, TypeId::Int64),
                             {{"sum", {"x"}, "s"}});
    EXPECT_EQ(back_in_range.columns[0].column.valueAt<int64_t>(0), kMin + 5);

    const Block wrapped = aggregateWithoutKeys(columnOf<int64_t>({kMax, 1, kMax, 3}, TypeId::Int64),
                                               {{"sumWithOverflow", {"x"}, "s"}});
    // kMax + 1 wraps to kMin; kMin + kMax = -1; -1 + 3 = 2.
    EXPECT_EQ(wrapped.columns[0].column.valueAt<int64_t>(0), 2);
    const Block wrapped_unsigned = aggregateWithoutKeys(
        columnOf<uint64_t>({std::numeric_limits<uint64_t>::max(), 5}, TypeId::UInt64),
        {{"sumWithOverflow", {"x"}, "s"}});
    EXPECT_EQ(wrapped_unsigned.columns[0].column.valueAt<uint64_t>(0), 4u);
}

/// Exception `code` whose message contains `part`, from `action`.
void expectError(const std::function<void()>& action, ErrorCode code, const std::string& part)
{
    try
    {
        action();
        ADD_FAILURE() << "expected an exception mentioning " << part;
    }
    catch (const Exception& e)
    {
        EXPECT_EQ(e.code(), code) << e.what();
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST(StatisticsFunctions, BadArgumentsNameTheFunctionAndTheColumn)
{
    const AggregateArgument number{"n", TypeId::Float64};
    const AggregateArgument text{"s", TypeId::String};
    const AggregateArgument date{"d", TypeId::Date};
    expectError([&] { createAggregateFunction("covarPop", {number}); }, ErrorCode::kBadArguments,
                "covarPop takes 2 arguments, got 1");
    expectError(
        [&] {
            createAggregateFunction("varPop", {number, number});
        },
        ErrorCode::kBadArguments, "varPop takes 1 argument, got 2");
    expectError([&] { createAggregateFunction("argMax", {number}); }, ErrorCode::kBadArguments,
                "argMax");
    expectError([&] { createAggregateFunction("varPop", {text}); }, ErrorCode::kTypeMismatch,
                "'s'");
    expectError(
        [&] {
            createAggregateFunction("corr", {number, text});
        },
        ErrorCode::kTypeMismatch, "'s'");
    expectError([&] { createAggregateFunction("stddev", {date}); }, ErrorCode::kTypeMismatch,
                "'d'");
    expectError([&] { createAggregateFunction("groupBitOr", {number}); }, ErrorCode::kTypeMismatch,
                "an integer");
    expectError([&] { createAggregateFunction("groupBitXor", {text}); }, ErrorCode::kTypeMismatch,
                "'s'");
    expectError([&] { createAggregateFunction("sum", {text}); }, ErrorCode::kTypeMismatch, "'s'");
    expectError([&] { createAggregateFunction("sumWithOverflow", {date}); },
                ErrorCode::kTypeMismatch, "'d'");
}

/// States of one function, made and freed with it.
class States
{
public:
    explicit States(AggregateFunctionPtr function) : function_(std::move(function)) {}
    ~States()
    {
        for (char* state : states_)
        {
            function_->destroy(state);
        }
    }
    char* make()
    {
        char* state = arena_.alignedAlloc(function_->stateSize(), function_->stateAlignment());
        function_->create(state, arena_);
        states_.push_back(state);
        return state;
    }
    Arena& arena() { return arena_; }

private:
    AggregateFunctionPtr function_;
    Arena arena_;
    std::vector<char*> states_;
};

Cell resultOf(const AggregateFunction& function, char* state)
{
    Column column(function.resultType());
    function.insertResultInto(state, column);
    return cellAt(column.view(), 0);
}

/// For every function: three states over thirds of a table merged in different orders, and
/// each serialized and merged back, give the same result; a truncated state is an error.
TEST(StatisticsFunctions, StatesMergeInAnyOrderAndRoundTripThroughTheirBytes)
{
    const Block table = makeTable([](size_t row) { return row % 3; }, 11);
    const BlockView input = BlockView::of(table);
    MergeContext context;
    for (const Case& spec : allCases(false))
    {
        SCOPED_TRACE(spec.function);
        std::vector<AggregateArgument> arguments;
        std::vector<ColumnView> columns;
        for (const std::string& name : spec.arguments)
        {
            columns.push_back(*input.find(name));
            arguments.push_back({name, columns.back().type});
        }
        const AggregateFunctionPtr function = createAggregateFunction(spec.function, arguments);
        States states(function);
        const auto fill = [&](size_t part)
        {
            char* state = states.make();
            constexpr size_t kParts = 3;
            const size_t begin = kRows * part / kParts;
            const size_t end = kRows * (part + 1) / kParts;
            function->addBatchSinglePlace(columns.data(), begin, end - begin, state,
                                          states.arena());
            return state;
        };
        // (a + b) + c, a + (b + c) and c + (b + a), and the one state over every row.
        char* forward = fill(0);
        function->merge(forward, fill(1), context);
        function->merge(forward, fill(2), context);
        char* grouped = fill(0);
        char* tail = fill(1);
        function->merge(tail, fill(2), context);
        function->merge(grouped, tail, context);
        char* backward = fill(2);
        char* middle = fill(1);
        function->merge(middle, fill(0), context);
        function->merge(backward, middle, context);
        char* whole = states.make();
        function->addBatchSinglePlace(columns.data(), 0, kRows, whole, states.arena());

        std::vector<size_t> rows(kRows);
        for (size_t row = 0; row < kRows; ++row)
        {
            rows[row] = row;
        }
        const Expectation expected = spec.oracle(input, rows);
        for (char* state : {forward, grouped, backward, whole})
        {
            EXPECT_EQ(mismatch(resultOf(*function, state), expected), "");
        }

        // Serialized, checked and merged into a fresh state: the same result.
        std::string bytes;
        function->serialize(forward, bytes);
        function->checkSerialized(bytes);
        char* restored = states.make();
        function->mergeSerialized(restored, bytes, states.arena());
        EXPECT_EQ(resultOf(*function, restored), resultOf(*function, forward));
        // Serialized pieces merged in turn equal the merged states.
        char* pieces = states.make();
        for (size_t part = 0; part < 3; ++part)
        {
            std::string piece;
            function->serialize(fill(part), piece);
            function->mergeSerialized(pieces, piece, states.arena());
        }
        EXPECT_EQ(mismatch(resultOf(*function, pieces), expected), "");

        expectError([&] { function->checkSerialized(bytes.substr(0, bytes.size() - 1)); },
                    ErrorCode::kIncorrectData, "corrupted " + function->name() + " state");
        expectError([&] { function->checkSerialized(bytes + "x"); }, ErrorCode::kIncorrectData,
                    function->name());
    }
}

/// Ties of argMin/argMax keep the first row of a state, and the target's on merges; anyLast
/// keeps the last row, and the source's on merges.
TEST(StatisticsFunctions, TiesAndOrderOfArgExtremesAndAnyLast)
{
    Column args(TypeId::String);
    Column values(TypeId::Int32);
    for (const auto& [arg, value] : std::vector<std::pair<std::string, int32_t>>{
             {"first_low", 1}, {"high", 9}, {"second_low", 1}, {"second_high", 9}})
    {
        args.appendString(arg);
        values.append(value);
    }
    const ColumnView columns[] = {args.view(), values.view()};
    const std::vector<AggregateArgument> arguments = {{"a", TypeId::String}, {"v", TypeId::Int32}};
    MergeContext context;
    for (const auto& [name, first, merged] :
         std::vector<std::tuple<std::string, std::string, std::string>>{
             {"argMin", "first_low", "first_low"}, {"argMax", "high", "high"}})
    {
        const AggregateFunctionPtr function = createAggregateFunction(name, arguments);
        States states(function);
        char* all = states.make();
        function->addBatchSinglePlace(columns, 0, 4, all, states.arena());
        EXPECT_EQ(resultOf(*function, all), Cell(first)) << name;
        // The target holds rows 0-1, the source rows 2-3 (the same values): the target's stay.
        char* target = states.make();
        char* source = states.make();
        function->addBatchSinglePlace(columns, 0, 2, target, states.arena());
        function->addBatchSinglePlace(columns, 2, 2, source, states.arena());
        function->merge(target, source, context);
        EXPECT_EQ(resultOf(*function, target), Cell(merged)) << name;
    }
    const AggregateFunctionPtr any_last = createAggregateFunction("anyLast", {arguments[0]});
    States states(any_last);
    char* target = states.make();
    char* source = states.make();
    any_last->addBatchSinglePlace(columns, 0, 3, target, states.arena());
    EXPECT_EQ(resultOf(*any_last, target), Cell(std::string("second_low")));
    any_last->addBatchSinglePlace(columns, 0, 2, source, states.arena());
    any_last->merge(target, source, context);
    EXPECT_EQ(resultOf(*any_last, target), Cell(std::string("high")));
}

/// The -If combinator and FILTER wrap every function of the family; a group whose rows are
/// all skipped has the function's empty result (ClickHouse's groupBitOrIf over nothing is 0).
TEST(StatisticsFunctions, IfCombinatorSkipsRows)
{
    Column x(TypeId::Float64);
    Column keep(TypeId::UInt8);
    for (double value : {1.0, 100.0, 3.0})
    {
        x.append(value);
        keep.append(static_cast<uint8_t>(value < 10));
    }
    Block table;
    table.columns.push_back({"x", std::move(x)});
    table.columns.push_back({"keep", std::move(keep)});
    table.columns.push_back({"none", Column(TypeId::UInt8)});
    table.columns.back().column.resizeFixed(3);
    const Block result = aggregateWithoutKeys(table, {{"varPopIf", {"x", "keep"}, "a"},
                                                      {"argMaxIf", {"x", "x", "keep"}, "b"},
                                                      {"groupBitOrIf", {"keep", "none"}, "c"},
                                                      {"stddevSamp", {"x"}, "d", "keep"}});
    EXPECT_DOUBLE_EQ(result.columns[0].column.valueAt<double>(0), 1.0);
    EXPECT_EQ(result.columns[1].column.valueAt<double>(0), 3.0);
    EXPECT_FALSE(result.columns[2].column.isNull(0));
    EXPECT_EQ(result.columns[2].column.valueAt<uint8_t>(0), 0);
    EXPECT_DOUBLE_EQ(result.columns[3].column.valueAt<double>(0), std::sqrt(2.0));
}

/// anyLast keeps one string per state and batch in the arena, not one per row: 1,024 rows of
/// one group copy one 100-byte string; without keys only the batch's last row is read.
TEST(StatisticsFunctions, AnyLastCopiesOneStringPerStateAndBatch)
{
    const AggregateFunctionPtr any_last =
        createAggregateFunction("anyLast", {{"s", TypeId::String}});
    Column strings(TypeId::String);
    for (size_t row = 0; row < 1024; ++row)
    {
        strings.appendString(std::string(99, 'a') + static_cast<char>('a' + row % 26));
    }
    const ColumnView view = strings.view();
    for (const bool keyed : {true, false})
    {
        Arena arena;
        char* state = arena.alignedAlloc(any_last->stateSize(), any_last->stateAlignment());
        any_last->create(state, arena);
        const size_t before = arena.bytesUsed();
        if (keyed)
        {
            const std::vector<char*> places(view.rows, state);
            any_last->addBatch(&view, 0, view.rows, places.data(), 0, arena);
        }
        else
        {
            any_last->addBatchSinglePlace(&view, 0, view.rows, state, arena);
        }
        EXPECT_LE(arena.bytesUsed() - before, 100u) << (keyed ? "keyed" : "without keys");
        Column result(TypeId::String);
        any_last->insertResultInto(state, result);
        EXPECT_EQ(result.stringAt(0), view.stringAt(view.rows - 1));
        any_last->destroy(state);
    }
}

}  // namespace
}  // namespace granary
