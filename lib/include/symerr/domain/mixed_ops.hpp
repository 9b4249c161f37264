// Operators every RealDomain gets for free, so that specification scenarios
// read as written: mixed arithmetic with doubles (`bound + 1e-12`) and
// comparisons returning Truth (`b.real != 0`, `abs(c.err) <= bound`).
// A comparison is True when it holds for every pair of enclosed values.
#pragma once

#include <symerr/domain/concept.hpp>

namespace symerr {

///@{
/// Mixed arithmetic of an enclosure with a double (the double as a point enclosure).
template <RealDomain D> D operator+(const D& a, double b) { return a + D::point(b); }
template <RealDomain D> D operator+(double a, const D& b) { return D::point(a) + b; }
template <RealDomain D> D operator-(const D& a, double b) { return a - D::point(b); }
template <RealDomain D> D operator-(double a, const D& b) { return D::point(a) - b; }
template <RealDomain D> D operator*(const D& a, double b) { return a * D::point(b); }
template <RealDomain D> D operator*(double a, const D& b) { return D::point(a) * b; }
template <RealDomain D> D operator/(const D& a, double b) { return a / D::point(b); }
template <RealDomain D> D operator/(double a, const D& b) { return D::point(a) / b; }
///@}

///@{
/// Comparisons of enclosures: True when the relation holds for every pair of
/// enclosed values, False when for none, otherwise Unknown.
template <RealDomain D> Truth operator<(const D& a, const D& b) { return {cmp_lt(a, b), "a < b"}; }
template <RealDomain D> Truth operator<=(const D& a, const D& b) { return {cmp_le(a, b), "a <= b"}; }
template <RealDomain D> Truth operator>(const D& a, const D& b) { return {cmp_gt(a, b), "a > b"}; }
template <RealDomain D> Truth operator>=(const D& a, const D& b) { return {cmp_ge(a, b), "a >= b"}; }
template <RealDomain D> Truth operator==(const D& a, const D& b) { return {cmp_eq(a, b), "a == b"}; }
template <RealDomain D> Truth operator!=(const D& a, const D& b) { return {cmp_ne(a, b), "a != b"}; }
///@}

#define SYMERR_MIXED_CMP(op)                                                              \
  template <RealDomain D> Truth operator op(const D& a, double b) { return a op D::point(b); } \
  template <RealDomain D> Truth operator op(double a, const D& b) { return D::point(a) op b; }
///@{
/// Comparisons of an enclosure with a double (the double as a point enclosure).
SYMERR_MIXED_CMP(<)
SYMERR_MIXED_CMP(<=)
SYMERR_MIXED_CMP(>)
SYMERR_MIXED_CMP(>=)
SYMERR_MIXED_CMP(==)
SYMERR_MIXED_CMP(!=)
///@}
#undef SYMERR_MIXED_CMP

}  // namespace symerr

namespace symerr {
/// isfinite of an enclosure of real values: certainly when it is bounded.
template <RealDomain D>
Truth isfinite(const D& a) {
  return {is_bounded(a) ? Tri::True : Tri::Unknown, "isfinite"};
}
}  // namespace symerr
