// importSchema: the columns of an Arrow schema.

#include <string>

#include "engine/arrow/arrow_column_import.h"
#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_import.h"

namespace granary::arrow
{

namespace
{

constexpr std::string_view kStructFormat = "+s";

void checkFormatPresent(const ArrowSchema& schema, std::string_view subject)
{
    if (schema.format == nullptr)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject, "the schema's format is null");
    }
}

/// A dictionary-encoded field reads as its values: the dictionary's format, integer indices.
void importDictionaryEncoding(const ArrowSchema& schema, std::string_view subject,
                              ArrowField& field)
{
    const std::string dictionary_subject = std::string(subject) + " dictionary";
    const ArrowSchema& dictionary = *schema.dictionary;
    checkFormatPresent(dictionary, dictionary_subject);
    if (!isIntegerFormat(field.format))
    {
        throwArrowError(ErrorCode::kUnknownType, subject,
                        "dictionary index format '" + field.format + "' is not an integer format");
    }
    if (dictionary.dictionary != nullptr)
    {
        throwArrowError(ErrorCode::kUnknownType, dictionary_subject,
                        "a dictionary of dictionary-encoded values is not supported");
    }
    field.index_format = std::move(field.format);
    field.format = dictionary.format;
    field.dictionary = true;
}

ArrowField importField(const ArrowSchema& schema, size_t index)
{
    ArrowField field;
    field.name = schema.name != nullptr ? schema.name : "";
    const std::string subject = describeColumn(index, field.name);
    checkFormatPresent(schema, subject);
    field.format = schema.format;
    field.nullable = (schema.flags & ARROW_FLAG_NULLABLE) != 0;
    if (schema.dictionary != nullptr)
    {
        importDictionaryEncoding(schema, subject, field);
    }
    field.type = parseSupportedFormat(field.format, subject).type;
    if (schema.n_children != 0)
    {
        throwArrowError(ErrorCode::kIncorrectData, subject,
                        "n_children is " + std::to_string(schema.n_children) + " for format '" +
                            schema.format + "', which has no children");
    }
    return field;
}

}  // namespace

std::vector<ArrowField> importSchema(const ArrowSchema& schema)
{
    if (schema.release == nullptr)
    {
        throwArrowError(ErrorCode::kBadArguments, kBatchSubject,
                        "the schema is already released (its release callback is null)");
    }
    checkFormatPresent(schema, kBatchSubject);
    if (schema.format != kStructFormat)
    {
        return {importField(schema, 0)};
    }
    if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr))
    {
        throwArrowError(ErrorCode::kIncorrectData, kBatchSubject,
                        "the struct schema has n_children " + std::to_string(schema.n_children) +
                            (schema.children == nullptr ? " and no children" : ""));
    }
    std::vector<ArrowField> fields;
    for (int64_t i = 0; i < schema.n_children; ++i)
    {
        const ArrowSchema* child = schema.children[i];
        if (child == nullptr)
        {
            throwArrowError(ErrorCode::kIncorrectData, kBatchSubject,
                            "the struct schema's child " + std::to_string(i) + " is null");
        }
        fields.push_back(importField(*child, static_cast<size_t>(i)));
    }
    return fields;
}

}  // namespace granary::arrow
