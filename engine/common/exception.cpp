#include "engine/common/exception.h"

namespace granary
{

std::string_view errorCodeName(ErrorCode code)
{
    switch (code)
    {
        case ErrorCode::kOk:
            return "OK";
        case ErrorCode::kBadArguments:
            return "BAD_ARGUMENTS";
        case ErrorCode::kUnknownColumn:
            return "UNKNOWN_IDENTIFIER";
        case ErrorCode::kUnknownFunction:
            return "UNKNOWN_FUNCTION";
        case ErrorCode::kTypeMismatch:
            return "TYPE_MISMATCH";
        case ErrorCode::kSyntaxError:
            return "SYNTAX_ERROR";
        case ErrorCode::kQueryCancelled:
            return "QUERY_WAS_CANCELLED";
        case ErrorCode::kMemoryLimitExceeded:
            return "MEMORY_LIMIT_EXCEEDED";
        case ErrorCode::kLogicalError:
            return "LOGICAL_ERROR";
        case ErrorCode::kCannotParseInput:
            return "CANNOT_PARSE_INPUT";
        case ErrorCode::kUnknownTable:
            return "UNKNOWN_TABLE";
        case ErrorCode::kTableAlreadyExists:
            return "TABLE_ALREADY_EXISTS";
        case ErrorCode::kCorruptedData:
            return "CORRUPTED_DATA";
        case ErrorCode::kCannotOpenFile:
            return "CANNOT_OPEN_FILE";
        case ErrorCode::kNotImplemented:
            return "NOT_IMPLEMENTED";
        case ErrorCode::kNotAnAggregate:
            return "NOT_AN_AGGREGATE";
        case ErrorCode::kUnknownPacketFromClient:
            return "UNKNOWN_PACKET_FROM_CLIENT";
        case ErrorCode::kUnexpectedPacketFromClient:
            return "UNEXPECTED_PACKET_FROM_CLIENT";
        case ErrorCode::kUnknownSetting:
            return "UNKNOWN_SETTING";
        case ErrorCode::kTooLargeSize:
            return "TOO_LARGE_STRING_SIZE";
        case ErrorCode::kValueOutOfRangeOfDataType:
            return "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE";
        case ErrorCode::kCannotReadAllData:
            return "CANNOT_READ_ALL_DATA";
        case ErrorCode::kNoSuchColumnInTable:
            return "NO_SUCH_COLUMN_IN_TABLE";
        case ErrorCode::kUnknownFormat:
            return "UNKNOWN_FORMAT";
        case ErrorCode::kTooLargeArraySize:
            return "TOO_LARGE_ARRAY_SIZE";
        case ErrorCode::kLimitExceeded:
            return "LIMIT_EXCEEDED";
        case ErrorCode::kReadonly:
            return "READONLY";
        case ErrorCode::kRequiredPassword:
            return "REQUIRED_PASSWORD";
        case ErrorCode::kUnsupportedMethod:
            return "UNSUPPORTED_METHOD";
        case ErrorCode::kIncorrectResultOfScalarSubquery:
            return "INCORRECT_RESULT_OF_SCALAR_SUBQUERY";
        case ErrorCode::kIllegalColumn:
            return "ILLEGAL_COLUMN";
        case ErrorCode::kUnionAllResultStructuresMismatch:
            return "UNION_ALL_RESULT_STRUCTURES_MISMATCH";
        case ErrorCode::kTimeoutExceeded:
            return "TIMEOUT_EXCEEDED";
        case ErrorCode::kTooManyConnections:
            return "NO_FREE_CONNECTION";
        case ErrorCode::kNetworkError:
            return "NETWORK_ERROR";
        case ErrorCode::kChecksumDoesntMatch:
            return "CHECKSUM_DOESNT_MATCH";
        case ErrorCode::kUnknownCompressionMethod:
            return "UNKNOWN_COMPRESSION_METHOD";
        case ErrorCode::kUnknownType:
            return "UNKNOWN_TYPE";
        case ErrorCode::kQueryIsTooLarge:
            return "QUERY_IS_TOO_LARGE";
        case ErrorCode::kAuthenticationFailed:
            return "AUTHENTICATION_FAILED";
        case ErrorCode::kIncorrectData:
            return "INCORRECT_DATA";
    }
    return "UNKNOWN";
}

}  // namespace granary
