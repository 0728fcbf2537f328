#pragma once

// Handing Granary blocks to Arrow consumers through the C Data and C Stream interfaces, without
// copying the columns wherever Arrow's layout is Granary's.

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/arrow/arrow_import.h"
#include "engine/arrow/arrow_metadata.h"
#include "engine/columns/block.h"
#include "granary/arrow_c_data.h"

namespace granary::arrow
{

/// Exports `block` as a struct array ("+s", no NULL rows of its own) with one child per column,
/// and its schema. The columns' buffers move into the exported arrays (no copy) except where the
/// Arrow type needs another layout: Date becomes date32 ("tdD") and DateTime timestamp[s]
/// ("tss:") by widening, "u" narrows a String's offsets, "b" packs UInt8 into bits. `formats`,
/// empty or one per column (an empty string meaning the default), picks the Arrow type of each
/// column among those of its layout: "tdD" for Int32, "tsu:UTC" for Int64, "u" or "U" (the
/// default) for String. Every child array and schema can be released on its own, before or after
/// its parent (a consumer may move children out). Throws Exception(kTypeMismatch) for a format
/// that does not fit its column, Exception(kTooLargeSize) for "u" over more than 2^31 - 1 bytes,
/// Exception(kBadArguments) for columns of different lengths; nothing is exported then.
void exportBlock(Block&& block, ArrowArray* out_array, ArrowSchema* out_schema,
                 std::span<const std::string> formats = {});

/// The array part of exportBlock, for batches of a stream whose schema is exported once.
void exportBlockArray(Block&& block, ArrowArray* out_array,
                      std::span<const std::string> formats = {});

/// A struct schema with one child per field: the field's format (its type's default when
/// empty), ARROW_FLAG_NULLABLE where the field is nullable; `metadata` on the struct.
void exportSchema(const std::vector<ArrowField>& fields, ArrowSchema* out,
                  const ArrowMetadata& metadata = {});

/// A stream whose schema is `fields` and whose batches are next_batch()'s blocks (columns in
/// field order, of the fields' types), exported with the fields' formats; nullopt ends the
/// stream. An exception inside a callback becomes an errno-style result (EINVAL for invalid
/// data, ENOMEM, else EIO) with get_last_error() giving its message. Single-threaded, as the
/// C Stream interface is.
void exportStream(std::vector<ArrowField> fields, std::function<std::optional<Block>()> next_batch,
                  ArrowArrayStream* out, ArrowMetadata metadata = {});

}  // namespace granary::arrow
