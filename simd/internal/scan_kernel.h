#pragma once

// The column scan shared by every instruction-set level, written once over a small vector-traits
// policy. Only the kernels_*.cpp files include this header, each compiled with its own target
// flags; everything here is in an anonymous namespace so that each of them gets a private copy
// built for its own instruction set, and the linker can never hand, say, the AVX-512 copy of a
// helper to the scalar kernels.
//
// A Vector policy provides:
//   using Register;                    one vector of bytes
//   static constexpr size_t kWidth;    bytes per Register, a divisor of kBlockBytes
//   Register broadcast(uint8_t byte);  every byte set to `byte`
//   Register load(const char* bytes);  kWidth bytes, any alignment
//   Register bitOr(Register, Register);
//   uint64_t pairEqualMask(a, a_expected, b, b_expected);
//       bit i set iff a[i] == a_expected[i] and b[i] == b_expected[i]

#include <cstddef>
#include <cstdint>

#include "simd/internal/kernel_table.h"
#include "simd/internal/search_plan.h"
#include "simd/string_column_view.h"

namespace granary::simd::internal
{
namespace
{

/// Candidate starts settled by one pass of the filter: one bit each in a 64-bit mask.
constexpr size_t kBlockBytes = 64;
/// Blocks filtered per iteration of the main loop: two keep more loads in flight.
constexpr size_t kBlocksPerStep = 2;
constexpr size_t kStepBytes = kBlockBytes * kBlocksPerStep;
constexpr size_t kCacheLineBytes = 64;
/// How far ahead of the filter the chars are prefetched, every line: one core keeps too few
/// cache misses in flight to reach memory bandwidth unless told early which lines come next.
constexpr size_t kPrefetchBytes = 8192;
/// Rows the cursor searches without galloping: the rows of about 20 KiB of URLs, a power of two
/// for the branch-free binary search.
constexpr size_t kWindowRows = 256;
/// Rows of offsets kept prefetched ahead of the cursor: two windows, so that the next search,
/// which starts up to a window further on, still finds every offset it reads in cache.
constexpr size_t kPrefetchRows = 2 * kWindowRows;
constexpr size_t kOffsetsPerCacheLine = kCacheLineBytes / sizeof(uint64_t);

/// Hints that the cache line at base + offset is read soon. A prefetch never faults, so the
/// address may lie past the buffer; integer arithmetic keeps forming it well defined.
inline void prefetch(const void* base, uint64_t offset)
{
    __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(base) + offset));
}

inline uint64_t loadWord(const char* bytes)
{
    uint64_t word;
    __builtin_memcpy(&word, bytes, sizeof(word));
    return word;
}

/// The first filter: needle[first] at start + first and needle[second] at start + second,
/// compared kBlockBytes candidate starts at a time. kFoldCase: OR the fold bits into the loaded
/// bytes first (only when ignoring case and a filter byte is a letter).
template <class Vector, bool kFoldCase>
class PairFilter
{
public:
    explicit PairFilter(const SearchPlan& plan)
        : first_(Vector::broadcast(static_cast<uint8_t>(plan.needle[plan.first_position]))),
          first_fold_(Vector::broadcast(static_cast<uint8_t>(plan.fold[plan.first_position]))),
          second_(Vector::broadcast(static_cast<uint8_t>(plan.needle[plan.second_position]))),
          second_fold_(Vector::broadcast(static_cast<uint8_t>(plan.fold[plan.second_position]))),
          first_position_(plan.first_position),
          second_position_(plan.second_position)
    {
    }

    /// Bit i set iff both filter bytes match for the needle starting at block + i. Reads
    /// block[first_position, second_position + kBlockBytes).
    uint64_t blockCandidates(const char* block) const
    {
        uint64_t candidates = 0;
        for (size_t lane = 0; lane < kBlockBytes / Vector::kWidth; ++lane)
        {
            const char* lane_start = block + lane * Vector::kWidth;
            auto first = Vector::load(lane_start + first_position_);
            auto second = Vector::load(lane_start + second_position_);
            if constexpr (kFoldCase)
            {
                first = Vector::bitOr(first, first_fold_);
                second = Vector::bitOr(second, second_fold_);
            }
            candidates |= Vector::pairEqualMask(first, first_, second, second_)
                          << (lane * Vector::kWidth);
        }
        return candidates;
    }

private:
    typename Vector::Register first_;
    typename Vector::Register first_fold_;
    typename Vector::Register second_;
    typename Vector::Register second_fold_;
    size_t first_position_;
    size_t second_position_;
};

