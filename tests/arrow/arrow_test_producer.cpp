#include "tests/arrow/arrow_test_producer.h"

#include <algorithm>
#include <cstring>

namespace granary::arrow::testing
{

namespace
{

/// Every buffer holds at least this many bytes a row (plus kSpareBytes), whatever its type.
constexpr size_t kRoomPerRow = 8;
constexpr size_t kSpareBytes = 64;
/// Values of the rows an offset skips.
constexpr int kPaddingValue = 77;
constexpr std::string_view kPaddingString = "padding";
constexpr int64_t kFixedWidthBuffers = 2;
constexpr int64_t kStringBuffers = 3;
constexpr int64_t kStructBuffers = 1;
/// Entries of every buffers array: a few more than any layout has, null, so that a test may
/// raise n_buffers without the consumer reading past the array.
constexpr size_t kBufferSlots = 4;

std::vector<std::byte> roomyBuffer(size_t bytes, size_t capacity)
{
    return std::vector<std::byte>(std::max(bytes, kRoomPerRow * (capacity + 1)) + kSpareBytes);
}

void setBit(std::vector<std::byte>& bitmap, size_t bit)
{
    bitmap[bit / 8] |= static_cast<std::byte>(1u << (bit % 8));
}

template <typename Node>
void releaseIfLive(Node& node)
{
    if (node.release != nullptr)
    {
        node.release(&node);
    }
}

/// The release callback of a TestArray's array or a TestSchema's schema (`Owner::*kNode`):
/// releases the children and the dictionary, counts, and marks the node released.
template <typename Owner, typename Node, Node Owner::*kNode>
void releaseTestNode(Node* node)
{
    auto* owner = static_cast<Owner*>(node->private_data);
    for (const auto& child : owner->children)
    {
        releaseIfLive((*child).*kNode);
    }
    if (owner->dictionary != nullptr)
    {
        releaseIfLive((*owner->dictionary).*kNode);
    }
    ++owner->releases;
    node->release = nullptr;
}

/// Points the struct node (`Owner::*kNode`) of `owner` at its children.
template <typename Owner, typename Node, Node Owner::*kNode>
void linkChildren(Owner& owner)
{
    for (const auto& child : owner.children)
    {
        owner.child_pointers.push_back(&((*child).*kNode));
    }
    (owner.*kNode).n_children = static_cast<int64_t>(owner.children.size());
    (owner.*kNode).children = owner.child_pointers.data();
}

/// An array of `length` rows after `offset` skipped ones, whose validity bitmap has `valid`'s
/// flags from element `offset` (the skipped rows NULL); the value buffers are the caller's.
std::unique_ptr<TestArray> newArray(size_t length, size_t offset, const std::vector<bool>& valid,
                                    int64_t n_buffers)
{
    auto owner = std::make_unique<TestArray>();
    owner->capacity = offset + length;
    owner->storage.push_back(roomyBuffer((owner->capacity + 7) / 8, owner->capacity));
    int64_t null_count = 0;
    for (size_t row = 0; row < length; ++row)
    {
        if (valid[row])
        {
            setBit(owner->storage[0], offset + row);
        }
        else
        {
            ++null_count;
        }
    }
    owner->buffers.assign(kBufferSlots, nullptr);
    owner->buffers[0] = owner->storage[0].data();
    owner->array = ArrowArray{
        .length = static_cast<int64_t>(length),
        .null_count = null_count,
        .offset = static_cast<int64_t>(offset),
        .n_buffers = n_buffers,
        .n_children = 0,
        .buffers = owner->buffers.data(),
        .children = nullptr,
        .dictionary = nullptr,
        .release = &releaseTestNode<TestArray, ArrowArray, &TestArray::array>,
        .private_data = owner.get(),
    };
    return owner;
}

template <typename T>
std::vector<bool> validFlags(const Rows<T>& rows)
{
    std::vector<bool> valid;
    for (const auto& row : rows)
    {
        valid.push_back(row.has_value());
    }
    return valid;
}

/// Adds a buffer of `bytes` (and room to spare) as buffers[index].
std::byte* addBuffer(TestArray& owner, size_t index, size_t bytes)
{
    owner.storage.push_back(roomyBuffer(bytes, owner.capacity));
    owner.buffers[index] = owner.storage.back().data();
    return owner.storage.back().data();
}

template <typename Offset>
std::unique_ptr<TestArray> stringArray(const Rows<std::string>& rows, size_t padding)
{
    auto owner = newArray(rows.size(), padding, validFlags(rows), kStringBuffers);
    std::string chars;
    std::vector<Offset> offsets{0};
    for (size_t element = 0; element < owner->capacity; ++element)
    {
        const bool is_row = element >= padding;
        chars += is_row ? rows[element - padding].value_or("") : std::string(kPaddingString);
        offsets.push_back(static_cast<Offset>(chars.size()));
    }
    std::memcpy(addBuffer(*owner, 1, offsets.size() * sizeof(Offset)), offsets.data(),
                offsets.size() * sizeof(Offset));
    std::memcpy(addBuffer(*owner, 2, chars.size()), chars.data(), chars.size());
    return owner;
}

std::unique_ptr<TestSchema> newSchema(const std::string& format, const std::string& name,
                                      int64_t flags)
{
    auto owner = std::make_unique<TestSchema>();
    owner->format = format;
    owner->name = name;
    owner->schema = ArrowSchema{
        .format = owner->format.c_str(),
        .name = owner->name.c_str(),
        .metadata = nullptr,
        .flags = flags,
        .n_children = 0,
        .children = nullptr,
        .dictionary = nullptr,
        .release = &releaseTestNode<TestSchema, ArrowSchema, &TestSchema::schema>,
        .private_data = owner.get(),
    };
    return owner;
}

}  // namespace

template <typename T>
std::unique_ptr<TestArray> fixedArray(const Rows<T>& rows, size_t padding)
{
    auto owner = newArray(rows.size(), padding, validFlags(rows), kFixedWidthBuffers);
    auto* values = reinterpret_cast<T*>(addBuffer(*owner, 1, owner->capacity * sizeof(T)));
    for (size_t element = 0; element < owner->capacity; ++element)
    {
        values[element] = element < padding ? static_cast<T>(kPaddingValue)
                                            : rows[element - padding].value_or(T{});
    }
    return owner;
}

template std::unique_ptr<TestArray> fixedArray(const Rows<int8_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<uint8_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<int16_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<uint16_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<int32_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<uint32_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<int64_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<uint64_t>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<float>&, size_t);
template std::unique_ptr<TestArray> fixedArray(const Rows<double>&, size_t);

std::unique_ptr<TestArray> booleanArray(const Rows<bool>& rows, size_t padding)
{
    auto owner = newArray(rows.size(), padding, validFlags(rows), kFixedWidthBuffers);
    addBuffer(*owner, 1, (owner->capacity + 7) / 8);
    for (size_t element = 0; element < owner->capacity; ++element)
    {
        if (element < padding || rows[element - padding].value_or(false))
        {
            setBit(owner->storage[1], element);
        }
    }
    return owner;
}

std::unique_ptr<TestArray> utf8Array(const Rows<std::string>& rows, size_t padding)
{
    return stringArray<int32_t>(rows, padding);
}

std::unique_ptr<TestArray> largeUtf8Array(const Rows<std::string>& rows, size_t padding)
{
    return stringArray<int64_t>(rows, padding);
}

std::unique_ptr<TestArray> withDictionary(std::unique_ptr<TestArray> indices,
                                          std::unique_ptr<TestArray> dictionary)
{
    indices->array.dictionary = &dictionary->array;
    indices->dictionary = std::move(dictionary);
    return indices;
}

std::unique_ptr<TestArray> structArray(std::vector<std::unique_ptr<TestArray>> children,
                                       size_t length, size_t offset,
                                       const std::optional<std::vector<bool>>& valid)
{
    const std::vector<bool> all_valid(length, true);
    std::vector<bool> row_flags(length);
    for (size_t row = 0; row < length; ++row)
    {
        row_flags[row] = valid ? (*valid)[offset + row] : true;
    }
    auto owner = newArray(length, offset, valid ? row_flags : all_valid, kStructBuffers);
    if (!valid)
    {
        owner->buffers[0] = nullptr;
    }
    owner->children = std::move(children);
    linkChildren<TestArray, ArrowArray, &TestArray::array>(*owner);
    return owner;
}

std::unique_ptr<TestSchema> fieldSchema(const std::string& format, const std::string& name,
                                        bool nullable)
{
    return newSchema(format, name, nullable ? ARROW_FLAG_NULLABLE : 0);
}

std::unique_ptr<TestSchema> dictionarySchema(const std::string& index_format,
                                             const std::string& value_format,
                                             const std::string& name)
{
    auto owner = fieldSchema(index_format, name);
    owner->dictionary = fieldSchema(value_format, "");
    owner->schema.dictionary = &owner->dictionary->schema;
    return owner;
}

std::unique_ptr<TestSchema> structSchema(std::vector<std::unique_ptr<TestSchema>> children)
{
    auto owner = newSchema("+s", "", 0);
    owner->children = std::move(children);
    linkChildren<TestSchema, ArrowSchema, &TestSchema::schema>(*owner);
    return owner;
}

TestBatch batchOf(std::vector<TestColumn> columns, size_t length, size_t offset,
                  const std::optional<std::vector<bool>>& valid)
{
    std::vector<std::unique_ptr<TestSchema>> schemas;
    std::vector<std::unique_ptr<TestArray>> arrays;
    for (TestColumn& column : columns)
    {
        schemas.push_back(std::move(column.schema));
        arrays.push_back(std::move(column.array));
    }
    return {structSchema(std::move(schemas)),
            structArray(std::move(arrays), length, offset, valid)};
}

}  // namespace granary::arrow::testing
