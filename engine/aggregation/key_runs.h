#pragma once

// Runs of equal consecutive keys in a batch. Real tables are stored sorted by a few columns, so
// a GROUP BY key often repeats row after row (87% of ClickBench's SearchPhrase values are '',
// three rows in four equal their predecessor): such a batch needs one table lookup per run, not
// per row, as ClickHouse's consecutive-keys cache does.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace granary
{

/// A batch whose runs number at most this share of its rows looks keys up once per run: below
/// it, the compaction and expansion of state pointers (about 1 ns a row) cost more than the
/// lookups they save.
inline constexpr double kRunLookupMaxRunShare = 0.75;
/// Once rows are routed to buckets, a batch goes into the table instead only when runs are at
/// most this share of its rows: the runs' keys then miss the cache as routing would have spared.
inline constexpr double kRoutedRunLookupMaxRunShare = 0.5;
/// Runs this long on average are added run by run (AggregateFunction::addRuns: a vectorized
/// sum, one addition for a count) instead of through a state pointer per row, whose updates
/// of one state chain through memory. At 2 the default suite's Q12 (runs of 4.4 rows) took
/// 5.9 ms, at 4 7.8, at 8 15.0 (1M rows, one thread).
inline constexpr size_t kMinMeanRunLengthForRunAdds = 2;
/// A partial that saw this many batches in a row without enough repeats stops looking for runs
/// (the comparison pass then costs nothing more).
inline constexpr size_t kRunProbeBatches = 16;

class KeyRuns
{
public:
    /// Finds the runs of keys[0, rows); returns their count.
    template <typename Key>
    size_t find(const Key* keys, size_t rows)
    {
        starts_.resize(rows + 1);
        size_t runs = 0;
        for (size_t i = 0; i < rows; ++i)
        {
            starts_[runs] = static_cast<uint32_t>(i);
            runs += i == 0 || !(keys[i] == keys[i - 1]) ? 1 : 0;
        }
        starts_[runs] = static_cast<uint32_t>(rows);
        runs_ = runs;
        return runs;
    }

    size_t runs() const { return runs_; }
    /// First row of run r; start(runs()) is the batch's row count.
    size_t start(size_t r) const { return starts_[r]; }
    size_t length(size_t r) const { return starts_[r + 1] - starts_[r]; }
    /// The runs' first rows, runs() + 1 of them (the last the row count).
    const uint32_t* starts() const { return starts_.data(); }

    /// Copies each run's key to out[r] (out may be `keys` itself: r never passes the run's row).
    template <typename Key>
    void compactKeys(const Key* keys, Key* out) const
    {
        for (size_t r = 0; r < runs_; ++r)
        {
            out[r] = keys[starts_[r]];
        }
    }

    /// Turns values[0, runs()), one per run, into one per row, in place: backwards, each run's
    /// value is read before any row at or after the run's start is written.
    template <typename T>
    void expand(T* values) const
    {
        for (size_t r = runs_; r-- > 0;)
        {
            const T value = values[r];
            for (size_t i = starts_[r]; i < starts_[r + 1]; ++i)
            {
                values[i] = value;
            }
        }
    }

private:
    std::vector<uint32_t> starts_;
    size_t runs_ = 0;
};

}  // namespace granary
