#include "engine/aggregation/key_methods.h"

namespace granary
{

const SerializedKeyMethod::Key* SerializedKeyMethod::Extractor::extract(size_t first_row,
                                                                        size_t count, Key* out)
{
    scratch_.clear();
    ends_.assign(count, 0);
    for (size_t i = 0; i < count; ++i)
    {
        const size_t row = first_row + i;
        for (const ColumnView& column : columns_)
        {
            if (isString(column.type))
            {
                const std::string_view value = column.stringAt(row);
                const uint32_t length = static_cast<uint32_t>(value.size());
                const char* length_bytes = reinterpret_cast<const char*>(&length);
                scratch_.insert(scratch_.end(), length_bytes, length_bytes + sizeof(length));
                scratch_.insert(scratch_.end(), value.begin(), value.end());
            }
            else
            {
                const size_t width = fixedWidth(column.type);
                const char* value = static_cast<const char*>(column.data) + row * width;
                scratch_.insert(scratch_.end(), value, value + width);
            }
        }
        ends_[i] = scratch_.size();
    }
    // Views are made after the buffer stopped growing.
    size_t begin = 0;
    for (size_t i = 0; i < count; ++i)
    {
        out[i] = std::string_view(scratch_.data() + begin, ends_[i] - begin);
        begin = ends_[i];
    }
    return out;
}

namespace
{

/// Copies the Width-byte value at each key's position to `out` and advances the positions.
template <size_t Width>
void takeFixedValues(const char** positions, size_t count, char* out)
{
    for (size_t i = 0; i < count; ++i)
    {
        std::memcpy(out + i * Width, positions[i], Width);
        positions[i] += Width;
    }
}

}  // namespace

void SerializedKeyMethod::appendKeys(const Key* keys, size_t count, std::vector<Column>& columns)
{
    // Where each key's next value starts: the keys are read column by column.
    std::vector<const char*> positions(count);
    for (size_t i = 0; i < count; ++i)
    {
        positions[i] = keys[i].data();
    }
    for (Column& column : columns)
    {
        if (isString(column.type()))
        {
            for (size_t i = 0; i < count; ++i)
            {
                uint32_t length;
                std::memcpy(&length, positions[i], sizeof(length));
                column.appendString(std::string_view(positions[i] + sizeof(length), length));
                positions[i] += sizeof(length) + length;
            }
            continue;
        }
        const size_t first_row = column.size();
        column.resizeFixedUninitialized(first_row + count);
        dispatchFixedType(column.type(),
                          [&]<typename T>(TypeTag<T>)
                          {
                              takeFixedValues<sizeof(T)>(
                                  positions.data(), count,
                                  column.mutableData<char>() + first_row * sizeof(T));
                          });
    }
}

KeyMethodKind chooseKeyMethod(const std::vector<DataType>& key_types)
{
    if (key_types.empty())
    {
        return KeyMethodKind::kNone;
    }
    if (key_types.size() == 1)
    {
        switch (fixedWidth(key_types[0].id))
        {
            case 0:
                return KeyMethodKind::kString;
            case 1:
                return KeyMethodKind::kFixed8;
            case 2:
                return KeyMethodKind::kFixed16;
            case 4:
                return KeyMethodKind::kNumber32;
            case 8:
                return KeyMethodKind::kNumber64;
        }
    }
    size_t total_width = 0;
    for (const DataType& key_type : key_types)
    {
        const TypeId type = key_type.id;
        if (isString(type))
        {
            return KeyMethodKind::kSerialized;
        }
        total_width += fixedWidth(type);
    }
    if (total_width <= 8)
    {
        return KeyMethodKind::kPacked8;
    }
    if (total_width <= 16)
    {
        return KeyMethodKind::kPacked16;
    }
    if (total_width <= 32)
    {
        return KeyMethodKind::kPacked32;
    }
    return KeyMethodKind::kSerialized;
}

std::string_view keyMethodName(KeyMethodKind kind)
{
    switch (kind)
    {
        case KeyMethodKind::kNone:
            return "without_key";
        case KeyMethodKind::kFixed8:
            return "fixed8";
        case KeyMethodKind::kFixed16:
            return "fixed16";
        case KeyMethodKind::kNumber32:
            return "number32";
        case KeyMethodKind::kNumber64:
            return "number64";
        case KeyMethodKind::kPacked8:
            return "packed8";
        case KeyMethodKind::kPacked16:
            return "packed16";
        case KeyMethodKind::kPacked32:
            return "packed32";
        case KeyMethodKind::kString:
            return "string";
        case KeyMethodKind::kSerialized:
            return "serialized";
    }
    return "unknown";
}

}  // namespace granary
