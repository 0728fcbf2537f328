#pragma once

// The one error type Granary raises: every error a host can see carries a stable code (the
// codes ClickHouse clients know) and a message that names the culprit.

#include <stdexcept>
#include <string>
#include <string_view>

namespace granary
{

/// Error codes, stable across versions (clients see them in the native protocol and the C API).
enum class ErrorCode : int
{
    kOk = 0,
    kBadArguments = 36,
    kUnknownColumn = 47,
    kUnknownFunction = 46,
    kTypeMismatch = 53,
    kSyntaxError = 62,
    kQueryCancelled = 394,
    kMemoryLimitExceeded = 241,
    kLogicalError = 49,
    kCannotParseInput = 27,
    kUnknownTable = 60,
    kTableAlreadyExists = 57,
    kCorruptedData = 246,
    kCannotOpenFile = 76,
    kNotImplemented = 48,
    kNotAnAggregate = 215,
    kUnknownPacketFromClient = 101,
    kUnexpectedPacketFromClient = 102,
    kUnknownSetting = 115,
    kTooLargeSize = 131,
    kTimeoutExceeded = 159,
    kTooManyConnections = 203,
    kNetworkError = 210,
    kChecksumDoesntMatch = 40,
    kUnknownCompressionMethod = 89,
    kUnknownType = 50,
    kQueryIsTooLarge = 393,
    kAuthenticationFailed = 516,
    kIncorrectData = 117,
    kValueOutOfRangeOfDataType = 321,
    kCannotReadAllData = 33,
    kNoSuchColumnInTable = 16,
    kUnknownFormat = 73,
    kTooLargeArraySize = 128,
    kLimitExceeded = 290,
    kReadonly = 164,
    kRequiredPassword = 194,
    kUnsupportedMethod = 1,
    kIncorrectResultOfScalarSubquery = 125,
    kUnionAllResultStructuresMismatch = 258,
    kIllegalColumn = 44,
};

/// The ClickHouse name of a code ("MEMORY_LIMIT_EXCEEDED").
std::string_view errorCodeName(ErrorCode code);

/// Every error Granary raises: a code (for programs) and a message naming the culprit (for
/// people).
class Exception : public std::runtime_error
{
public:
    Exception(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code)
    {
    }
    ErrorCode code() const { return code_; }

private:
    ErrorCode code_;
};

}  // namespace granary
