#include "engine/aggregation/any_groups_filter.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/columns/column.h"
#include "engine/columns/gather.h"
#include "engine/columns/row_key.h"
#include "engine/common/exception.h"
#include "hashtables/hash.h"

namespace granary
{
namespace
{

/// A free slot of the hash table; stored hashes have their lowest bit set, so none is free.
constexpr uint64_t kEmpty = 0;
/// What a NULL contributes to its row's hash: NULL rows' values are not defined.
constexpr uint64_t kNullHash = hashing::kThirdMultiplier;

/// Folds each row's `value_hash(row)`, or kNullHash for a NULL, into the row's hash.
template <typename ValueHash>
void mixValues(const ColumnView& view, size_t rows, uint64_t* hashes, ValueHash&& value_hash)
{
    for (size_t row = 0; row < rows; ++row)
    {
        const uint64_t value = view.isValid(row) ? value_hash(row) : kNullHash;
        hashes[row] = hashing::hashWords(hashes[row], value);
    }
}

/// Folds the bit patterns of `view`'s values, `Width` bytes each, into each row's hash.
template <size_t Width>
void mixFixed(const ColumnView& view, size_t rows, uint64_t* hashes)
{
    mixValues(view, rows, hashes,
              [&](size_t row)
              {
                  uint64_t bits = 0;
                  std::memcpy(&bits, static_cast<const char*>(view.data) + row * Width, Width);
                  return hashing::hashInt64(bits);
              });
}

/// Folds `view`'s values into each row's hash.
void mixColumn(const ColumnView& view, size_t rows, uint64_t* hashes)
{
    if (isString(view.type))
    {
        mixValues(view, rows, hashes,
                  [&](size_t row)
                  {
                      const std::string_view value = view.stringAt(row);
                      return hashing::hashBytes(value.data(), value.size());
                  });
        return;
    }
    switch (isNested(view.type) ? 0 : fixedWidth(view.type))
    {
        case 1:
            return mixFixed<1>(view, rows, hashes);
        case 2:
            return mixFixed<2>(view, rows, hashes);
        case 4:
            return mixFixed<4>(view, rows, hashes);
        case 8:
            return mixFixed<8>(view, rows, hashes);
        default:
        {
            // Nested and wide values: hashed by their row keys' bytes.
            std::string key;
            mixValues(view, rows, hashes,
                      [&](size_t row)
                      {
                          key.clear();
                          appendRowKey(view, row, key);
                          return hashing::hashBytes(key.data(), key.size());
                      });
        }
    }
}

/// A kernel's local state that sinks only the rows of admitted keys.
class FilteredLocalState final : public LocalSinkState
{
public:
    FilteredLocalState(AnyGroupsFilter& filter, std::unique_ptr<LocalSinkState> inner)
        : filter_(filter), inner_(std::move(inner))
    {
    }

    void sink(const std::vector<ColumnView>& columns, size_t rows) override
    {
        selected_.clear();
        filter_.select(columns, rows, hashes_, selected_);
        if (selected_.size() == rows)
        {
            inner_->sink(columns, rows);
            return;
        }
        if (selected_.empty())
        {
            return;
        }
        gathered_.resize(columns.size());
        views_.resize(columns.size());
        for (size_t c = 0; c < columns.size(); ++c)
        {
            views_[c] = replaceWithRows(columns[c], selected_, gathered_[c]);
        }
        inner_->sink(views_, selected_.size());
    }
    void markSoleWorker(std::function<void()> check_cancelled, size_t input_rows) override
    {
        inner_->markSoleWorker(std::move(check_cancelled), input_rows);
    }
    void expectRows(size_t share_rows, size_t input_rows) override
    {
        inner_->expectRows(share_rows, input_rows);
    }
    size_t rows() const override { return inner_->rows(); }
    size_t groups() const override { return inner_->groups(); }
    size_t growths() const override { return inner_->growths(); }

