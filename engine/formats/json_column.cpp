#include "engine/formats/json_column.h"

#include <optional>

namespace granary
{

JsonColumnCodec::JsonColumnCodec(const DataType& type) : type_(type)
{
    for (const DataType& typed : type.typed_path_types)
    {
        typed_types_.push_back(dynamic::binaryTypeOf(typed));
        dynamic::appendTypeCode(typed_types_.back(), typed_codes_.emplace_back());
    }
}

void JsonColumnCodec::readRowBinary(ingest::BinaryCursor& cursor, Column& column,
                                    const ingest::BinaryLimits& limits) const
{
    dynamic::readJsonObject(cursor, type_.typed_paths, typed_types_, limits,
                            [&](const dynamic::PathValue& path)
                            {
                                const size_t typed =
                                    path.type ? static_cast<size_t>(path.type - typed_types_.data())
                                              : dynamic::npos;
                                appendPath(path.path, typed, path.value, column);
                            });
    column.closeNestedRow();
}

void JsonColumnCodec::appendPath(std::string_view path, size_t typed, std::string_view value,
                                 Column& column) const
{
    if (dynamic::isSkippedPath(type_.skipped_paths, path))
    {
        return;
    }
    column.child(0).appendString(path);
    if (typed == dynamic::npos)
    {
        column.child(1).appendString(value);
        return;
    }
    std::string tagged = typed_codes_[typed];
    tagged += value;
    column.child(1).appendString(tagged);
}

void appendJsonRowText(const ColumnView& column, size_t row, std::string& out)
{
    std::vector<dynamic::PathValue> paths;
    for (uint64_t element = column.offsets[row]; element < column.offsets[row + 1]; ++element)
    {
        paths.push_back(
            {column.children[0].stringAt(element), column.children[1].stringAt(element), nullptr});
    }
    dynamic::appendJsonObjectText(paths, out);
}

namespace
{

/// The tagged value of `path` in row `row`, if the row has it.
std::optional<std::string_view> findPath(const ColumnView& column, size_t row,
                                         std::string_view path)
{
    for (uint64_t element = column.offsets[row]; element < column.offsets[row + 1]; ++element)
    {
        if (column.children[0].stringAt(element) == path)
        {
            return column.children[1].stringAt(element);
        }
    }
    return std::nullopt;
}

}  // namespace

bool appendJsonPathText(const ColumnView& column, size_t row, std::string_view path,
                        std::string& out)
{
    const std::optional<std::string_view> tagged = findPath(column, row, path);
    if (tagged)
    {
        dynamic::appendTaggedText(*tagged, dynamic::TextStyle::kText, out);
    }
    return tagged.has_value();
}

void appendJsonPathValue(const ColumnView& column, size_t row, std::string_view path, Column& out)
{
    const std::optional<std::string_view> tagged = findPath(column, row, path);
    if (tagged)
    {
        ingest::BinaryCursor cursor(*tagged);
        const dynamic::BinaryType type = dynamic::readType(cursor);
        if (type.code == dynamic::binaryTypeOf(out.dataType()).code &&
            type.parameter == dynamic::binaryTypeOf(out.dataType()).parameter)
        {
            if (isString(out.type()))
            {
                out.appendString(cursor.readString({}));
            }
            else
            {
                out.appendRaw(cursor.readBytes(fixedWidth(out.type())).data());
            }
            return;
        }
    }
    out.appendDefaults(1);
}

}  // namespace granary
