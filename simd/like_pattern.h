#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "simd/column_search.h"
#include "simd/search_options.h"
#include "simd/string_column_view.h"
#include "simd/substring_searcher.h"

namespace granary::simd
{

/// The shapes of LIKE pattern with a dedicated check.
enum class LikePatternKind : uint8_t
{
    /// 'abc': the whole value.
    Exact,
    /// 'abc%'.
    Prefix,
    /// '%abc'.
    Suffix,
    /// '%abc%', and '%' itself (every value); searched with SubstringSearcher.
    Contains,
    /// Anything else: '_' anywhere, or several literal runs such as 'a%b' or '%a%b%'.
    General,
};

/// A compiled SQL LIKE (or, with CaseSensitivity::AsciiInsensitive, ILIKE) pattern. '%' matches
/// any run of bytes, '_' any one byte, and '\' makes the next byte literal ('\%', '\_', '\\');
/// a '\' that ends the pattern is itself literal. Matching works on bytes: '_' is one byte, not
/// one UTF-8 character. General patterns match greedily without backtracking: the literal runs
/// between '%'s each have a fixed length, so taking every run's leftmost occurrence is exact.
class LikePattern
{
public:
    explicit LikePattern(std::string_view pattern, SearchOptions options = {});

    LikePatternKind kind() const { return kind_; }

    bool matches(std::string_view value) const;

    /// `column LIKE pattern` (Matching) or NOT LIKE (NotMatching) as a byte mask, 1 per selected
    /// row (see column_search.h); returns the number of selected rows.
    size_t selectRows(StringColumnView column, RowSelection selection, uint8_t* row_mask) const;

private:
    /// The bytes between two '%'s.
    struct Segment
    {
        /// Per byte: what (value byte | fold byte) must equal. '_' has 0xFF in both strings,
        /// which every byte matches; a letter under ILIKE has its lower case and kAsciiCaseBit.
        std::string expected;
        std::string fold;
        /// Searches for the segment when it holds no '_' (then only its leftmost occurrence
        /// matters); absent for segments with '_', which are found byte by byte.
        std::optional<SubstringSearcher> searcher;

        size_t size() const { return expected.size(); }
        /// Whether the segment matches value[at, at + size()), which must exist.
        bool matchesAt(std::string_view value, size_t at) const;
        /// Leftmost start in [from, to - size()] where the segment matches, or npos.
        size_t findIn(std::string_view value, size_t from, size_t to) const;
    };

    bool matchesGeneral(std::string_view value) const;

    LikePatternKind kind_ = LikePatternKind::General;
    /// No '%' before the first segment / after the last one.
    bool anchored_at_start_ = true;
    bool anchored_at_end_ = true;
    std::vector<Segment> segments_;
    /// Contains: the needle. General: the longest literal run of the pattern, which every
    /// matching value contains, to skip most rows at memory speed; absent if it has none.
    std::optional<SubstringSearcher> searcher_;
};

}  // namespace granary::simd
