#pragma once

namespace granary::sql
{

/// Lambdas combined into one visitor for std::visit.
template <typename... Visitors>
struct Overloaded : Visitors...
{
    using Visitors::operator()...;
};

}  // namespace granary::sql
