#include "engine/aggregation/key_methods.h"

namespace granary
{

size_t SerializedKeyMethod::Extractor::sizeKeys(size_t first_row, size_t count)
{
    size_t fixed_bytes = 0;
    for (const ColumnView& column : columns_)
    {
        fixed_bytes += isString(column.type) ? 0 : fixedWidth(column.type);
    }
    ends_.assign(count, fixed_bytes);
    for (size_t c = 0; c < columns_.size(); ++c)
    {
        const ColumnView& column = columns_[c];
        if (isString(column.type))
        {
            const size_t prefix = lengthPrefixBytes(c, columns_.size());
            const uint64_t* offsets = column.offsets + first_row;
            for (size_t i = 0; i < count; ++i)
            {
                ends_[i] += prefix + (offsets[i + 1] - offsets[i]);
            }
        }
    }
    positions_.resize(count);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i)
    {
        positions_[i] = total;
        total += ends_[i];
        ends_[i] = total;
    }
    return total;
}

const SerializedKeyMethod::Key* SerializedKeyMethod::Extractor::extract(size_t first_row,
                                                                        size_t count, Key* out)
{
    // Each key's length first, so that the buffer is sized once and then filled column by
    // column in typed loops, not value by value through a type switch.
    const size_t total = sizeKeys(first_row, count);
    scratch_.resize(total);
    char* bytes = scratch_.data();
    for (size_t c = 0; c < columns_.size(); ++c)
    {
        const ColumnView& column = columns_[c];
        if (isString(column.type))
        {
            const bool prefixed = lengthPrefixBytes(c, columns_.size()) > 0;
            for (size_t i = 0; i < count; ++i)
            {
                const std::string_view value = column.stringAt(first_row + i);
                if (prefixed)
                {
                    const uint32_t length = static_cast<uint32_t>(value.size());
                    std::memcpy(bytes + positions_[i], &length, sizeof(length));
                    positions_[i] += sizeof(length);
                }
                // An empty string's data may be null, which memcpy must not be given.
                if (!value.empty())
                {
                    std::memcpy(bytes + positions_[i], value.data(), value.size());
                }
                positions_[i] += value.size();
            }
            continue;
        }
        const size_t width = fixedWidth(column.type);
        const char* values = static_cast<const char*>(column.data) + first_row * width;
        dispatchWidth(width,
                      [&]<size_t W>(std::integral_constant<size_t, W>)
                      {
                          for (size_t i = 0; i < count; ++i)
                          {
                              std::memcpy(bytes + positions_[i], values + i * W, W);
                              positions_[i] += W;
                          }
                      });
    }
    size_t begin = 0;
    for (size_t i = 0; i < count; ++i)
    {
        out[i] = std::string_view(bytes + begin, ends_[i] - begin);
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
    for (size_t c = 0; c < columns.size(); ++c)
    {
        Column& column = columns[c];
        if (isString(column.type()))
        {
            const bool prefixed = lengthPrefixBytes(c, columns.size()) > 0;
            for (size_t i = 0; i < count; ++i)
            {
                // The last string is the rest of the key.
                size_t length = size_t(keys[i].data() + keys[i].size() - positions[i]);
                if (prefixed)
                {
                    uint32_t stored;
                    std::memcpy(&stored, positions[i], sizeof(stored));
                    positions[i] += sizeof(stored);
                    length = stored;
                }
                column.appendString(std::string_view(positions[i], length));
                positions[i] += length;
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
