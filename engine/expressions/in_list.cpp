#include "engine/expressions/in_list.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <span>
#include <string>

#include "alloc/arena.h"
#include "engine/expressions/comparison.h"
#include "engine/expressions/predicate.h"
#include "hashtables/hash_map.h"

namespace granary
{
namespace
{

/// Up to this many values a linear scan beats hashing (literal lists such as `IN (-1, 6)`).
constexpr size_t kLinearSearchLimit = 8;

/// A set of values: kept in a vector while small, then in `Table` (one of Granary's hash
/// sets). `Stored` owns a value; `Key` views one.
template <typename Key, typename Stored, typename Table>
class ValueSet
{
public:
    /// `expected_values`: how many values add() will be given (duplicates included), to size
    /// the hash set once.
    explicit ValueSet(size_t expected_values = 0) : expected_values_(expected_values) {}

    void add(Key key)
    {
        if (table_)
        {
            insert(key);
            return;
        }
        if (std::find(small_.begin(), small_.end(), key) != small_.end())
        {
            return;
        }
        if (small_.size() < kLinearSearchLimit)
        {
            small_.emplace_back(key);
            return;
        }
        moveToTable();
        insert(key);
    }

    /// add() for each key; a large batch goes into the hash set in one pass that prefetches
    /// its cells ahead (a set of a million values is far larger than the caches).
    void addMany(std::span<const Key> keys)
    {
        if (!table_ && small_.size() + keys.size() <= kLinearSearchLimit)
        {
            for (const Key key : keys)
            {
                add(key);
            }
            return;
        }
        if (!table_)
        {
            moveToTable();
        }
        table_->emplaceMany(keys.data(), keys.size(), [](auto*, bool, size_t) {});
    }

    bool contains(Key key) const
    {
        if (table_)
        {
            return table_->contains(key);
        }
        return std::find(small_.begin(), small_.end(), key) != small_.end();
    }

private:
    /// The values kept in place so far go into a new hash set, which holds every later one.
    void moveToTable()
    {
        table_ = makeTable();
        for (const Stored& stored : small_)
        {
            insert(Key(stored));
        }
        small_.clear();
    }

    std::unique_ptr<Table> makeTable()
    {
        if constexpr (std::is_constructible_v<Table, Arena*>)
        {
            return std::make_unique<Table>(arena_.get());
        }
        else
        {
            return std::make_unique<Table>(expected_values_);
        }
    }

    void insert(Key key)
    {
        bool inserted = false;
        table_->emplace(key, inserted);
    }

    size_t expected_values_;
    std::vector<Stored> small_;
    /// The hash set's copies of long string keys; on the heap, as the set keeps its address.
    std::unique_ptr<Arena> arena_ = std::make_unique<Arena>();
    std::unique_ptr<Table> table_;
};

using NumericSet = ValueSet<uint64_t, uint64_t, HashSet<uint64_t>>;
using StringSet = ValueSet<std::string_view, std::string, StringHashSet>;

/// A number as the set's key: integers by their bits, floats as doubles with -0 as 0 (NaN is
/// never added, so it matches nothing).
template <typename Value>
uint64_t numericKey(Value value)
{
    if constexpr (std::is_floating_point_v<Value>)
    {
        return std::bit_cast<uint64_t>(value == 0 ? 0.0 : static_cast<double>(value));
    }
    else
    {
        return static_cast<uint64_t>(value);
    }
}

template <typename Value>
bool isNan(Value value)
{
    if constexpr (std::is_floating_point_v<Value>)
    {
        return std::isnan(value);
    }
    return false;
}

template <typename T>
class NumericInSetNode final : public ValueTestPredicateNode<NumericInSetNode<T>, T>
{
public:
    using Value = typename ReducedComparison<T>::Value;

    NumericInSetNode(NodePtr value, NumericSet set, bool negated)
        : ValueTestPredicateNode<NumericInSetNode<T>, T>(std::move(value)),
          set_(std::move(set)),
          negated_(negated)
    {
    }

    auto test() const
    {
        return [this](T x) { return set_.contains(numericKey(static_cast<Value>(x))) != negated_; };
    }

private:
    NumericSet set_;
    bool negated_;
};

class StringInSetNode final : public ValueTestPredicateNode<StringInSetNode, std::string_view>
{
public:
    StringInSetNode(NodePtr value, StringSet set, bool negated)
        : ValueTestPredicateNode(std::move(value)), set_(std::move(set)), negated_(negated)
    {
    }

    auto test() const
    {
        return [this](std::string_view x) { return set_.contains(x) != negated_; };
    }

private:
    StringSet set_;
    bool negated_;
};

/// The set node over the values `for_each_value` hands out as (column, row) pairs.
template <typename ForEachValue>
NodePtr makeSetNode(NodePtr value, bool negated, size_t values, const ForEachValue& for_each_value)
{
    if (isString(value->type()))
    {
        StringSet set;
        for_each_value([&](const Column& column, size_t row) { set.add(column.stringAt(row)); });
        return std::make_shared<StringInSetNode>(std::move(value), std::move(set), negated);
    }
    return dispatchFixedType(
        value->type(),
        [&]<typename T>(TypeTag<T>) -> NodePtr
        {
            std::vector<uint64_t> keys;
            keys.reserve(values);
            for_each_value(
                [&](const Column& column, size_t row)
                {
                    const ReducedComparison<T> reduced =
                        reduceComparison<T>(ComparisonOperator::Equals, column, row);
                    // `always` (false) marks a value the type cannot hold; NaN equals nothing.
                    if (!reduced.always && !isNan(reduced.value))
                    {
                        keys.push_back(numericKey(reduced.value));
                    }
                });
            NumericSet set(keys.size());
            set.addMany(keys);
            return std::make_shared<NumericInSetNode<T>>(std::move(value), std::move(set), negated);
        });
}

}  // namespace

NodePtr makeInList(NodePtr value, const std::vector<const Column*>& constants, bool negated)
{
    return makeSetNode(std::move(value), negated, constants.size(),
                       [&](const auto& add)
                       {
                           for (const Column* constant : constants)
                           {
                               add(*constant, 0);
                           }
                       });
}

NodePtr makeInSet(NodePtr value, const Column& values, bool negated)
{
    return makeSetNode(std::move(value), negated, values.size(),
                       [&](const auto& add)
                       {
                           for (size_t row = 0; row < values.size(); ++row)
                           {
                               add(values, row);
                           }
                       });
}

}  // namespace granary
