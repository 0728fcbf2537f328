// exportStream: Granary blocks as an ArrowArrayStream.

#include <cerrno>
#include <memory>
#include <new>

#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_export.h"
#include "engine/arrow/arrow_export_format.h"
#include "engine/arrow/arrow_export_owner.h"

namespace granary::arrow
{

namespace
{

/// What an exported stream owns.
struct ExportedStream
{
    std::vector<ArrowField> fields;
    std::vector<std::string> formats;  ///< The fields' resolved Arrow formats.
    ArrowMetadata metadata;            ///< The schema's.
    std::function<std::optional<Block>()> next_batch;
    std::string last_error;
};

ExportedStream& streamOf(ArrowArrayStream* stream)
{
    return *static_cast<ExportedStream*>(stream->private_data);
}

/// Keeps an error message for get_last_error; an allocation failure leaves none, since a C
/// callback must not throw.
void rememberError(ExportedStream& stream, const char* message) noexcept
{
    try
    {
        stream.last_error = message;
    }
    catch (...)
    {
        stream.last_error.clear();
    }
}

int errnoOf(ErrorCode code)
{
    switch (code)
    {
        case ErrorCode::kBadArguments:
        case ErrorCode::kTypeMismatch:
        case ErrorCode::kIncorrectData:
        case ErrorCode::kUnknownType:
        case ErrorCode::kTooLargeSize:
            return EINVAL;
        case ErrorCode::kMemoryLimitExceeded:
            return ENOMEM;
        default:
            return EIO;
    }
}

/// Runs a callback's work: 0 when it succeeds, else an errno value with the message kept.
template <typename Work>
int runReportingErrors(ExportedStream& stream, Work&& work) noexcept
{
    try
    {
        work();
        stream.last_error.clear();
        return 0;
    }
    catch (const Exception& error)
    {
        rememberError(stream, error.what());
        return errnoOf(error.code());
    }
    catch (const std::bad_alloc&)
    {
        rememberError(stream, "out of memory");
        return ENOMEM;
    }
    catch (const std::exception& error)
    {
        rememberError(stream, error.what());
        return EIO;
    }
    catch (...)
    {
        rememberError(stream, "an exception that is not a std::exception");
        return EIO;
    }
}

/// A batch must have the stream's columns, in order and of the same types.
void checkMatchesFields(const Block& block, const std::vector<ArrowField>& fields)
{
    if (block.columns.size() != fields.size())
    {
        throwArrowError(ErrorCode::kBadArguments, kBatchSubject,
                        "a batch has " + std::to_string(block.columns.size()) +
                            " columns, the stream's schema " + std::to_string(fields.size()));
    }
    for (size_t i = 0; i < fields.size(); ++i)
    {
        const Column& column = block.columns[i].column;
        if (column.type() != fields[i].type)
        {
            throwArrowError(ErrorCode::kTypeMismatch, describeColumn(i, fields[i].name),
                            "a batch's column is " + std::string(typeName(column.type())) +
                                ", the stream's field " + std::string(typeName(fields[i].type)));
        }
        if (column.hasNulls() && !fields[i].nullable)
        {
            throwArrowError(ErrorCode::kIncorrectData, describeColumn(i, fields[i].name),
                            "a batch's column has NULLs but the field is not nullable");
        }
    }
}

int getSchema(ArrowArrayStream* stream, ArrowSchema* out)
{
    ExportedStream& state = streamOf(stream);
    return runReportingErrors(state, [&] { exportSchema(state.fields, out, state.metadata); });
}

int getNext(ArrowArrayStream* stream, ArrowArray* out)
{
    ExportedStream& state = streamOf(stream);
    return runReportingErrors(state,
                              [&]
                              {
                                  std::optional<Block> block = state.next_batch();
                                  if (!block)
                                  {
                                      *out = ArrowArray{};  // Released: the end of the stream.
                                      return;
                                  }
                                  checkMatchesFields(*block, state.fields);
                                  exportBlockArray(std::move(*block), out, state.formats);
                              });
}

const char* getLastError(ArrowArrayStream* stream)
{
    const ExportedStream& state = streamOf(stream);
    return state.last_error.empty() ? nullptr : state.last_error.c_str();
}

}  // namespace

void exportStream(std::vector<ArrowField> fields, std::function<std::optional<Block>()> next_batch,
                  ArrowArrayStream* out, ArrowMetadata metadata)
{
    auto owner = std::make_unique<ExportedStream>();
    for (size_t i = 0; i < fields.size(); ++i)
    {
        owner->formats.push_back(
            resolveExportFormat(fields[i].type, fields[i].format, describeColumn(i, fields[i].name))
                .format);
    }
    owner->fields = std::move(fields);
    owner->next_batch = std::move(next_batch);
    owner->metadata = std::move(metadata);
    *out = ArrowArrayStream{
        .get_schema = &getSchema,
        .get_next = &getNext,
        .get_last_error = &getLastError,
        .release = &releaseOwner<ArrowArrayStream, ExportedStream>,
        .private_data = owner.release(),
    };
}

}  // namespace granary::arrow
