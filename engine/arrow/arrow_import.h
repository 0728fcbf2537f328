#pragma once

// Reading Arrow C Data Interface batches as Granary column views: zero-copy wherever Arrow's
// layout is Granary's, a conversion into buffers the batch owns where it is not.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "granary/arrow_c_data.h"
#include "granary/column_view.h"
#include "granary/types.h"

namespace granary::arrow
{

/// One column of an Arrow schema as Granary reads it.
struct ArrowField
{
    std::string name;
    TypeId type = TypeId::UInt8;
    bool nullable = false;
    /// The Arrow format of the values as given ("tsu:UTC", "u"), kept so that results can be
    /// exported with the same Arrow type. For a dictionary-encoded field it is the dictionary's
    /// value format: the imported column holds the decoded values.
    std::string format;
    bool dictionary = false;
    /// The format of a dictionary-encoded field's indices ("C", "i"...); empty otherwise.
    std::string index_format;
    /// A list's element field (results only: the importer reads no lists).
    std::vector<ArrowField> children = {};
};

/// The columns of a schema: a struct ("+s") with one child per column, or a single non-struct
/// field (one column). Throws Exception(kUnknownType) naming a field whose format Granary does
/// not read, and Exception(kBadArguments) for a released schema.
std::vector<ArrowField> importSchema(const ArrowSchema& schema);

/// One Arrow batch as column views (in field order), plus the buffers that conversions made.
/// Views point into the ArrowArray's buffers: the array must stay unreleased while they are
/// read.
class ImportedBatch
{
public:
    size_t rows = 0;
    std::vector<ColumnView> columns;

    /// Room for `count` values of T that lives as long as the batch: the target of a conversion
    /// (widened offsets, unpacked booleans, decoded dictionaries, combined bitmaps).
    template <typename T>
    T* allocate(size_t count)
    {
        owned_.push_back(std::make_unique_for_overwrite<std::byte[]>(count * sizeof(T)));
        return reinterpret_cast<T*>(owned_.back().get());
    }

private:
    std::vector<std::unique_ptr<std::byte[]>> owned_;
};

/// Which of a schema's columns a consumer reads, by position; empty: every column. A column
/// not read is imported as a view without buffers, and its array is neither read nor checked
/// (a projection, as a scan pushes one down).
using ColumnSelection = std::vector<bool>;

/// Views of `array`'s columns, whose schema importSchema turned into `fields`. The array is a
/// struct with one child per field, or, for a single field, either that struct or the column
/// itself (an array without children). Validates what Arrow lets a consumer check and throws
/// Exception(kIncorrectData) naming the column and the problem (kBadArguments for a released
/// array). Arrow does not carry buffer sizes, so a buffer shorter than its array's offset and
/// length say cannot be detected: the producer is trusted on those.
ImportedBatch importBatch(const ArrowArray& array, const std::vector<ArrowField>& fields,
                          const ColumnSelection& read = {});

/// Reads every batch of `stream`: its schema (shown to on_schema, when given, before any batch
/// is read: a caller may check its metadata), then get_next until the end of the stream, calling
/// on_batch with each batch and releasing the batch after on_batch returns or throws. Releases
/// the schema; the stream itself stays the caller's. A producer's error becomes
/// Exception(kIncorrectData) with its get_last_error() text. Batches import the `read` columns.
void readArrowStream(
    ArrowArrayStream& stream,
    const std::function<void(const std::vector<ArrowField>&, const ImportedBatch&)>& on_batch,
    const std::function<void(const ArrowSchema&)>& on_schema = {},
    const ColumnSelection& read = {});

}  // namespace granary::arrow
