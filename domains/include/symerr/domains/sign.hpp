// Sign queries of an enclosure as three-valued answers (the sign_of row of
// the contract table in concept.hpp): Tri::True if every element of a has the
// sign, Tri::False if none has it, Tri::Unknown otherwise.
#pragma once

#include <symerr/domains/concept.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

///@{
/// The sign of the enclosed values as a Tri: x > 0, x < 0, x >= 0, x <= 0, x = 0
/// for every x ∈ a (True), none (False), or some (Unknown).
template <RealDomain D> Tri sign_positive(const D& a) { return cmp_gt(a, D::point(0.0)); }
template <RealDomain D> Tri sign_negative(const D& a) { return cmp_lt(a, D::point(0.0)); }
template <RealDomain D> Tri sign_nonnegative(const D& a) { return cmp_ge(a, D::point(0.0)); }
template <RealDomain D> Tri sign_nonpositive(const D& a) { return cmp_le(a, D::point(0.0)); }
template <RealDomain D> Tri sign_zero(const D& a) { return cmp_eq(a, D::point(0.0)); }
///@}

}  // namespace symerr
