#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/block.h"
#include "server/wire.h"

namespace granary::server
{

/// One column as the native format sends it. type_name is normally typeName(column.type());
/// ProfileEvents send an Int8 column as Enum8.
struct NativeColumn
{
    std::string name;
    std::string type_name;
    const Column* column = nullptr;
};

std::vector<NativeColumn> nativeColumns(const Block& block);

/// Block info, column and row counts, then per column its name, type and values.
void writeNativeBlock(WriteBuffer& out, const std::vector<NativeColumn>& columns, size_t rows);

struct NativeBlockLimits
{
    size_t max_columns = 1000;
    size_t max_rows = 1 << 20;
    size_t max_name_bytes = 1 << 16;
    size_t max_bytes = 256 << 20;  ///< Total of a block's values, strings included.
};

using TypeResolver = std::optional<DataType> (*)(std::string_view type_name);

/// Granary's types by ClickHouse's names (data_type.h); nullopt for others.
std::optional<DataType> nativeType(std::string_view type_name);

/// Reads a block of Granary's column types (an unknown type is Exception(kUnknownType);
/// LowCardinality, whose native encoding is a dictionary Granary does not read, and JSON are
/// kNotImplemented). `resolve` maps type names to the types values are read as; `type_names`,
/// when given, receives the names as sent.
Block readNativeBlock(ReadBuffer& in, const NativeBlockLimits& limits,
                      TypeResolver resolve = &nativeType,
                      std::vector<std::string>* type_names = nullptr);

}  // namespace granary::server
