#include "bench/embedding/hits_batches.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "engine/arrow/arrow_export.h"
#include "engine/datagen/hits_generator.h"
#include "engine/datagen/hits_schema.h"

namespace granary::bench
{
namespace
{

/// Any fixed seed: both engines read the same generated table, and runs are repeatable.
constexpr uint64_t kSeed = 1;

const std::array<Field, 5> kBatchFields = {{
    {"RegionID", TypeId::Int32},
    {"UserID", TypeId::Int64},
    {"SearchPhrase", TypeId::String},
    {"AdvEngineID", TypeId::Int16},
    {"ResolutionWidth", TypeId::Int16},
}};
/// Positions of kBatchFields' columns in the generator's blocks.
constexpr std::array<size_t, 5> kBatchHitsColumns = {
    datagen::HitsColumn::RegionID, datagen::HitsColumn::UserID, datagen::HitsColumn::SearchPhrase,
    datagen::HitsColumn::AdvEngineID, datagen::HitsColumn::ResolutionWidth};

const std::array<Field, 3> kContiguousFields = {{
    {"RegionID", TypeId::Int32},
    {"AdvEngineID", TypeId::Int16},
    {"ResolutionWidth", TypeId::Int16},
}};
/// Positions of kContiguousFields' columns in kBatchFields.
constexpr std::array<size_t, 3> kContiguousBatchColumns = {0, 3, 4};

/// The children of a borrowed batch; their release does nothing (the buffers are not theirs).
struct BorrowedChildren
{
    std::vector<ArrowArray> arrays;
    std::vector<ArrowArray*> pointers;
};

void releaseBorrowedChild(ArrowArray* array)
{
    array->release = nullptr;
}

void releaseBorrowedBatch(ArrowArray* array)
{
    delete static_cast<BorrowedChildren*>(array->private_data);
    array->release = nullptr;
}

}  // namespace

std::span<const Field> batchFields()
{
    return kBatchFields;
}

std::span<const Field> contiguousFields()
{
    return kContiguousFields;
}

HitsBatches::HitsBatches(size_t rows) : rows_(rows)
{
    for (const Field& field : kContiguousFields)
    {
        contiguous_.columns.push_back({field.name, Column(field.type)});
    }
    const datagen::HitsGenerator generator(rows, kSeed);
    batches_.reserve(generator.chunkCount());
    // A group's keys are sorted once for all its chunks (generateChunk(k) alone re-sorts them).
    for (size_t group = 0; group < generator.groupCount(); ++group)
    {
        const auto keys = generator.sortGroup(group);
        const size_t first = group * generator.groupChunks();
        const size_t last = std::min(generator.chunkCount(), first + generator.groupChunks());
        for (size_t chunk = first; chunk < last; ++chunk)
        {
            addChunk(generator.generateChunk(chunk, *keys));
        }
    }
}

void HitsBatches::addChunk(Block&& chunk)
{
    Block batch;
    for (size_t column = 0; column < kBatchFields.size(); ++column)
    {
        batch.columns.push_back({kBatchFields[column].name,
                                 std::move(chunk.columns[kBatchHitsColumns[column]].column)});
    }
    for (size_t column = 0; column < kContiguousFields.size(); ++column)
    {
        const Column& source = batch.columns[kContiguousBatchColumns[column]].column;
        contiguous_.columns[column].column.appendRange(source.view(), 0, source.size());
    }
    ArrowArray array{};
    if (batches_.empty())
    {
        arrow::exportBlock(std::move(batch), &array, &schema_);
    }
    else
    {
        arrow::exportBlockArray(std::move(batch), &array);
    }
    batches_.push_back(array);
}

HitsBatches::~HitsBatches()
{
    for (ArrowArray& batch : batches_)
    {
        batch.release(&batch);
    }
    if (schema_.release != nullptr)
    {
        schema_.release(&schema_);
    }
}

ArrowArray borrowBatch(const ArrowArray& batch)
{
    auto children = std::make_unique<BorrowedChildren>();
    for (int64_t child = 0; child < batch.n_children; ++child)
    {
        ArrowArray copy = *batch.children[child];
        copy.release = releaseBorrowedChild;
        copy.private_data = nullptr;
        children->arrays.push_back(copy);
    }
    for (ArrowArray& child : children->arrays)
    {
        children->pointers.push_back(&child);
    }
    ArrowArray borrowed = batch;
    borrowed.children = children->pointers.data();
    borrowed.release = releaseBorrowedBatch;
    borrowed.private_data = children.release();
    return borrowed;
}

}  // namespace granary::bench
