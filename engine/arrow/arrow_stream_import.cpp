// readArrowStream: every batch of an ArrowArrayStream.

#include <string>
#include <system_error>

#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_import.h"

namespace granary::arrow
{

namespace
{

constexpr std::string_view kStreamSubject = "Arrow stream";

/// Releases an ArrowSchema or ArrowArray this reader got, unless it is released already.
template <typename Released>
class ReleaseOnExit
{
public:
    explicit ReleaseOnExit(Released& released) : released_(released) {}
    ~ReleaseOnExit()
    {
        if (released_.release != nullptr)
        {
            released_.release(&released_);
        }
    }
    ReleaseOnExit(const ReleaseOnExit&) = delete;
    ReleaseOnExit& operator=(const ReleaseOnExit&) = delete;

private:
    Released& released_;
};

/// Throws the producer's error when a stream callback returned non-zero.
void checkStreamCall(ArrowArrayStream& stream, int result, std::string_view callback)
{
    if (result == 0)
    {
        return;
    }
    const char* message =
        stream.get_last_error != nullptr ? stream.get_last_error(&stream) : nullptr;
    throwArrowError(ErrorCode::kIncorrectData, kStreamSubject,
                    std::string(callback) + " failed with error " + std::to_string(result) + " (" +
                        std::generic_category().message(result) +
                        "): " + (message != nullptr ? message : "the producer gave no message"));
}

std::vector<ArrowField> readStreamSchema(ArrowArrayStream& stream,
                                         const std::function<void(const ArrowSchema&)>& on_schema)
{
    ArrowSchema schema{};
    checkStreamCall(stream, stream.get_schema(&stream, &schema), "get_schema");
    const ReleaseOnExit release_schema(schema);
    if (on_schema)
    {
        on_schema(schema);
    }
    return importSchema(schema);
}

}  // namespace

void readArrowStream(
    ArrowArrayStream& stream,
    const std::function<void(const std::vector<ArrowField>&, const ImportedBatch&)>& on_batch,
    const std::function<void(const ArrowSchema&)>& on_schema, const ColumnSelection& read)
{
    if (stream.release == nullptr)
    {
        throwArrowError(ErrorCode::kBadArguments, kStreamSubject,
                        "the stream is already released (its release callback is null)");
    }
    const std::vector<ArrowField> fields = readStreamSchema(stream, on_schema);
    while (true)
    {
        ArrowArray array{};
        checkStreamCall(stream, stream.get_next(&stream, &array), "get_next");
        if (array.release == nullptr)
        {
            return;
        }
        const ReleaseOnExit release_array(array);
        on_batch(fields, importBatch(array, fields, read));
    }
}

}  // namespace granary::arrow
