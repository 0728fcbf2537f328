#pragma once

// Key-value metadata of Arrow schemas, in the C Data Interface's encoding: an int32 count of
// pairs, then per pair an int32 length and the key's bytes, an int32 length and the value's.

#include <string>
#include <utility>
#include <vector>

namespace granary::arrow
{

using ArrowMetadata = std::vector<std::pair<std::string, std::string>>;

std::string encodeArrowMetadata(const ArrowMetadata& metadata);
/// The pairs of `encoded` (null: none). Throws Exception(kIncorrectData) for negative counts or
/// lengths; Arrow gives no size for the buffer, so lengths are trusted beyond that.
ArrowMetadata decodeArrowMetadata(const char* encoded);

}  // namespace granary::arrow
