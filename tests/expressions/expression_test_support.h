#pragma once

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "engine/columns/column.h"
#include "engine/expressions/compiled_expression.h"
#include "engine/sql/parser.h"

namespace granary::testing
{

constexpr TypeId kFixedTypes[] = {TypeId::UInt8,   TypeId::UInt16, TypeId::UInt32,
                                  TypeId::UInt64,  TypeId::Int8,   TypeId::Int16,
                                  TypeId::Int32,   TypeId::Int64,  TypeId::Float32,
                                  TypeId::Float64, TypeId::Date,   TypeId::DateTime};

/// Random values of T with its edge values (min, max, 0, -1, 1) mixed in often.
template <typename T>
std::vector<T> randomValues(size_t rows, std::mt19937_64& random)
{
    std::vector<T> values(rows);
    const T edges[] = {std::numeric_limits<T>::lowest(),
                       std::numeric_limits<T>::max(),
                       T(0),
                       static_cast<T>(-1),
                       T(1),
                       T(2)};
    for (T& value : values)
    {
        if (random() % 4 == 0)
        {
            value = edges[random() % std::size(edges)];
        }
        else if constexpr (std::is_floating_point_v<T>)
        {
            value = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(random));
        }
        else if (random() % 2)
        {
            value = static_cast<T>(random() % 200) - static_cast<T>(std::is_signed_v<T> ? 100 : 0);
        }
        else
        {
            value = static_cast<T>(random());
        }
    }
    return values;
}

/// A random column of `type`: dates within 1970..2149, strings short, often empty, drawn from a
/// small alphabet so that equal values and LIKE matches occur.
inline Column randomColumn(TypeId type, size_t rows, std::mt19937_64& random)
{
    Column column(type);
    if (isString(type))
    {
        static constexpr std::string_view kAlphabet = "abgoleGO.%_/:";
        for (size_t row = 0; row < rows; ++row)
        {
            std::string value;
            const size_t length = random() % 3 == 0 ? 0 : random() % 12;
            for (size_t i = 0; i < length; ++i)
            {
                value.push_back(kAlphabet[random() % kAlphabet.size()]);
            }
            if (random() % 5 == 0)
            {
                value += "google";
            }
            column.appendString(value);
        }
        return column;
    }
    dispatchFixedType(type,
                      [&]<typename T>(TypeTag<T>)
                      {
                          for (const T value : randomValues<T>(rows, random))
                          {
                              column.append(value);
                          }
                      });
    return column;
}

/// The block's columns by name, as a lookup for compileExpression.
inline ColumnTypeLookup lookupOf(const Block& block)
{
    return [&block](std::string_view name) -> std::optional<DataType>
    {
        const Column* column = block.find(name);
        return column ? std::optional<DataType>(column->dataType()) : std::nullopt;
    };
}

inline CompiledExpression compileText(std::string_view text, const Block& block)
{
    return compileExpression(sql::parseExpression(text), lookupOf(block));
}

/// Evaluates the expression over the whole block in uneven ranges, concatenating the results,
/// so that range offsets are exercised too.
inline Column evaluateAll(const CompiledExpression& expression, const Block& block)
{
    const BlockView view = BlockView::of(block);
    Column result(expression.dataType());
    const size_t rows = block.rows();
    size_t begin = 0;
    size_t step = 1;
    while (begin < rows)
    {
        const size_t count = std::min(step, rows - begin);
        Column holder;
        const ColumnView part = expression.evaluate(view, begin, count, holder);
        EXPECT_EQ(part.rows, count);
        EXPECT_EQ(part.type, expression.type());
        result.appendRange(part, 0, count);
        begin += count;
        step = step * 3 + 1;
    }
    return result;
}

inline Column evaluateText(std::string_view text, const Block& block)
{
    return evaluateAll(compileText(text, block), block);
}

/// Value of row `row` of a fixed-width column as long double: exact for every 64-bit integer,
/// so comparisons against it are exact too.
inline long double numericAt(const Column& column, size_t row)
{
    return dispatchFixedType(column.type(), [&]<typename T>(TypeTag<T>)
                             { return static_cast<long double>(column.valueAt<T>(row)); });
}

/// Bits of row `row` sign- or zero-extended to 64 bits.
inline uint64_t bitsAt(const Column& column, size_t row)
{
    return dispatchFixedType(column.type(),
                             [&]<typename T>(TypeTag<T>) -> uint64_t
                             {
                                 if constexpr (std::is_floating_point_v<T>)
                                 {
                                     return 0;
                                 }
                                 else
                                 {
                                     return static_cast<uint64_t>(column.valueAt<T>(row));
                                 }
                             });
}

}  // namespace granary::testing
