// The common case: SymbolicDomainError over the Boost.Interval domain.
#pragma once

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

namespace symerr {
using SymbolicError = SymbolicDomainError<Interval>;
}  // namespace symerr
