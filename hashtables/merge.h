#pragma once

#include <cstddef>
#include <type_traits>

namespace granary
{

/// Does nothing with a freshly inserted cell (the default for keys that need no persisting).
struct KeepInsertedCell
{
    template <typename Cell>
    void operator()(Cell&) const
    {
    }
};

/// Merges `source` into `target`, for any pair of tables with the same key kind (single-level,
/// two-level or fixed). A key only in `source` is inserted with its mapped value copied and
/// passed to `on_inserted`; a key in both gets merge_mapped(target_mapped, source_mapped).
/// Sets (Mapped = void) take the union. One function serves every table kind.
///
/// The source is read in array order, so the target (same hash, same slot bits) is written
/// nearly sequentially. That order has one trap: where the target's load and the source's new
/// keys add up past one, displaced keys pile into a run just ahead of the insertion point and
/// every later key walks the whole run, so the merge turns quadratic in the table size (a
/// 10M-group two-level merge took 25 s instead of 0.6 s). Room for both tables is therefore
/// reserved first: at most one extra doubling where their keys overlap.
template <typename Target, typename Source, typename MergeMapped,
          typename OnInserted = KeepInsertedCell>
void mergeTables(Target& target, const Source& source, MergeMapped&& merge_mapped,
                 OnInserted&& on_inserted = {})
{
    if constexpr (requires {
                      target.bucket(0);
                      source.bucket(0);
                  })
    {
        for (size_t bucket = 0; bucket < Target::kBucketCount; ++bucket)
        {
            mergeTables(target.bucket(bucket), source.bucket(bucket), merge_mapped, on_inserted);
        }
    }
    else
    {
        if constexpr (requires { target.reserve(size_t{}); })
        {
            target.reserve(target.size() + source.size());
        }
        source.forEachCell(
            [&](const auto& cell)
            {
                bool inserted;
                auto* merged = target.emplace(cell.key(), source.cellHash(cell), inserted);
                if constexpr (!std::is_void_v<typename std::decay_t<decltype(cell)>::Mapped>)
                {
                    if (inserted)
                    {
                        merged->mapped() = cell.mapped();
                    }
                    else
                    {
                        merge_mapped(merged->mapped(), cell.mapped());
                    }
                }
                if (inserted)
                {
                    on_inserted(*merged);
                }
            });
    }
}

/// Union of two sets of any table kind.
template <typename Target, typename Source>
void mergeSets(Target& target, const Source& source)
{
    mergeTables(target, source, [](auto&, const auto&) {});
}

}  // namespace granary
