#pragma once

// Arrow arrays and schemas built by hand for tests, laid out the way a producer would.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "granary/arrow_c_data.h"

namespace granary::arrow::testing
{

/// A column's rows: a value, or NULL.
template <typename T>
using Rows = std::vector<std::optional<T>>;

/// An ArrowArray and everything it points to. Buffers are zero-filled and have room to spare
/// (8 bytes a row and more), and the buffers array has null entries past n_buffers, so that a
/// test may read them as a wider type or raise n_buffers without reading past an allocation. The
/// release callback releases the children and the dictionary, marks the array released and counts;
/// the memory stays the test's.
struct TestArray
{
    ArrowArray array{};
    size_t capacity = 0;  ///< Rows the buffers hold, from element 0.
    std::vector<std::vector<std::byte>> storage;
    std::vector<const void*> buffers;
    std::vector<std::unique_ptr<TestArray>> children;
    std::vector<ArrowArray*> child_pointers;
    std::unique_ptr<TestArray> dictionary;
    int releases = 0;

    template <typename T>
    T* bufferAs(size_t index)
    {
        return reinterpret_cast<T*>(storage[index].data());
    }
};

/// A column of fixed-width values after `padding` rows that the array's offset skips (NULL,
/// with other values, so that a misapplied offset shows).
template <typename T>
std::unique_ptr<TestArray> fixedArray(const Rows<T>& rows, size_t padding = 0);
std::unique_ptr<TestArray> booleanArray(const Rows<bool>& rows, size_t padding = 0);
/// utf8 ("u", int32 offsets) and large_utf8 ("U", int64 offsets).
std::unique_ptr<TestArray> utf8Array(const Rows<std::string>& rows, size_t padding = 0);
std::unique_ptr<TestArray> largeUtf8Array(const Rows<std::string>& rows, size_t padding = 0);
/// `indices` with `dictionary` attached.
std::unique_ptr<TestArray> withDictionary(std::unique_ptr<TestArray> indices,
                                          std::unique_ptr<TestArray> dictionary);
/// A struct of `children` with rows [offset, offset + length); `valid`, when given, holds a flag
/// for each of the offset + length rows.
std::unique_ptr<TestArray> structArray(std::vector<std::unique_ptr<TestArray>> children,
                                       size_t length, size_t offset = 0,
                                       const std::optional<std::vector<bool>>& valid = {});

/// An ArrowSchema and the strings and children it points to; release counts like TestArray's.
struct TestSchema
{
    ArrowSchema schema{};
    std::string format;
    std::string name;
    std::vector<std::unique_ptr<TestSchema>> children;
    std::vector<ArrowSchema*> child_pointers;
    std::unique_ptr<TestSchema> dictionary;
    int releases = 0;

    void setFormat(std::string new_format)
    {
        format = std::move(new_format);
        schema.format = format.c_str();
    }
};

std::unique_ptr<TestSchema> fieldSchema(const std::string& format, const std::string& name,
                                        bool nullable = true);
std::unique_ptr<TestSchema> dictionarySchema(const std::string& index_format,
                                             const std::string& value_format,
                                             const std::string& name);
std::unique_ptr<TestSchema> structSchema(std::vector<std::unique_ptr<TestSchema>> children);

/// One column of a test batch: its schema and its array.
struct TestColumn
{
    std::unique_ptr<TestSchema> schema;
    std::unique_ptr<TestArray> array;
};

/// A struct batch of `columns` and its schema.
struct TestBatch
{
    std::unique_ptr<TestSchema> schema;
    std::unique_ptr<TestArray> array;
};
TestBatch batchOf(std::vector<TestColumn> columns, size_t length, size_t offset = 0,
                  const std::optional<std::vector<bool>>& valid = {});

}  // namespace granary::arrow::testing