/// A verified occurrence of the needle lying wholly inside one row.
struct Occurrence
{
    size_t row;
    /// Absolute byte positions in the chars buffer.
    uint64_t row_begin;
    uint64_t row_end;
    uint64_t start;
};

/// Visitors take each occurrence (rows in ascending order) and return the position at which
/// the scan resumes, beyond the occurrence's start.

/// Marks rows containing the needle and counts them.
struct RowMarker
{
    uint8_t* row_mask;
    uint8_t match_value;
    size_t rows_matched = 0;

    uint64_t onOccurrence(const Occurrence& occurrence, size_t /*needle_size*/)
    {
        if (row_mask != nullptr)
        {
            row_mask[occurrence.row] = match_value;
        }
        ++rows_matched;
        return occurrence.row_end;
    }
};

/// Records the 1-based position of each row's first occurrence.
struct FirstPositionRecorder
{
    uint64_t* positions;

    uint64_t onOccurrence(const Occurrence& occurrence, size_t /*needle_size*/)
    {
        positions[occurrence.row] = occurrence.start - occurrence.row_begin + 1;
        return occurrence.row_end;
    }
};

/// Counts non-overlapping occurrences per row.
struct OccurrenceCounter
{
    uint64_t* counts;

    uint64_t onOccurrence(const Occurrence& occurrence, size_t needle_size)
    {
        ++counts[occurrence.row];
        return occurrence.start + needle_size;
    }
};

/// Maps ascending byte positions to their rows, moving forward through the offsets: nearby rows
/// (frequent needles) by counting the row starts passed, rows within the prefetched window
/// (rare needles) by a branch-free binary search, and rows beyond it by a galloping search.
class RowCursor
{
public:
    RowCursor(const uint64_t* offsets, size_t rows) : offsets_(offsets), rows_(rows)
    {
        prefetchAhead();
    }

    /// The row holding chars[position]; position must not precede the previous one's row.
    size_t rowContaining(uint64_t position)
    {
        if (offsets_[row_ + 1] > position)
        {
            return row_;
        }
        if (row_ + kNearRows <= rows_)
        {
            // Ascending offsets: the count of the next kNearRows row starts at or before the
            // position is how far to move, found without a branch per row.
            size_t passed = 0;
            for (size_t ahead = 1; ahead <= kNearRows; ++ahead)
            {
                passed += offsets_[row_ + ahead] <= position;
            }
            row_ += passed;
            if (passed < kNearRows)
            {
                return row_;
            }
        }
        if (row_ + kWindowRows < rows_ && offsets_[row_ + kWindowRows] > position)
        {
            searchWindow(position);
        }
        else
        {
            gallop(position);
        }
        prefetchAhead();
        return row_;
    }

    uint64_t rowBegin() const { return offsets_[row_]; }
    uint64_t rowEnd() const { return offsets_[row_ + 1]; }

private:
    /// Rows the cursor passes by counting (frequent needles mostly land there).
    static constexpr size_t kNearRows = 8;

    /// The answer lies in [row_, row_ + kWindowRows): a binary search without branches, whose
    /// few dependent loads hit the prefetched offsets and leave the filter loop room to run.
    void searchWindow(uint64_t position)
    {
        const uint64_t* low = offsets_ + row_;
        for (size_t size = kWindowRows; size > 1; size -= size / 2)
        {
            low = low[size / 2] <= position ? low + size / 2 : low;
        }
        row_ = static_cast<size_t>(low - offsets_);
    }

    /// The answer lies beyond the window (or near the last row): gallop from row_, which starts
    /// at or before the position, then bisect; offsets_[rows_] is past every position.
    void gallop(uint64_t position)
    {
        size_t low = row_;
        size_t bound = 1;
        while (low + bound < rows_ && offsets_[low + bound] <= position)
        {
            low += bound;
            bound *= 2;
        }
        size_t high = low + bound < rows_ ? low + bound : rows_;
        while (high - low > 1)
        {
            const size_t middle = low + (high - low) / 2;
            if (offsets_[middle] <= position)
            {
                low = middle;
            }
            else
            {
                high = middle;
            }
        }
        row_ = low;
    }

