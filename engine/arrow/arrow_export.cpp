#include "engine/arrow/arrow_export.h"

#include <memory>

#include "engine/arrow/arrow_column_export.h"
#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_export_owner.h"

namespace granary::arrow
{

namespace
{

constexpr const char* kStructFormat = "+s";
constexpr int64_t kStructBuffers = 1;

/// What an exported struct array owns: its children and its (null) validity buffer.
struct ExportedStruct
{
    explicit ExportedStruct(size_t columns) : children(columns) {}

    ExportedChildren<ArrowArray> children;
    const void* validity = nullptr;  ///< The struct has no NULL rows of its own.
};
/// What an exported struct schema owns: its children and its metadata's bytes.
struct ExportedStructSchema
{
    explicit ExportedStructSchema(size_t columns) : children(columns) {}

    ExportedChildren<ArrowSchema> children;
    std::string metadata;
};

/// Each column's Arrow format, checked against the column before anything is moved.
std::vector<ExportFormat> planBlockExport(const Block& block, std::span<const std::string> formats)
{
    if (!formats.empty() && formats.size() != block.columns.size())
    {
        throwArrowError(ErrorCode::kBadArguments, kBatchSubject,
                        std::to_string(formats.size()) + " formats were given for " +
                            std::to_string(block.columns.size()) + " columns");
    }
    std::vector<ExportFormat> plan;
    for (size_t i = 0; i < block.columns.size(); ++i)
    {
        const Block::Entry& entry = block.columns[i];
        const std::string subject = describeColumn(i, entry.name);
        if (entry.column.size() != block.rows())
        {
            throwArrowError(ErrorCode::kBadArguments, subject,
                            "it has " + std::to_string(entry.column.size()) +
                                " rows, the block's first column " + std::to_string(block.rows()));
        }
        plan.push_back(
            resolveExportFormat(entry.column.type(), formats.empty() ? "" : formats[i], subject));
        checkExportable(entry.column, plan.back(), subject);
    }
    return plan;
}

/// `field` as exported, its format checked against its type (and its element's, for a list).
ExportedField exportedFieldOf(const ArrowField& field, const std::string& subject)
{
    ExportedField exported{
        field.name, resolveExportFormat(field.type, field.format, subject).format, field.nullable};
    for (const ArrowField& child : field.children)
    {
        exported.children.push_back(exportedFieldOf(child, "the elements of " + subject));
    }
    return exported;
}

void exportStructSchema(std::vector<ExportedField> fields, ArrowSchema* out,
                        const ArrowMetadata& metadata = {})
{
    auto owner = std::make_unique<ExportedStructSchema>(fields.size());
    for (size_t i = 0; i < fields.size(); ++i)
    {
        exportFieldSchema(std::move(fields[i]), &owner->children[i]);
    }
    if (!metadata.empty())
    {
        owner->metadata = encodeArrowMetadata(metadata);
    }
    *out = ArrowSchema{
        .format = kStructFormat,
        .name = "",
        .metadata = metadata.empty() ? nullptr : owner->metadata.data(),
        .flags = 0,
        .n_children = static_cast<int64_t>(owner->children.size()),
        .children = owner->children.pointers(),
        .dictionary = nullptr,
        .release = &releaseOwner<ArrowSchema, ExportedStructSchema>,
        .private_data = nullptr,
    };
    out->private_data = owner.release();
}

/// The struct array of `block`, whose columns' formats `plan` holds.
void exportPlannedArray(Block&& block, const std::vector<ExportFormat>& plan, ArrowArray* out_array)
{
    const size_t rows = block.rows();
    auto owner = std::make_unique<ExportedStruct>(block.columns.size());
    for (size_t i = 0; i < block.columns.size(); ++i)
    {
        exportColumnArray(std::move(block.columns[i].column), plan[i], &owner->children[i]);
    }
    *out_array = ArrowArray{
        .length = static_cast<int64_t>(rows),
        .null_count = 0,
        .offset = 0,
        .n_buffers = kStructBuffers,
        .n_children = static_cast<int64_t>(owner->children.size()),
        .buffers = &owner->validity,
        .children = owner->children.pointers(),
        .dictionary = nullptr,
        .release = &releaseOwner<ArrowArray, ExportedStruct>,
        .private_data = nullptr,
    };
    out_array->private_data = owner.release();
}

}  // namespace

void exportBlockArray(Block&& block, ArrowArray* out_array, std::span<const std::string> formats)
{
    const std::vector<ExportFormat> plan = planBlockExport(block, formats);
    exportPlannedArray(std::move(block), plan, out_array);
}

void exportBlock(Block&& block, ArrowArray* out_array, ArrowSchema* out_schema,
                 std::span<const std::string> formats)
{
    const std::vector<ExportFormat> plan = planBlockExport(block, formats);
    std::vector<ExportedField> fields;
    for (size_t i = 0; i < block.columns.size(); ++i)
    {
        const Block::Entry& entry = block.columns[i];
        fields.push_back(exportedFieldOf(entry.name, entry.column, plan[i].format));
    }
    exportPlannedArray(std::move(block), plan, out_array);
    try
    {
        exportStructSchema(std::move(fields), out_schema);
    }
    catch (...)
    {
        out_array->release(out_array);
        throw;
    }
}

void exportSchema(const std::vector<ArrowField>& fields, ArrowSchema* out,
                  const ArrowMetadata& metadata)
{
    std::vector<ExportedField> exported;
    for (size_t i = 0; i < fields.size(); ++i)
    {
        exported.push_back(exportedFieldOf(fields[i], describeColumn(i, fields[i].name)));
    }
    exportStructSchema(std::move(exported), out, metadata);
}

}  // namespace granary::arrow
