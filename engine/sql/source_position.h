#pragma once

#include <cstddef>
#include <string>

namespace granary::sql
{

/// Where a token or an AST node starts in the query text. Line and column are 1-based; the
/// column counts characters (every byte except UTF-8 continuation bytes, a tab counts one), the
/// offset counts bytes from 0.
struct SourcePosition
{
    size_t line = 1;
    size_t column = 1;
    size_t offset = 0;
};

/// "line 3, column 14": how error messages name a place in the query.
inline std::string describePosition(const SourcePosition& position)
{
    return "line " + std::to_string(position.line) + ", column " + std::to_string(position.column);
}

/// Bytes 10xxxxxx continue a UTF-8 character and do not start a column of their own.
inline bool isUtf8ContinuationByte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace granary::sql
