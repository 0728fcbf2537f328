#include "server/http_errors.h"

#include <fmt/format.h>

namespace granary::server
{

int httpStatusForError(ErrorCode code)
{
    switch (code)
    {
        case ErrorCode::kRequiredPassword:
            return 401;
        case ErrorCode::kAuthenticationFailed:
        case ErrorCode::kReadonly:
            return 403;
        case ErrorCode::kUnknownTable:
        case ErrorCode::kUnknownColumn:
        case ErrorCode::kUnknownFunction:
        case ErrorCode::kUnknownFormat:
        case ErrorCode::kUnknownSetting:
            return 404;
        case ErrorCode::kQueryIsTooLarge:
            return 413;
        case ErrorCode::kUnsupportedMethod:
            return 415;
        case ErrorCode::kNotImplemented:
            return 501;
        case ErrorCode::kTooManyConnections:
            return 503;
        case ErrorCode::kTimeoutExceeded:
            return 408;
        case ErrorCode::kBadArguments:
        case ErrorCode::kTypeMismatch:
        case ErrorCode::kSyntaxError:
        case ErrorCode::kValueOutOfRangeOfDataType:
        case ErrorCode::kCannotParseInput:
        case ErrorCode::kCannotReadAllData:
        case ErrorCode::kChecksumDoesntMatch:
        case ErrorCode::kUnknownCompressionMethod:
        case ErrorCode::kCorruptedData:
        case ErrorCode::kIncorrectData:
        case ErrorCode::kTooLargeSize:
        case ErrorCode::kTooLargeArraySize:
        case ErrorCode::kLimitExceeded:
        case ErrorCode::kNoSuchColumnInTable:
        case ErrorCode::kTableAlreadyExists:
        case ErrorCode::kNotAnAggregate:
            return 400;
        default:
            return 500;
    }
}

std::string httpErrorBody(ErrorCode code, std::string_view message)
{
    return fmt::format("Code: {}. DB::Exception: {} ({}) (version {} (official build))\n",
                       static_cast<int>(code), message, errorCodeName(code), kHttpServerVersion);
}

}  // namespace granary::server
