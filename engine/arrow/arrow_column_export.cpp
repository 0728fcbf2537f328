#include "engine/arrow/arrow_column_export.h"

#include <array>
#include <limits>
#include <memory>

#include "engine/arrow/arrow_bits.h"
#include "engine/arrow/arrow_error.h"
#include "engine/arrow/arrow_export_owner.h"
#include "engine/arrow/arrow_format.h"

namespace granary::arrow
{

namespace
{

constexpr size_t kMaxBuffers = 3;  ///< Validity, offsets and chars of a string array.
constexpr int64_t kFixedWidthBuffers = 2;
constexpr int64_t kStringBuffers = 3;
constexpr int64_t kListBuffers = 2;  ///< Validity and offsets; the elements are the child.
constexpr uint64_t kMaxUtf8Bytes = std::numeric_limits<int32_t>::max();

/// What an exported child array owns.
struct ExportedColumn
{
    explicit ExportedColumn(Column column_in)
        : column(std::move(column_in)), elements(column.type() == TypeId::Array ? 1 : 0)
    {
    }

    Column column;
    Column converted;  ///< The values in the Arrow type's layout, where it is not the column's.
    std::array<const void*, kMaxBuffers> buffers{};
    /// A list's elements: an array of their own, releasable apart from this one.
    ExportedChildren<ArrowArray> elements;
};
/// What an exported field schema owns.
struct ExportedSchema
{
    explicit ExportedSchema(ExportedField field_in)
        : field(std::move(field_in)), children(field.children.size())
    {
    }

    ExportedField field;
    ExportedChildren<ArrowSchema> children;
};

/// Consumers may not expect null value buffers even when empty: an empty vector's data() is.
const void* nonNull(const void* buffer)
{
    static constexpr uint64_t kEmptyBuffer = 0;
    return buffer != nullptr ? buffer : &kEmptyBuffer;
}

template <typename From, typename To>
Column widen(const ColumnView& view, TypeId wide_type)
{
    Column wide(wide_type);
    wide.resizeFixedUninitialized(view.rows);
    To* values = wide.mutableData<To>();
    for (size_t row = 0; row < view.rows; ++row)
    {
        values[row] = static_cast<To>(view.valueAt<From>(row));
    }
    return wide;
}

Column packBits(const ColumnView& view)
{
    Column bits(TypeId::UInt8);
    bits.resizeFixed(bitmapBytes(view.rows));
    uint8_t* bitmap = bits.mutableData<uint8_t>();
    for (size_t row = 0; row < view.rows; ++row)
    {
        if (view.valueAt<uint8_t>(row) != 0)
        {
            setBit(bitmap, row);
        }
    }
    return bits;
}

Column narrowOffsets(const ColumnView& view)
{
    Column offsets(TypeId::Int32);
    offsets.resizeFixedUninitialized(view.rows + 1);
    int32_t* narrow = offsets.mutableData<int32_t>();
    for (size_t row = 0; row <= view.rows; ++row)
    {
        narrow[row] = static_cast<int32_t>(view.offsets[row]);
    }
    return offsets;
}

/// Points owner.buffers[1...] at the values in the Arrow layout; returns n_buffers.
int64_t setValueBuffers(ExportedColumn& owner, ExportConversion conversion)
{
    const ColumnView view = owner.column.view();
    switch (conversion)
    {
        case ExportConversion::kNone:
            break;
        case ExportConversion::kWidenDate:
            owner.converted = widen<uint16_t, int32_t>(view, TypeId::Int32);
            break;
        case ExportConversion::kWidenDateTime:
            owner.converted = widen<uint32_t, int64_t>(view, TypeId::Int64);
            break;
        case ExportConversion::kPackBits:
            owner.converted = packBits(view);
            break;
        case ExportConversion::kNarrowOffsets:
            owner.converted = narrowOffsets(view);
            break;
    }
    const bool converted = conversion != ExportConversion::kNone;
    if (isNested(view.type))
    {
        owner.buffers[1] = view.offsets;
        return kListBuffers;
    }
    if (isString(view.type))
    {
        owner.buffers[1] = converted ? owner.converted.view().data : view.offsets;
        owner.buffers[2] = nonNull(view.chars);
        return kStringBuffers;
    }
    owner.buffers[1] = nonNull(converted ? owner.converted.view().data : view.data);
    return kFixedWidthBuffers;
}

}  // namespace

void checkExportable(const Column& column, const ExportFormat& format, std::string_view subject)
{
    if (format.conversion != ExportConversion::kNarrowOffsets)
    {
        return;
    }
    const ColumnView view = column.view();
    if (view.offsets[view.rows] > kMaxUtf8Bytes)
    {
        throwArrowError(ErrorCode::kTooLargeSize, subject,
                        "its " + std::to_string(view.offsets[view.rows]) +
                            " bytes of strings exceed utf8's limit of 2^31 - 1; export it as "
                            "large_utf8 'U'");
    }
}

void exportColumnArray(Column&& column, const ExportFormat& format, ArrowArray* out)
{
    auto owner = std::make_unique<ExportedColumn>(std::move(column));
    const size_t rows = owner->column.size();
    const size_t null_count =
        owner->column.hasNulls() ? countClearBits(owner->column.validity(), rows) : 0;
    owner->buffers[0] = null_count > 0 ? owner->column.validity() : nullptr;
    const int64_t n_buffers = setValueBuffers(*owner, format.conversion);
    if (owner->column.type() == TypeId::Array)
    {
        // The offsets stay with this array's column; the elements move to the child's.
        Column elements = std::move(owner->column.child(0));
        const ExportFormat element_format =
            resolveExportFormat(elements.type(), "", "the elements of a list");
        exportColumnArray(std::move(elements), element_format, &owner->elements[0]);
    }
    const size_t children = owner->elements.size();
    *out = ArrowArray{
        .length = static_cast<int64_t>(rows),
        .null_count = static_cast<int64_t>(null_count),
        .offset = 0,
        .n_buffers = n_buffers,
        .n_children = static_cast<int64_t>(children),
        .buffers = owner->buffers.data(),
        .children = children > 0 ? owner->elements.pointers() : nullptr,
        .dictionary = nullptr,
        .release = &releaseOwner<ArrowArray, ExportedColumn>,
        .private_data = nullptr,
    };
    out->private_data = owner.release();
}

ExportedField exportedFieldOf(std::string name, const Column& column, std::string format)
{
    ExportedField field{std::move(name), std::move(format), column.hasNulls()};
    if (column.type() == TypeId::Array)
    {
        const Column& elements = column.child(0);
        field.children.push_back(exportedFieldOf(kListElementName, elements,
                                                 std::string(defaultArrowFormat(elements.type()))));
    }
    return field;
}

void exportFieldSchema(ExportedField field, ArrowSchema* out)
{
    auto owner = std::make_unique<ExportedSchema>(std::move(field));
    for (size_t i = 0; i < owner->field.children.size(); ++i)
    {
        exportFieldSchema(std::move(owner->field.children[i]), &owner->children[i]);
    }
    const ExportedField& exported = owner->field;
    *out = ArrowSchema{
        .format = exported.format.c_str(),
        .name = exported.name.c_str(),
        .metadata = nullptr,
        .flags = exported.nullable ? ARROW_FLAG_NULLABLE : 0,
        .n_children = static_cast<int64_t>(owner->children.size()),
        .children = owner->children.size() > 0 ? owner->children.pointers() : nullptr,
        .dictionary = nullptr,
        .release = &releaseOwner<ArrowSchema, ExportedSchema>,
        .private_data = nullptr,
    };
    out->private_data = owner.release();
}

}  // namespace granary::arrow
