#include "engine/aggregation/key_numbering.h"

#include "hashtables/batch.h"

namespace granary
{

KeyNumbering::KeyNumbering()
{
    keys_.fill(Column(TypeId::String));
}

void KeyNumbering::number(const ColumnView& strings, size_t count, uint64_t* out)
{
    batch_.resize(count);
    for (size_t row = 0; row < count; ++row)
    {
        batch_[row] = strings.stringAt(row);
    }
    emplaceBatch(numbers_, batch_.data(), count,
                 [&](uint64_t* number, bool inserted, size_t row)
                 {
                     if (inserted)
                     {
                         // A new string only: its bucket is its hash's, hashed again here.
                         *number =
                             addString(Table::bucketOf(Table::hash(batch_[row])), batch_[row]);
                     }
                     out[row] = *number;
                 });
}

uint64_t KeyNumbering::addString(size_t bucket, std::string_view key)
{
    Column& keys = keys_[bucket];
    const uint64_t number = (uint64_t{bucket} << kIndexBits) | keys.size();
    keys.appendString(key);
    return number;
}

std::vector<uint64_t> KeyNumbering::absorbBucket(const KeyNumbering& other, size_t bucket)
{
    const Column& strings = other.keys_[bucket];
    std::vector<uint64_t> indexes(strings.size());
    auto& table = numbers_.bucket(bucket);
    for (size_t i = 0; i < strings.size(); ++i)
    {
        const std::string_view key = strings.stringAt(i);
        bool inserted;
        // Referencing, not copying: the arena is shared by the buckets, which tasks fill at once.
        uint64_t* number = table.emplaceReferencing(key, Table::hash(key), inserted);
        if (inserted)
        {
            *number = addString(bucket, key);
        }
        indexes[i] = indexOf(*number);
    }
    return indexes;
}

}  // namespace granary