    /// Prefetches the offsets up to kPrefetchRows ahead of the cursor not prefetched yet.
    void prefetchAhead()
    {
        prefetched_row_ = prefetched_row_ > row_ ? prefetched_row_ : row_;
        const size_t target = row_ + kPrefetchRows < rows_ ? row_ + kPrefetchRows : rows_;
        for (; prefetched_row_ <= target; prefetched_row_ += kOffsetsPerCacheLine)
        {
            prefetch(offsets_, prefetched_row_ * sizeof(uint64_t));
        }
    }

    const uint64_t* offsets_;
    size_t rows_;
    size_t row_ = 0;
    /// Offsets before this row are prefetched (or passed).
    size_t prefetched_row_ = 0;
};

/// One pass over a column: the filter finds candidate starts in the whole chars buffer at once,
/// each candidate is verified against the needle, and only verified ones are mapped to their row
/// by a cursor that moves forward through the offsets (hits come in ascending order).
template <class Vector, bool kFoldCase, class Visitor>
class ColumnScan
{
public:
    ColumnScan(const SearchPlan& plan, StringColumnView column, Visitor& visitor)
        : plan_(plan),
          visitor_(visitor),
          chars_(column.chars),
          cursor_(column.offsets, column.rows),
          begin_(column.rows == 0 ? 0 : column.offsets[0]),
          end_(column.rows == 0 ? 0 : column.offsets[column.rows])
    {
    }

    void run()
    {
        const size_t needle_size = plan_.needle.size();
        if (end_ - begin_ < needle_size)
        {
            return;
        }
        // Locals rather than members: the visitors store bytes, which may alias any member, and
        // would make the loop reload the filter and its bounds from memory on every iteration.
        const PairFilter<Vector, kFoldCase> filter(plan_);
        const char* const chars = chars_;
        const uint64_t end = end_;
        uint64_t block = begin_;
        uint64_t resume = begin_;
        const size_t step_reach = plan_.second_position + kStepBytes;
        while (end - block >= step_reach)
        {
            for (size_t line = 0; line < kStepBytes; line += kCacheLineBytes)
            {
                prefetch(chars, block + kPrefetchBytes + line);
            }
            const uint64_t low = filter.blockCandidates(chars + block);
            const uint64_t high = filter.blockCandidates(chars + block + kBlockBytes);
            if ((low | high) != 0) [[unlikely]]
            {
                resume = visitCandidates(low, block, resume);
                resume = visitCandidates(high, block + kBlockBytes, resume);
            }
            // Never jump to `resume`: load addresses that wait for the hit handling would stall
            // the filter; the candidates before `resume` are skipped instead.
            block += kStepBytes;
        }
        const size_t block_reach = plan_.second_position + kBlockBytes;
        while (end - block >= block_reach)
        {
            resume = visitCandidates(filter.blockCandidates(chars + block), block, resume);
            block += kBlockBytes;
        }
        scanTail(resume > block ? resume : block);
    }

private:
    /// Fewer than block_reach bytes remain: test the remaining starts one by one.
    void scanTail(uint64_t start)
    {
        const size_t needle_size = plan_.needle.size();
        const auto first = static_cast<uint8_t>(plan_.needle[plan_.first_position]);
        const auto first_fold = static_cast<uint8_t>(plan_.fold[plan_.first_position]);
        const auto second = static_cast<uint8_t>(plan_.needle[plan_.second_position]);
        const auto second_fold = static_cast<uint8_t>(plan_.fold[plan_.second_position]);
        while (end_ - start >= needle_size)
        {
            const bool candidate = (static_cast<uint8_t>(chars_[start + plan_.first_position]) |
                                    first_fold) == first &&
                                   (static_cast<uint8_t>(chars_[start + plan_.second_position]) |
                                    second_fold) == second;
            start = candidate ? visitCandidate(start) : start + 1;
        }
    }

