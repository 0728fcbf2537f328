// The documented result-type table, and the sum(x + k) = sum(x) + k * count(x) identity that
// the planner's rewrite relies on, computed with the evaluator's own arithmetic.
#include "engine/expressions/type_rules.h"

#include <gtest/gtest.h>

#include "expression_test_support.h"

namespace granary::testing
{
namespace
{

TEST(TypeRules, ArithmeticTable)
{
    using enum TypeId;
    using Op = ArithmeticOperator;
    struct Row
    {
        Op op;
        TypeId left;
        TypeId right;
        std::optional<TypeId> result;
    };
    const std::vector<Row> table = {
        {Op::Plus, UInt8, UInt8, UInt64},
        {Op::Plus, UInt64, UInt64, UInt64},
        {Op::Plus, Int16, UInt64, Int64},
        {Op::Minus, UInt32, UInt64, UInt64},
        {Op::Minus, Int32, UInt64, Int64},
        {Op::Multiply, Int8, Int8, Int64},
        {Op::Multiply, UInt64, Int64, Int64},
        {Op::Plus, Float32, UInt8, Float64},
        {Op::Minus, Int64, Float64, Float64},
        {Op::Divide, UInt8, UInt8, Float64},
        {Op::Divide, Int64, Float32, Float64},
        {Op::Modulo, UInt32, UInt8, UInt64},
        {Op::Modulo, Int32, UInt8, Int64},
        {Op::Modulo, Float64, Int8, Float64},
        {Op::Plus, Date, UInt64, Date},
        {Op::Plus, Int64, Date, Date},
        {Op::Minus, Date, Int8, Date},
        {Op::Plus, DateTime, Int64, DateTime},
        {Op::Minus, DateTime, UInt64, DateTime},
        {Op::Minus, Date, Date, Int64},
        {Op::Minus, DateTime, DateTime, Int64},
        {Op::Minus, Int8, Date, std::nullopt},
        {Op::Plus, Date, Date, std::nullopt},
        {Op::Minus, Date, DateTime, std::nullopt},
        {Op::Multiply, Date, UInt8, std::nullopt},
        {Op::Plus, Date, Float64, std::nullopt},
        {Op::Divide, DateTime, UInt8, std::nullopt},
        {Op::Plus, String, UInt8, std::nullopt},
        {Op::Modulo, UInt8, String, std::nullopt},
    };
    for (const Row& row : table)
    {
        EXPECT_EQ(arithmeticResultType(row.op, row.left, row.right), row.result)
            << static_cast<int>(row.op) << " " << typeName(row.left) << " " << typeName(row.right);
    }
    EXPECT_EQ(negateResultType(UInt64), Int64);
    EXPECT_EQ(negateResultType(Int8), Int64);
    EXPECT_EQ(negateResultType(Float32), Float64);
    EXPECT_EQ(negateResultType(Date), std::nullopt);
    EXPECT_EQ(negateResultType(String), std::nullopt);
}

TEST(TypeRules, CommonTypeOfBranches)
{
    using enum TypeId;
    const auto common = [](std::initializer_list<TypeId> types)
    { return commonType(std::vector<TypeId>(types)); };
    EXPECT_EQ(common({String, String}), String);
    EXPECT_EQ(common({UInt8, UInt8}), UInt8);
    EXPECT_EQ(common({UInt8, UInt32}), UInt64);
    EXPECT_EQ(common({UInt8, Int8}), Int64);
    EXPECT_EQ(common({Int64, Float32}), Float64);
    EXPECT_EQ(common({Date, Date}), Date);
    EXPECT_EQ(common({Date, DateTime}), std::nullopt);
    EXPECT_EQ(common({Date, UInt16}), std::nullopt);
    EXPECT_EQ(common({String, UInt8}), std::nullopt);
}

/// Values that overflow 64-bit sums: extremes of the type, repeated.
template <typename T>
Column overflowingColumn(size_t rows)
{
    Column column(TypeId::UInt8);
    std::mt19937_64 random(21);
    std::vector<T> values = randomValues<T>(rows, random);
    for (size_t i = 0; i < rows; i += 2)
    {
        values[i] = i % 4 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    }
    dispatchFixedType(std::is_same_v<T, int16_t>   ? TypeId::Int16
                      : std::is_same_v<T, int64_t> ? TypeId::Int64
                                                   : TypeId::UInt64,
                      [&]<typename S>(TypeTag<S>)
                      {
                          if constexpr (std::is_same_v<S, T>)
                          {
                              column = Column(std::is_same_v<T, int16_t>   ? TypeId::Int16
                                              : std::is_same_v<T, int64_t> ? TypeId::Int64
                                                                           : TypeId::UInt64);
                              for (const T value : values)
                              {
                                  column.append(value);
                              }
                          }
                      });
    return column;
}

template <typename T>
void checkSumIdentity()
{
    constexpr size_t kRows = 3001;
    Block rows;
    rows.columns.push_back({"x", overflowingColumn<T>(kRows)});
    // sum(x): Int64 for a signed column, UInt64 for an unsigned one, wrapping; count: UInt64.
    uint64_t sum_bits = 0;
    for (size_t row = 0; row < kRows; ++row)
    {
        sum_bits += bitsAt(rows.columns[0].column, row);
    }
    Block totals;
    totals.columns.push_back({"s", Column(std::is_signed_v<T> ? TypeId::Int64 : TypeId::UInt64)});
    totals.columns.push_back({"c", Column(TypeId::UInt64)});
    totals.columns[0].column.append(sum_bits);
    totals.columns[1].column.append(uint64_t{kRows});

    for (const std::string k : {"1", "89", "-5", "9223372036854775807", "18446744073709551615"})
    {
        for (const std::string op : {"+", "-"})
        {
            SCOPED_TRACE("x " + op + " " + k);
            const Column shifted = evaluateText("x " + op + " " + k, rows);
            uint64_t original = 0;
            for (size_t row = 0; row < kRows; ++row)
            {
                original += bitsAt(shifted, row);
            }
            const Column rewritten = evaluateText("s " + op + " " + k + " * c", totals);
            // The rewritten expression has the type of sum(x op k): sum of the shifted type.
            const TypeId sum_type =
                isSignedInteger(shifted.type()) ? TypeId::Int64 : TypeId::UInt64;
            EXPECT_EQ(rewritten.type(), sum_type);
            EXPECT_EQ(bitsAt(rewritten, 0), original);
        }
    }
}

TEST(TypeRules, SumOfShiftedColumnEqualsShiftedSumBitForBit)
{
    checkSumIdentity<int16_t>();
    checkSumIdentity<int64_t>();
    checkSumIdentity<uint64_t>();
}

}  // namespace
}  // namespace granary::testing
