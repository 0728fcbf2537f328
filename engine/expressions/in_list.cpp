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
class NumericInListNode final : public PredicateNode
{
public:
    using Value = typename ReducedComparison<T>::Value;

    NumericInListNode(NodePtr value, std::vector<Value> set, bool negated)
        : PredicateNode(std::move(value)), set_(std::move(set)), negated_(negated)
    {
    }

protected:
    void writeMask(const ColumnView& values, uint8_t* mask) const override
    {
        writeMaskByTest<T>(values, mask, test());
    }
    void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const override
    {
        keepRowsByTest<T>(values, rows, test());
    }

private:
    auto test() const
    {
        return [this](T x) { return set_.contains(static_cast<Value>(x)) != negated_; };
    }

    SortedSet<Value> set_;
    bool negated_;
};

class StringInListNode final : public PredicateNode
{
public:
    StringInListNode(NodePtr value, std::vector<std::string> set, bool negated)
        : PredicateNode(std::move(value)), set_(std::move(set)), negated_(negated)
    {
    }

protected:
    void writeMask(const ColumnView& values, uint8_t* mask) const override
    {
        writeStringMaskByTest(values, mask, [this](std::string_view x) { return test(x); });
    }
    void keepPassingRows(const ColumnView& values, std::vector<uint32_t>& rows) const override
    {
        keepStringRowsByTest(values, rows, [this](std::string_view x) { return test(x); });
    }

private:
    bool test(std::string_view x) const { return set_.contains(x) != negated_; }

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
