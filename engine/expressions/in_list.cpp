#include "engine/expressions/in_list.h"

#include <algorithm>
#include <string>

#include "engine/expressions/comparison.h"
#include "engine/expressions/predicate.h"

namespace granary
{
namespace
{

/// Up to this many values a linear scan beats a binary search.
constexpr size_t kLinearSearchLimit = 8;

template <typename Value>
class SortedSet
{
public:
    explicit SortedSet(std::vector<Value> values) : values_(std::move(values))
    {
        std::sort(values_.begin(), values_.end());
        values_.erase(std::unique(values_.begin(), values_.end()), values_.end());
    }

    template <typename Key>
    bool contains(const Key& key) const
    {
        if (values_.size() <= kLinearSearchLimit)
        {
            return std::find(values_.begin(), values_.end(), key) != values_.end();
        }
        return std::binary_search(values_.begin(), values_.end(), key);
    }

private:
    std::vector<Value> values_;
};

template <typename T>
class NumericInListNode final : public ValueTestPredicateNode<NumericInListNode<T>, T>
{
public:
    using Value = typename ReducedComparison<T>::Value;

    NumericInListNode(NodePtr value, std::vector<Value> set, bool negated)
        : ValueTestPredicateNode<NumericInListNode<T>, T>(std::move(value)),
          set_(std::move(set)),
          negated_(negated)
    {
    }

    auto test() const
    {
        return [this](T x) { return set_.contains(static_cast<Value>(x)) != negated_; };
    }

private:
    SortedSet<Value> set_;
    bool negated_;
};

class StringInListNode final : public ValueTestPredicateNode<StringInListNode, std::string_view>
{
public:
    StringInListNode(NodePtr value, std::vector<std::string> set, bool negated)
        : ValueTestPredicateNode(std::move(value)), set_(std::move(set)), negated_(negated)
    {
    }

    auto test() const
    {
        return [this](std::string_view x) { return set_.contains(x) != negated_; };
    }

private:
    SortedSet<std::string> set_;
    bool negated_;
};

}  // namespace

NodePtr makeInList(NodePtr value, const std::vector<const Column*>& constants, bool negated)
{
    if (isString(value->type()))
    {
        std::vector<std::string> set;
        for (const Column* constant : constants)
        {
            set.emplace_back(constant->stringAt(0));
        }
        return std::make_shared<StringInListNode>(std::move(value), std::move(set), negated);
    }
    return dispatchFixedType(value->type(),
                             [&]<typename T>(TypeTag<T>) -> NodePtr
                             {
                                 std::vector<typename ReducedComparison<T>::Value> set;
                                 for (const Column* constant : constants)
                                 {
                                     const ReducedComparison<T> reduced =
                                         reduceComparison<T>(ComparisonOperator::Equals, *constant);
                                     if (!reduced.always)
                                     {
                                         set.push_back(reduced.value);
                                     }
                                 }
                                 return std::make_shared<NumericInListNode<T>>(
                                     std::move(value), std::move(set), negated);
                             });
}

}  // namespace granary
