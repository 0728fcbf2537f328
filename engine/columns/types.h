#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "granary/types.h"

namespace granary
{

/// Parses a Granary/ClickHouse type name that takes no parameters ("UInt32", "String",
/// "DateTime"...); data_type.h parses the others.
std::optional<TypeId> typeFromName(std::string_view name);

/// DateTime64, Array, Map and JSON: a TypeId alone does not describe their values.
bool isParametric(TypeId type);
bool isInteger(TypeId type);        ///< UInt*, Int*, Date, DateTime, DateTime64 and Bool.
bool isSignedInteger(TypeId type);  ///< Int* and DateTime64.
bool isFloat(TypeId type);

template <typename T>
struct TypeTag
{
    using type = T;
};

/// Calls f(TypeTag<T>{}) with the C++ type that stores `type`'s values; f(TypeTag<
/// std::string_view>{}) for String. Array, Map and JSON have no such type: callers check isNested
/// first, and reaching one here throws std::invalid_argument.
template <typename F>
decltype(auto) dispatchType(TypeId type, F&& f)
{
    switch (type)
    {
        case TypeId::UInt8:
            return f(TypeTag<uint8_t>{});
        case TypeId::UInt16:
            return f(TypeTag<uint16_t>{});
        case TypeId::UInt32:
            return f(TypeTag<uint32_t>{});
        case TypeId::UInt64:
            return f(TypeTag<uint64_t>{});
        case TypeId::Int8:
            return f(TypeTag<int8_t>{});
        case TypeId::Int16:
            return f(TypeTag<int16_t>{});
        case TypeId::Int32:
            return f(TypeTag<int32_t>{});
        case TypeId::Int64:
            return f(TypeTag<int64_t>{});
        case TypeId::Float32:
            return f(TypeTag<float>{});
        case TypeId::Float64:
            return f(TypeTag<double>{});
        case TypeId::Date:
            return f(TypeTag<uint16_t>{});
        case TypeId::DateTime:
            return f(TypeTag<uint32_t>{});
        case TypeId::String:
            return f(TypeTag<std::string_view>{});
        case TypeId::Bool:
            return f(TypeTag<uint8_t>{});
        case TypeId::DateTime64:
            return f(TypeTag<int64_t>{});
        case TypeId::Array:
        case TypeId::Map:
        case TypeId::Json:
            break;
    }
    throw std::invalid_argument("dispatchType: " + std::string(typeName(type)) +
                                " values have no single C++ type");
}

/// Same, for fixed-width types only (String is excluded at compile time).
template <typename F>
decltype(auto) dispatchFixedType(TypeId type, F&& f)
{
    return dispatchType(type,
                        [&]<typename T>(TypeTag<T> tag) -> decltype(f(TypeTag<uint8_t>{}))
                        {
                            if constexpr (std::is_same_v<T, std::string_view>)
                            {
                                __builtin_unreachable();
                            }
                            else
                            {
                                return f(tag);
                            }
                        });
}

}  // namespace granary
