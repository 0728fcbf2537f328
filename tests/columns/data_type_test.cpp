#include "engine/columns/data_type.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/columns/column.h"
#include "engine/common/exception.h"

namespace granary
{
namespace
{

TEST(DataType, NamesRoundTripThroughTheParser)
{
    for (const std::string name : {"UInt8",
                                   "String",
                                   "Bool",
                                   "DateTime",
                                   "DateTime64(9)",
                                   "DateTime64(0)",
                                   "Array(UInt64)",
                                   "Array(Array(String))",
                                   "Map(String, UInt64)",
                                   "Map(LowCardinality(String), String)",
                                   "Array(Map(LowCardinality(String), String))",
                                   "LowCardinality(String)",
                                   "Array(DateTime64(9))",
                                   "JSON",
                                   "Array(JSON)",
                                   "JSON(a.b Int64, `c d` Array(String), SKIP e.f)",
                                   "AggregateFunction(count)",
                                   "AggregateFunction(uniq, UInt64)",
                                   "AggregateFunction(sumIf, Int64, UInt8)",
                                   "AggregateFunction(quantiles(0.5, 0.99), DateTime64(3))",
                                   "AggregateFunction(topK(10, 3), String)"})
    {
        EXPECT_EQ(dataTypeName(parseDataType(name)), name);
    }
}

TEST(DataType, ParsesClickHouseSpellings)
{
    EXPECT_EQ(parseDataType("DateTime64"), DataType::dateTime64(3));
    EXPECT_EQ(parseDataType(" DateTime64 ( 6 , 'UTC' ) "), DataType::dateTime64(6));
    EXPECT_EQ(parseDataType("DateTime('UTC')"), DataType(TypeId::DateTime));
    EXPECT_EQ(parseDataType("Boolean"), DataType(TypeId::Bool));
    const DataType map = parseDataType("Map(LowCardinality(String),Array(Int32))");
    EXPECT_EQ(map.id, TypeId::Map);
    EXPECT_TRUE(map.key().low_cardinality);
    EXPECT_EQ(map.value(), DataType::array(TypeId::Int32));
    EXPECT_EQ(map.valueType(), DataType::map(TypeId::String, DataType::array(TypeId::Int32)));
}

TEST(DataType, JsonKeepsTypedAndSkippedPathsOutOfItsValues)
{
    const DataType json =
        parseDataType("JSON(max_dynamic_paths=1024, a.b UInt32, max_dynamic_types = 8, SKIP x)");
    EXPECT_EQ(json.typed_paths, std::vector<std::string>{"a.b"});
    EXPECT_EQ(json.typed_path_types, std::vector<DataType>{DataType(TypeId::UInt32)});
    EXPECT_EQ(json.skipped_paths, std::vector<std::string>{"x"});
    // Columns hold paths and tagged values whatever the typed paths: the value type is JSON.
    EXPECT_EQ(json.valueType(), DataType::json());
    EXPECT_EQ(json.children, DataType::json().children);
    EXPECT_EQ(parseDataType("JSON()"), DataType::json());
    for (const std::string bad : {"JSON(a)", "JSON(SKIP REGEXP 'x')", "Array(JSON(a Int8))",
                                  "JSON(a JSON)", "JSON(`a Int8)"})
    {
        EXPECT_THROW(parseDataType(bad), Exception) << bad;
    }
}

TEST(DataType, AggregateStatesAreStringsThatNameTheirFunction)
{
    const DataType state = parseDataType("AggregateFunction( quantiles ( 0.5 , 1e-1 ) , UInt32 )");
    EXPECT_TRUE(state.isAggregateState());
    EXPECT_EQ(state.state_function, "quantiles");
    EXPECT_EQ(state.state_parameters, (std::vector<double>{0.5, 0.1}));
    EXPECT_EQ(state.state_arguments, std::vector<DataType>{DataType(TypeId::UInt32)});
    EXPECT_EQ(state.id, TypeId::String);
    EXPECT_EQ(state.valueType(), DataType(TypeId::String));
    EXPECT_EQ(dataTypeName(state), "AggregateFunction(quantiles(0.5, 0.1), UInt32)");
    EXPECT_NE(state, parseDataType("AggregateFunction(quantiles(0.5), UInt32)"));
    for (const std::string bad :
         {"AggregateFunction", "AggregateFunction()", "AggregateFunction(sum UInt8)",
          "AggregateFunction(quantiles(), UInt8)", "AggregateFunction(quantiles(0.5,), UInt8)",
          "AggregateFunction(sum, Array(UInt8))",
          "AggregateFunction(sum, AggregateFunction(sum, UInt8))"})
    {
        EXPECT_THROW(parseDataType(bad), Exception) << bad;
    }
}

TEST(DataType, NullableWrapsScalarsInClickHouseSpelling)
{
    const DataType nullable = parseDataType("Nullable( UInt64 )");
    EXPECT_TRUE(nullable.nullable);
    EXPECT_EQ(nullable.id, TypeId::UInt64);
    EXPECT_EQ(dataTypeName(nullable), "Nullable(UInt64)");
    EXPECT_EQ(nullable.withoutNullable(), DataType(TypeId::UInt64));
    EXPECT_EQ(nullable.valueType(), nullable) << "a column holds the NULLs";
    const DataType low = parseDataType("LowCardinality(Nullable(String))");
    EXPECT_TRUE(low.nullable && low.low_cardinality);
    EXPECT_EQ(dataTypeName(low), "LowCardinality(Nullable(String))");
    EXPECT_EQ(dataTypeName(parseDataType("Nullable(DateTime64(6))")), "Nullable(DateTime64(6))");

    // A column's type is Nullable once declared so, or once it holds a NULL.
    Column declared(nullable);
    EXPECT_TRUE(declared.dataType().nullable);
    Column plain(TypeId::UInt64);
    plain.append(uint64_t{1});
    EXPECT_FALSE(plain.dataType().nullable);
    plain.appendNull();
    EXPECT_TRUE(plain.dataType().nullable);
    EXPECT_TRUE(plain.isNull(1));
    EXPECT_FALSE(plain.isNull(0));
}

TEST(DataType, RefusesWhatItCannotHold)
{
    std::string too_deep;  // 33 levels: one past the limit.
    for (int level = 0; level < 33; ++level)
    {
        too_deep += "Array(";
    }
    too_deep += "UInt8" + std::string(33, ')');
    for (const std::string& name : std::vector<std::string>{"",
                                                            "Foo",
                                                            "Array",
                                                            "Array(",
                                                            "Array(UInt8",
                                                            "Array(UInt8))",
                                                            "Map(String)",
                                                            "Map(Float64, String)",
                                                            "Map(Array(String), String)",
                                                            "DateTime64(10)",
                                                            "DateTime64(x)",
                                                            "DateTime64(3, 'Europe/Berlin')",
                                                            "LowCardinality(UInt64)",
                                                            "DateTime('MSK')",
                                                            "Nullable(Array(UInt8))",
                                                            "Nullable(Nullable(UInt8))",
                                                            "Nullable(LowCardinality(String))",
                                                            "Array(Nullable(UInt8))",
                                                            "Map(String, Nullable(String))",
                                                            "string",
                                                            too_deep})
    {
        try
        {
            parseDataType(name);
            ADD_FAILURE() << name << " parsed";
        }
        catch (const Exception& error)
        {
            EXPECT_EQ(error.code(), ErrorCode::kUnknownType) << name;
            EXPECT_NE(std::string(error.what()).find("'" + name + "'"), std::string::npos)
                << error.what();
        }
    }
}

}  // namespace
}  // namespace granary
