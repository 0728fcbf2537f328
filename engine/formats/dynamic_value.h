#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/columns/data_type.h"
#include "engine/ingest/binary_cursor.h"

// ClickHouse's binary Dynamic values: a type encoding (a code byte, then the type's
// parameters) followed by the value in RowBinary. JSON columns keep each path's value in this
// form, so that RowBinary input is checked and copied, never re-encoded, and every type a
// client sent (Int64 42 against String "42") survives to the output.
namespace granary::dynamic
{

/// The codes of ClickHouse's type encoding (DataTypesBinaryEncoding) that Granary reads.
enum class TypeCode : uint8_t
{
    Nothing = 0x00,  ///< NULL: no value follows.
    UInt8 = 0x01,
    UInt16 = 0x02,
    UInt32 = 0x03,
    UInt64 = 0x04,
    Int8 = 0x07,
    Int16 = 0x08,
    Int32 = 0x09,
    Int64 = 0x0A,
    Float32 = 0x0D,
    Float64 = 0x0E,
    Date = 0x0F,
    DateTime = 0x11,
    DateTime64 = 0x13,  ///< + a precision byte.
    String = 0x15,
    FixedString = 0x16,  ///< + a VarUInt size.
    Array = 0x1E,        ///< + the element's type.
    Tuple = 0x1F,        ///< + a VarUInt count and the elements' types.
    Nullable = 0x23,     ///< + the type; the value is a 0/1 NULL flag, then the value if 0.
    LowCardinality = 0x26,
    Map = 0x27,      ///< + the key's and the value's types.
    Dynamic = 0x2B,  ///< + a max_types byte; each value carries its own type.
    Bool = 0x2D,
    Json = 0x30,  ///< + version 0, limits, typed paths, SKIP paths and regexps.
};

/// Paths one JSON object may hold (ClickHouse's format_binary_max_object_size).
inline constexpr uint64_t kMaxJsonPaths = 100'000;

/// A decoded type encoding.
struct BinaryType
{
    TypeCode code = TypeCode::Nothing;
    uint64_t parameter = 0;  ///< DateTime64's precision, FixedString's size.
    /// Array: the element; Nullable, LowCardinality: the inner type; Tuple: the elements;
    /// Map: key, value; JSON: the typed paths' types.
    std::vector<BinaryType> children;
    std::vector<std::string> typed_paths;  ///< JSON's, parallel to `children`.
};

/// Reads one type encoding. An unknown code is kIncorrectData ("Unknown type code: 0x55"), a
/// code of a type Granary does not hold (UInt128, UUID...) kNotImplemented naming it.
BinaryType readType(ingest::BinaryCursor& cursor, size_t depth = 0);

/// Checks one value of `type` at the cursor and moves past it (Bool and NULL-flag bytes other
/// than 0 and 1 are kIncorrectData, lengths are held to `limits`).
void skipValue(ingest::BinaryCursor& cursor, const BinaryType& type,
               const ingest::BinaryLimits& limits, size_t depth = 0);

/// The encoding of a column type, for typed JSON paths (LowCardinality(T) is T).
BinaryType binaryTypeOf(const DataType& type);
/// Appends the code bytes of `type` (what readType reads back).
void appendTypeCode(const BinaryType& type, std::string& out);

/// One path of a JSON object and its value's bytes: tagged (type encoding, then value) when
/// `type` is null, else untagged in `*type` (a typed path).
struct PathValue
{
    std::string_view path;
    std::string_view value;
    const BinaryType* type = nullptr;
};

/// Reads ClickHouse's binary JSON object: a VarUInt count of paths (above kMaxJsonPaths
/// kLimitExceeded), then each path's name and value: untagged in its type for a typed path,
/// else tagged. NULL values (code Nothing) are dropped. `visit(PathValue)` gets the others,
/// their bytes pointing into the cursor's.
template <typename Visit>
void readJsonObject(ingest::BinaryCursor& cursor, const std::vector<std::string>& typed_paths,
                    const std::vector<BinaryType>& typed_types, const ingest::BinaryLimits& limits,
                    Visit&& visit, size_t depth = 0);

/// How values are written: as JSON, or as ClickHouse's text forms (strings bare at the top,
/// quoted inside arrays, maps and tuples).
enum class TextStyle
{
    kJson,
    kText,
};

/// Appends a tagged value (as a JSON column stores it) in `style`; NULL is null or NULL.
void appendTaggedText(std::string_view tagged, TextStyle style, std::string& out);

/// Appends the object `paths` make, nested at the dots of their names ({"a":{"b":1}} for
/// a.b), in path order; `paths` is sorted in place.
void appendJsonObjectText(std::vector<PathValue>& paths, std::string& out);

/// Where a typed path is listed, or `npos`.
size_t typedPathIndex(const std::vector<std::string>& typed_paths, std::string_view path);
/// Whether `path` is a SKIP path or lies under one.
bool isSkippedPath(const std::vector<std::string>& skipped_paths, std::string_view path);

inline constexpr size_t npos = static_cast<size_t>(-1);

// ---- implementation of the template ------------------------------------------------------

/// Nesting deeper than this (types, values inside Dynamic values) is kIncorrectData: the bytes
/// come from clients, and each level recurses.
inline constexpr size_t kMaxDepth = 32;

void checkDepth(const ingest::BinaryCursor& cursor, size_t depth);

template <typename Visit>
void readJsonObject(ingest::BinaryCursor& cursor, const std::vector<std::string>& typed_paths,
                    const std::vector<BinaryType>& typed_types, const ingest::BinaryLimits& limits,
                    Visit&& visit, size_t depth)
{
    checkDepth(cursor, depth);
    const uint64_t count = cursor.readVarUInt();
    if (count > kMaxJsonPaths)
    {
        cursor.fail(ErrorCode::kLimitExceeded, "JSON object of " + std::to_string(count) +
                                                   " paths is above the limit of " +
                                                   std::to_string(kMaxJsonPaths));
    }
    for (uint64_t index = 0; index < count; ++index)
    {
        const std::string_view path = cursor.readString(limits);
        const size_t typed = typedPathIndex(typed_paths, path);
        const size_t begin = cursor.offset();
        const BinaryType* type = nullptr;
        if (typed != npos)
        {
            type = &typed_types[typed];
            skipValue(cursor, *type, limits, depth + 1);
        }
        else
        {
            const BinaryType tagged = readType(cursor, depth + 1);
            if (tagged.code == TypeCode::Nothing)
            {
                continue;
            }
            skipValue(cursor, tagged, limits, depth + 1);
        }
        visit(PathValue{path, cursor.bytesFrom(begin), type});
    }
}

}  // namespace granary::dynamic
