#include <algorithm>

#include "engine/arrow/arrow_export.h"
#include "engine/embedding/result_stream_impl.h"

namespace granary
{

ResultShape::ResultShape(std::vector<arrow::ArrowField> fields_in, arrow::ArrowMetadata metadata_in)
    : fields(std::move(fields_in)), metadata(std::move(metadata_in))
{
    for (const arrow::ArrowField& field : fields)
    {
        schema.push_back({field.name, field.type, field.nullable,
                          field.children.empty() ? TypeId::UInt8 : field.children[0].type});
        formats.push_back(field.format);
    }
}

ResultStream::Impl::Impl(std::vector<Block> fragments_in,
                         std::shared_ptr<const ResultShape> shape_in, size_t batch_rows)
    : fragments(std::move(fragments_in)), shape(std::move(shape_in))
{
    batch_rows = std::max<size_t>(batch_rows, 1);
    for (size_t f = 0; f < fragments.size(); ++f)
    {
        const size_t fragment_rows = fragments[f].rows();
        for (size_t begin = 0; begin < fragment_rows; begin += batch_rows)
        {
            slices.push_back({f, begin, std::min(batch_rows, fragment_rows - begin)});
        }
        rows += fragment_rows;
    }
}

bool ResultStream::Impl::claim(Block& out)
{
    const size_t index = next_slice.fetch_add(1, std::memory_order_relaxed);
    if (index >= slices.size())
    {
        return false;
    }
    const Slice& slice = slices[index];
    Block& fragment = fragments[slice.fragment];
    if (slice.rows == fragment.rows())
    {
        // The whole fragment is this slice's alone: no other claim reads it.
        out = std::move(fragment);
        return true;
    }
    out = Block{};
    for (const Block::Entry& entry : fragment.columns)
    {
        Column column = entry.column.emptyLike();
        column.appendRange(entry.column.view(), slice.begin, slice.rows);
        out.columns.push_back({entry.name, std::move(column)});
    }
    return true;
}

ResultBatch::ResultBatch() : impl_(std::make_unique<Impl>()) {}
ResultBatch::~ResultBatch() = default;
ResultBatch::ResultBatch(ResultBatch&&) noexcept = default;
ResultBatch& ResultBatch::operator=(ResultBatch&&) noexcept = default;

size_t ResultBatch::rows() const
{
    return impl_->block.rows();
}

size_t ResultBatch::columnCount() const
{
    return impl_->block.columns.size();
}

namespace
{

const Block::Entry& entryAt(const Block& block, size_t column)
{
    if (column >= block.columns.size())
    {
        throw Exception(ErrorCode::kBadArguments,
                        "column " + std::to_string(column) + " of a result batch of " +
                            std::to_string(block.columns.size()) + " columns");
    }
    return block.columns[column];
}

}  // namespace

const std::string& ResultBatch::name(size_t column) const
{
    return entryAt(impl_->block, column).name;
}

ColumnView ResultBatch::column(size_t column) const
{
    return entryAt(impl_->block, column).column.view();
}

void ResultBatch::exportTo(ArrowArray* array, ArrowSchema* schema)
{
    // The schema says what the result may hold, the same for every batch.
    arrow::exportBlockArray(std::move(impl_->block), array, impl_->shape->formats);
    impl_->block = Block{};
    try
    {
        arrow::exportSchema(impl_->shape->fields, schema, impl_->shape->metadata);
    }
    catch (...)
    {
        array->release(array);
        throw;
    }
}

ResultStream::ResultStream()
    : impl_(std::make_shared<Impl>(std::vector<Block>{},
                                   std::make_shared<const ResultShape>(
                                       std::vector<arrow::ArrowField>{}, arrow::ArrowMetadata{}),
                                   1))
{
}
ResultStream::~ResultStream() = default;
ResultStream::ResultStream(ResultStream&&) noexcept = default;
ResultStream& ResultStream::operator=(ResultStream&&) noexcept = default;

const std::vector<Field>& ResultStream::schema() const
{
    return impl_->shape->schema;
}

size_t ResultStream::rows() const
{
    return impl_->rows;
}

bool ResultStream::next(ResultBatch& batch)
{
    if (!impl_->claim(batch.impl_->block))
    {
        return false;
    }
    batch.impl_->shape = impl_->shape;
    return true;
}

void ResultStream::exportTo(ArrowArrayStream* stream)
{
    std::shared_ptr<Impl> impl = std::move(impl_);
    impl_ = std::make_shared<Impl>(std::vector<Block>{}, impl->shape, 1);
    arrow::exportStream(
        impl->shape->fields,
        [impl]() -> std::optional<Block>
        {
            Block block;
            if (!impl->claim(block))
            {
                return std::nullopt;
            }
            return block;
        },
        stream, impl->shape->metadata);
}

}  // namespace granary