    std::unique_ptr<LocalSinkState> release() { return std::move(inner_); }

private:
    AnyGroupsFilter& filter_;
    std::unique_ptr<LocalSinkState> inner_;
    std::vector<uint64_t> hashes_;
    std::vector<uint32_t> selected_;
    std::vector<Column> gathered_;
    std::vector<ColumnView> views_;
};

size_t checkedGroups(size_t groups)
{
    if (groups == 0 || groups > AnyGroupsFilter::kMaxGroups)
    {
        throw Exception(ErrorCode::kLogicalError, "AnyGroupsFilter takes 1 to " +
                                                      std::to_string(AnyGroupsFilter::kMaxGroups) +
                                                      " groups, not " + std::to_string(groups));
    }
    return groups;
}

}  // namespace

AnyGroupsFilter::AnyGroupsFilter(std::vector<size_t> key_columns, size_t groups)
    : key_columns_(std::move(key_columns)),
      groups_(checkedGroups(groups)),
      slots_(std::bit_ceil(2 * groups_), kEmpty),
      keys_(slots_.size())
{
}

std::unique_ptr<LocalSinkState> AnyGroupsFilter::wrap(std::unique_ptr<LocalSinkState> inner)
{
    return std::make_unique<FilteredLocalState>(*this, std::move(inner));
}

std::unique_ptr<LocalSinkState> AnyGroupsFilter::unwrap(std::unique_ptr<LocalSinkState> local)
{
    return static_cast<FilteredLocalState&>(*local).release();
}

size_t AnyGroupsFilter::slotOf(uint64_t hash) const
{
    const size_t mask = slots_.size() - 1;
    size_t slot = hash & mask;
    while (slots_[slot] != kEmpty && slots_[slot] != hash)
    {
        slot = (slot + 1) & mask;
    }
    return slot;
}

std::string AnyGroupsFilter::rowKey(const std::vector<ColumnView>& columns, size_t row) const
{
    std::string key;
    for (const size_t column : key_columns_)
    {
        appendRowKey(columns[column], row, key);
    }
    return key;
}

bool AnyGroupsFilter::admitted(const std::vector<ColumnView>& columns, size_t row, uint64_t hash,
                               bool admit)
{
    const size_t slot = slotOf(hash);
    if (slots_[slot] == kEmpty && !admit)
    {
        return false;
    }
    std::string key = rowKey(columns, row);
    std::vector<std::string>& same_hash = keys_[slot];
    if (std::find(same_hash.begin(), same_hash.end(), key) != same_hash.end())
    {
        return true;
    }
    if (!admit)
    {
        return false;
    }
    slots_[slot] = hash;
    same_hash.push_back(std::move(key));
    ++admitted_keys_;
    return true;
}

void AnyGroupsFilter::select(const std::vector<ColumnView>& columns, size_t rows,
                             std::vector<uint64_t>& hashes, std::vector<uint32_t>& selected)
{
    hashes.assign(rows, 0);
    for (const size_t column : key_columns_)
    {
        mixColumn(columns[column], rows, hashes.data());
    }
    for (uint64_t& hash : hashes)
    {
        hash |= 1;  // Never kEmpty.
    }
    const size_t selected_before = selected.size();
    if (frozen_.load(std::memory_order_acquire))
    {
        for (size_t row = 0; row < rows; ++row)
        {
            if (admitted(columns, row, hashes[row], false))
            {
                selected.push_back(static_cast<uint32_t>(row));
            }
        }
    }
    else
    {
        std::lock_guard lock(admission_);
        for (size_t row = 0; row < rows; ++row)
        {
            if (admitted(columns, row, hashes[row], admitted_keys_ < groups_))
            {
                selected.push_back(static_cast<uint32_t>(row));
            }
        }
        frozen_.store(admitted_keys_ == groups_, std::memory_order_release);
    }
    dropped_rows_.fetch_add(rows - (selected.size() - selected_before), std::memory_order_relaxed);
}

}  // namespace granary
