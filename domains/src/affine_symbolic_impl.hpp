// SymbolicDomainError<Affine>'s fast path, private to
// domains/src/affine_symbolic*.cpp: the helpers shared by the operation
// proper (affine_symbolic.cpp), the operation-level memo and the entry point
// (affine_symbolic_memo.cpp) and the part-over-its-whole identity
// (affine_symbolic_parts.cpp).
#pragma once

#include <symerr/symbolic/map_enclosures.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

#include <utility>

#include "affine_impl.hpp"
#include "interval_batch.hpp"

namespace symerr::affine_symbolic {

using SA = SymbolicDomainError<Affine>;
using SI = SymbolicDomainError<Interval>;

inline Interval range(const Affine& a) { return Interval::between(a.lower(), a.upper()); }

// The Interval view of x (affine_symbolic.cpp).
SI ranges_of(const SA& x);

// Only finite, defined values: the executions the forms describe.
inline bool plain(const SpecialStates& s) {
  return s.may_be_finite && !s.may_be_nan && !s.may_be_pos_inf && !s.may_be_neg_inf && s.may_be_defined &&
         !s.may_be_undefined;
}

// Whether the fast path takes x ∘ y (affine_symbolic.cpp).
bool in_scope(ArithOp op, const SA& x, const SA& y);

// The operation on the generic path (affine_symbolic_memo.cpp).
SA generic(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division);

// The fast path proper (affine_symbolic.cpp).
SA compute(ArithOp op, const SA& x, const SA& y, std::optional<IntegerDivision> int_division);

// The part-over-its-whole identity (affine_symbolic_parts.cpp): the record of
// a sum of positive values, 0 + a aliased to a, and the narrowing of a / s.
void record_part_sum(const SA& x, const SA& y, const SI& xi, const SI& yi, const Interval& rounding,
                     const FloatFormat& F, const SA& z);
void alias_zero_sum(const SA& x, const SA& y, const SA& z);
void part_over_whole(const SA& x, const SA& y, const Interval& t, const Interval& rounding, const FloatFormat& F,
                     SA& z, std::size_t first_new);

}  // namespace symerr::affine_symbolic
