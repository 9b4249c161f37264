// The common case: SymbolicDomainError over the Boost.Interval domain.
#pragma once

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include <type_traits>

namespace symerr {
/// The value type most users want: SymbolicDomainError over the Interval domain.
using SymbolicError = SymbolicDomainError<Interval>;
}  // namespace symerr

namespace symerr {
// An implicit-lifetime value type: malloc'd/calloc'd buffers, memcpy, C structs
// holding arrays of it and std::vector resizes need no placement-new glue.
// Size: six Interval enclosures (real, fp, err, rel_err, propagated,
// introduced: 6 x 16 bytes), the Format variant (48 bytes: the format's name
// as a string_view plus its parameters, so that messages can name it), the
// rounding mode, the integer-division choice (one byte each), nine
// special-state flags, the mixed relative/absolute error bound (two floats,
// in what was padding) and the branch driver's two tags (origin lane, input
// source): 176 bytes on x86-64 (LP64).
static_assert(std::is_trivially_copyable_v<SymbolicError>);
static_assert(std::is_trivially_destructible_v<SymbolicError>);
static_assert(sizeof(void*) != 8 || sizeof(SymbolicError) == 176, "SymbolicError grew: see the size note above");
}  // namespace symerr

// The common instantiations, compiled in the library (extern templates).
#include <symerr/domains/symbolic_instances.hpp>
