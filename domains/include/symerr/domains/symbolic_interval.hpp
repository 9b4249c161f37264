// The common case: SymbolicDomainError over the Boost.Interval domain.
#pragma once

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include <type_traits>

namespace symerr {
using SymbolicError = SymbolicDomainError<Interval>;
}  // namespace symerr

namespace symerr {
// An implicit-lifetime value type: malloc'd/calloc'd buffers, memcpy, C structs
// holding arrays of it and std::vector resizes need no placement-new glue.
// Size: six Interval enclosures (real, fp, err, rel_err, propagated,
// introduced: 6 x 16 bytes), the Format variant (40 bytes: the format's name
// as a string_view plus its parameters, so that messages can name it), the
// rounding mode, the integer-division choice and nine special-state flags:
// 160 bytes on x86-64 (with the origin lane tag and padding).
static_assert(std::is_trivially_copyable_v<SymbolicError>);
static_assert(std::is_trivially_destructible_v<SymbolicError>);
}  // namespace symerr
