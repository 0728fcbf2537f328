#include "engine/datagen/hits_column_models.h"

#include <algorithm>
#include <cmath>

namespace granary::datagen
{

WeightedChoice::WeightedChoice(std::vector<int64_t> values, std::span<const double> weights)
    : values_(std::move(values))
{
    std::vector<double> threshold(values_.size());
    std::vector<size_t> alias(values_.size());
    // Vose's alias method: each slot keeps its own value below `threshold` and hands the
    // rest of its 1/n of probability to `alias`, so a draw costs one multiply, no search.
    const size_t size = values_.size();
    double total = 0;
    for (const double weight : weights)
    {
        total += weight;
    }
    std::vector<double> scaled(size);
    std::vector<size_t> small;
    std::vector<size_t> large;
    for (size_t i = 0; i < size; ++i)
    {
        scaled[i] = weights[i] / total * static_cast<double>(size);
        (scaled[i] < 1 ? small : large).push_back(i);
    }
    while (!small.empty() && !large.empty())
    {
        const size_t light = small.back();
        small.pop_back();
        const size_t heavy = large.back();
        threshold[light] = scaled[light];
        alias[light] = heavy;
        scaled[heavy] -= 1 - scaled[light];
        if (scaled[heavy] < 1)
        {
            large.pop_back();
            small.push_back(heavy);
        }
    }
    for (const size_t rest : large)
    {
        threshold[rest] = 1;
        alias[rest] = rest;
    }
    for (const size_t rest : small)
    {
        threshold[rest] = 1;
        alias[rest] = rest;
    }
    slots_.reserve(size);
    for (size_t i = 0; i < size; ++i)
    {
        slots_.push_back({threshold[i], values_[i], values_[alias[i]]});
    }
}

int64_t WeightedChoice::pick(double unit) const
{
    const double position = unit * static_cast<double>(values_.size());
    const size_t index = std::min(static_cast<size_t>(position), values_.size() - 1);
    const Slot& slot = slots_[index];
    return position - static_cast<double>(index) < slot.threshold ? slot.own : slot.alias;
}

namespace
{

/// Expected distinct ranks among `draws` draws of a Zipf law over `size` ranks.
double expectedZipfDistinct(size_t size, double exponent, double draws)
{
    double total = 0;
    for (size_t rank = 0; rank < size; ++rank)
    {
        total += 1.0 / std::pow(static_cast<double>(rank + 1), exponent);
    }
    double distinct = 0;
    for (size_t rank = 0; rank < size; ++rank)
    {
        const double probability = 1.0 / std::pow(static_cast<double>(rank + 1), exponent) / total;
        distinct += -std::expm1(draws * std::log1p(-probability));
    }
    return distinct;
}

}  // namespace

double SkewedIndex::uniformRangeFor(double draws, double distinct)
{
    if (distinct >= draws)
    {
        return std::max(draws, 1.0) * 1e6;  // Practically every draw distinct.
    }
    if (distinct <= 1)
    {
        return 1;
    }
    // M * (1 - exp(-draws / M)) grows with M from 0 to `draws`: bisect on M.
    double low = 1;
    double high = draws * 1e6;
    for (int step = 0; step < 200; ++step)
    {
        const double middle = std::sqrt(low * high);
        const double expected = middle * -std::expm1(-draws / middle);
        (expected < distinct ? low : high) = middle;
    }
    return high;
}

SkewedIndex::SkewedIndex(const Shape& shape)
    : zipf_share_(shape.zipf_share),
      zipf_(std::max<size_t>(shape.zipf_size, 1), shape.zipf_exponent),
      zipf_start_(shape.heavy_shares.size()),
      tail_start_(shape.heavy_shares.size() + shape.zipf_size)
{
    double total = 0;
    for (const double share : shape.heavy_shares)
    {
        total += share;
        heavy_cumulative_.push_back(total);
    }
    const double tail_share = std::max(0.0, 1.0 - total - shape.zipf_share);
    const double head_distinct =
        static_cast<double>(shape.heavy_shares.size()) +
        expectedZipfDistinct(shape.zipf_size, shape.zipf_exponent, shape.draws * shape.zipf_share);
    const double tail_distinct = std::max(1.0, shape.expected_distinct - head_distinct);
    tail_size_ = static_cast<uint64_t>(
        std::max(1.0, std::round(uniformRangeFor(shape.draws * tail_share, tail_distinct))));
}

uint64_t SkewedIndex::sample(Random& random) const
{
    double unit = random.unit();
    if (!heavy_cumulative_.empty() && unit < heavy_cumulative_.back())
    {
        return std::upper_bound(heavy_cumulative_.begin(), heavy_cumulative_.end(), unit) -
               heavy_cumulative_.begin();
    }
    unit -= heavy_cumulative_.empty() ? 0 : heavy_cumulative_.back();
    if (unit < zipf_share_)
    {
        return zipf_start_ + zipf_.sample(random);
    }
    return tail_start_ + random.below(tail_size_);
}

}  // namespace granary::datagen
