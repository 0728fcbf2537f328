#pragma once

#include <string>
#include <string_view>

#include "engine/common/exception.h"
#include "engine/sql/source_position.h"

namespace granary::sql
{

/// An error in query text, always ErrorCode::kSyntaxError. The message reads
///
///     Syntax error at line 1, column 17: expected ',', FROM, ... but found 'hits'
///     SELECT a FORM hits
///                   ^
///
/// (the line of the error, cut around the position when long, and a caret under it); the
/// position and the reason alone are also kept for programs.
class SyntaxError : public Exception
{
public:
    SyntaxError(std::string_view text, SourcePosition position, const std::string& reason);

    const SourcePosition& position() const { return position_; }
    /// The message's first line after "Syntax error at line L, column C: ".
    const std::string& reason() const { return reason_; }

private:
    SourcePosition position_;
    std::string reason_;
};

}  // namespace granary::sql