    /// Visits the candidates of one block starting at `block`, skipping those before `resume`;
    /// returns the new resume position.
    uint64_t visitCandidates(uint64_t candidates, uint64_t block, uint64_t resume)
    {
        while (candidates != 0)
        {
            const uint64_t start = block + static_cast<uint64_t>(__builtin_ctzll(candidates));
            if (start < resume)
            {
                const uint64_t settled = resume - block;
                if (settled >= kBlockBytes)
                {
                    return resume;
                }
                candidates &= ~uint64_t{0} << settled;
                continue;
            }
            resume = visitCandidate(start);
            candidates &= candidates - 1;
        }
        return resume;
    }

    /// Verifies the candidate at `start`, hands an occurrence to the visitor, and returns where
    /// the scan resumes.
    uint64_t visitCandidate(uint64_t start)
    {
        const size_t needle_size = plan_.needle.size();
        if (end_ - start < needle_size || !matchesAt(start))
        {
            return start + 1;
        }
        const size_t row = cursor_.rowContaining(start);
        const uint64_t row_end = cursor_.rowEnd();
        if (row_end - start < needle_size)
        {
            // The match runs into the next row, so no later start in this row fits either.
            return row_end;
        }
        return visitor_.onOccurrence(Occurrence{row, cursor_.rowBegin(), row_end, start},
                                     needle_size);
    }

    /// Whether the needle lies at chars[start, start + needle size), which is inside the buffer.
    bool matchesAt(uint64_t start) const
    {
        const char* haystack = chars_ + start;
        const size_t needle_size = plan_.needle.size();
        const size_t word_size = sizeof(uint64_t);
        if (needle_size <= word_size)
        {
            if (end_ - start >= word_size)
            {
                return (((loadWord(haystack) | plan_.head_fold) ^ plan_.head_needle) &
                        plan_.head_mask) == 0;
            }
            return bytesMatch(haystack, needle_size);
        }
        if (((loadWord(haystack) | plan_.head_fold) ^ plan_.head_needle) != 0)
        {
            return false;
        }
        const char* needle = plan_.needle.data();
        const char* fold = plan_.fold.data();
        for (size_t at = word_size; at < needle_size; at += word_size)
        {
            // The last word overlaps the previous one rather than reading past the needle.
            const size_t word_at = at + word_size <= needle_size ? at : needle_size - word_size;
            if (((loadWord(haystack + word_at) | loadWord(fold + word_at)) ^
                 loadWord(needle + word_at)) != 0)
            {
                return false;
            }
        }
        return true;
    }

    bool bytesMatch(const char* haystack, size_t size) const
    {
        for (size_t i = 0; i < size; ++i)
        {
            if ((static_cast<uint8_t>(haystack[i]) | static_cast<uint8_t>(plan_.fold[i])) !=
                static_cast<uint8_t>(plan_.needle[i]))
            {
                return false;
            }
        }
        return true;
    }

    const SearchPlan& plan_;
    Visitor& visitor_;
    const char* chars_;
    RowCursor cursor_;
    uint64_t begin_;
    uint64_t end_;
};

template <class Vector, class Visitor>
void scanColumn(const SearchPlan& plan, StringColumnView column, Visitor& visitor)
{
    if (plan.fold[plan.first_position] != 0 || plan.fold[plan.second_position] != 0)
    {
        ColumnScan<Vector, true, Visitor>(plan, column, visitor).run();
    }
    else
    {
        ColumnScan<Vector, false, Visitor>(plan, column, visitor).run();
    }
}

template <class Vector>
constexpr KernelTable makeKernelTable()
{
    return KernelTable{
        .mark_rows = [](const SearchPlan& plan, StringColumnView column, uint8_t* row_mask,
                        uint8_t match_value) -> size_t
        {
            RowMarker marker{row_mask, match_value};
            scanColumn<Vector>(plan, column, marker);
            return marker.rows_matched;
        },
        .first_positions =
            [](const SearchPlan& plan, StringColumnView column, uint64_t* positions)
        {
            FirstPositionRecorder recorder{positions};
            scanColumn<Vector>(plan, column, recorder);
        },
        .count_occurrences =
            [](const SearchPlan& plan, StringColumnView column, uint64_t* counts)
        {
            OccurrenceCounter counter{counts};
            scanColumn<Vector>(plan, column, counter);
        },
    };
}

}  // namespace
}  // namespace granary::simd::internal
