#include "simd/like_pattern.h"

#include <algorithm>

#include "simd/internal/search_plan.h"

namespace granary::simd
{
namespace
{

constexpr char kAnyRun = '%';
constexpr char kAnyByte = '_';
constexpr char kEscape = '\\';
/// Expected byte and fold byte of '_': OR-ing 0xFF into any byte gives 0xFF.
constexpr char kAnyByteMarker = '\xFF';

}  // namespace

bool LikePattern::Segment::matchesAt(std::string_view value, size_t at) const
{
    for (size_t i = 0; i < expected.size(); ++i)
    {
        if ((static_cast<uint8_t>(value[at + i]) | static_cast<uint8_t>(fold[i])) !=
            static_cast<uint8_t>(expected[i]))
        {
            return false;
        }
    }
    return true;
}

size_t LikePattern::Segment::findIn(std::string_view value, size_t from, size_t to) const
{
    if (to - from < size())
    {
        return std::string_view::npos;
    }
    if (searcher)
    {
        const size_t found = searcher->find(value.substr(from, to - from));
        return found == std::string_view::npos ? found : from + found;
    }
    for (size_t at = from; at + size() <= to; ++at)
    {
        if (matchesAt(value, at))
        {
            return at;
        }
    }
    return std::string_view::npos;
}

LikePattern::LikePattern(std::string_view pattern, SearchOptions options)
{
    const bool ignore_case = options.case_sensitivity == CaseSensitivity::AsciiInsensitive;
    Segment segment;
    std::string literal_run;
    std::string longest_literal_run;
    bool has_any_byte = false;
    bool has_any_run = false;
    auto end_literal_run = [&]
    {
        if (literal_run.size() > longest_literal_run.size())
        {
            longest_literal_run = literal_run;
        }
        literal_run.clear();
    };
    auto end_segment = [&]
    {
        if (segment.size() == 0)
        {
            return;
        }
        if (segment.fold.find(kAnyByteMarker) == std::string::npos)
        {
            // Lower-cased letters are still the right needle for an ASCII-insensitive search.
            segment.searcher.emplace(segment.expected, options);
        }
        segments_.push_back(std::move(segment));
        segment = Segment{};
    };

    for (size_t i = 0; i < pattern.size(); ++i)
    {
        char byte = pattern[i];
        anchored_at_end_ = byte != kAnyRun;
        if (byte == kAnyRun)
        {
            anchored_at_start_ = anchored_at_start_ && i != 0;
            has_any_run = true;
            end_literal_run();
            end_segment();
            continue;
        }
        if (byte == kAnyByte)
        {
            has_any_byte = true;
            end_literal_run();
            segment.expected.push_back(kAnyByteMarker);
            segment.fold.push_back(kAnyByteMarker);
            continue;
        }
        if (byte == kEscape && i + 1 < pattern.size())
        {
            byte = pattern[++i];
        }
        literal_run.push_back(byte);
        const bool fold = ignore_case && internal::isAsciiLetter(static_cast<uint8_t>(byte));
        segment.expected.push_back(fold ? static_cast<char>(byte | internal::kAsciiCaseBit) : byte);
        segment.fold.push_back(fold ? static_cast<char>(internal::kAsciiCaseBit) : '\0');
    }
    end_literal_run();
    if (has_any_run)
    {
        end_segment();
    }
    else
    {
        // Without '%' the pattern is one segment, even an empty one (which matches '' only).
        segments_.push_back(std::move(segment));
    }

    const bool one_literal_segment = segments_.size() == 1 && !has_any_byte;
    if (!has_any_run)
    {
        kind_ = has_any_byte ? LikePatternKind::General : LikePatternKind::Exact;
    }
    else if (segments_.empty() || (one_literal_segment && !anchored_at_start_ && !anchored_at_end_))
    {
        kind_ = LikePatternKind::Contains;
    }
    else if (one_literal_segment)
    {
        kind_ = anchored_at_start_ ? LikePatternKind::Prefix : LikePatternKind::Suffix;
    }
    if (kind_ == LikePatternKind::Contains ||
        (kind_ == LikePatternKind::General && !longest_literal_run.empty()))
    {
        searcher_.emplace(longest_literal_run, options);
    }
}

bool LikePattern::matches(std::string_view value) const
{
    switch (kind_)
    {
        case LikePatternKind::Exact:
            return value.size() == segments_[0].size() && segments_[0].matchesAt(value, 0);
        case LikePatternKind::Prefix:
            return value.size() >= segments_[0].size() && segments_[0].matchesAt(value, 0);
        case LikePatternKind::Suffix:
            return value.size() >= segments_[0].size() &&
                   segments_[0].matchesAt(value, value.size() - segments_[0].size());
        case LikePatternKind::Contains:
            return searcher_->contains(value);
        case LikePatternKind::General:
            return matchesGeneral(value);
    }
    return false;
}

bool LikePattern::matchesGeneral(std::string_view value) const
{
    if (segments_.size() == 1 && anchored_at_start_ && anchored_at_end_)
    {
        return value.size() == segments_[0].size() && segments_[0].matchesAt(value, 0);
    }
    size_t from = 0;
    size_t to = value.size();
    size_t first = 0;
    size_t last = segments_.size();
    if (anchored_at_start_)
    {
        if (value.size() < segments_[0].size() || !segments_[0].matchesAt(value, 0))
        {
            return false;
        }
        from = segments_[0].size();
        ++first;
    }
    if (anchored_at_end_)
    {
        const Segment& tail = segments_[last - 1];
        if (to - from < tail.size() || !tail.matchesAt(value, to - tail.size()))
        {
            return false;
        }
        to -= tail.size();
        --last;
    }
    for (size_t i = first; i < last; ++i)
    {
        const size_t found = segments_[i].findIn(value, from, to);
        if (found == std::string_view::npos)
        {
            return false;
        }
        from = found + segments_[i].size();
    }
    return true;
}

size_t LikePattern::selectRows(StringColumnView column, RowSelection selection,
                               uint8_t* row_mask) const
{
    if (kind_ == LikePatternKind::Contains)
    {
        return selectRowsContaining(*searcher_, column, selection, row_mask);
    }
    const bool keep_matching = selection == RowSelection::Matching;
    if (searcher_)
    {
        // Only rows containing the pattern's longest literal run can match.
        selectRowsContaining(*searcher_, column, RowSelection::Matching, row_mask);
    }
    else
    {
        std::fill_n(row_mask, column.rows, 1);
    }
    size_t selected = 0;
    for (size_t row = 0; row < column.rows; ++row)
    {
        const bool match = row_mask[row] != 0 && matches(column.row(row));
        row_mask[row] = match == keep_matching ? 1 : 0;
        selected += row_mask[row];
    }
    return selected;
}

}  // namespace granary::simd
