// Relative errors carried through operations.
//
// rel_err encloses (f − r)/r for the executions with r ≠ 0. Recomputed after
// each operation as err / real, it loses what a numerical analyst writes
// down first: a product, a quotient, a square root or an exponential
// multiplies the relative errors of its operands, and a sum of terms of one
// sign has a relative error between theirs. With fp = real·(1 + r) for each
// operand, and round(t) = t·(1 + ρ) for the result's rounding, the exact
// identities are
//   x · y:   (1 + r_x)(1 + r_y) − 1
//   x / y:   (r_x − r_y) / (1 + r_y)
//   x ± y:   w·r_x + (1 − w)·r_y with w = real_x / real_z ∈ [0, 1], when
//            real_x and ±real_y have one sign (no cancellation): in hull(r_x, r_y)
//   √x:      r / (√(1 + r) + 1)
//   exp(x):  expm1(e_x)            (independent of the value)
// and then (1 + rel_t)(1 + ρ) − 1 for the rounding; |ρ| <= 2^−p under
// round-to-nearest and < 2^(1−p) in the directed modes while t is a normal
// number no larger than the largest finite one (else ρ ∈ (round(t) − t)/t).
// The reduction then intersects err with rel_err · real (construct.hpp), so
// a quotient of two sums of positive terms (a softmax, a normalisation)
// keeps an error proportional to its value instead of to the widest
// product of the operands' ranges.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <utility>

#include <symerr/domain/concept.hpp>
#include <symerr/format.hpp>
#include <symerr/symbolic/detail.hpp>

namespace symerr::detail {

template <RealDomain D>
bool is_exact_zero(const D& a) {
  return a.lower() == 0 && a.upper() == 0;
}

// The largest |ρ| of a rounding in format F and mode `mode` of a normal
// number: 2^−p (nearest), 2^(1−p) (directed).
inline double relative_rounding_bound(const FloatFormat& F, RoundingMode mode) {
  return std::ldexp(1.0, mode == RoundingMode::NearestEven ? -F.precision : 1 - F.precision);
}

// ρ = v/t − 1 for t ∈ T, given v − t ∈ rounding, where |ρ| <= `bound` for a
// normal t no larger than F's largest finite value (else only the quotient).
// Whole if T may hold 0 (with F null, a real-format result: no rounding).
template <RealDomain D>
D relative_rounding(const D& t, const D& rounding, const FloatFormat* F, double bound) {
  if (is_exact_zero(rounding)) return D::point(0);
  if (!F || !is_bounded(t) || !is_bounded(rounding) || !(t.lower() > 0 || t.upper() < 0)) return D::whole();
  D q = rounding / t;
  if (std::isfinite(bound) && mig(t) >= min_normal(*F) && mag(t) <= max_finite(*F)) q = meet(q, symmetric<D>(bound));
  return q;
}

// ρ = round(t)/t − 1 of a rounding in F and `mode`.
template <RealDomain D>
D relative_rounding(const D& t, const D& rounding, const FloatFormat* F, RoundingMode mode) {
  return relative_rounding(t, rounding, F, F ? relative_rounding_bound(*F, mode) : INFINITY);
}

// (1 + a)(1 + b) − 1: a relative error a followed by a relative error b.
template <RealDomain D>
D compose_relative(const D& a, const D& b) {
  if (!is_bounded(a) || !is_bounded(b)) return D::whole();
  if (is_exact_zero(b)) return a;
  if (is_exact_zero(a)) return b;
  return a + b + a * b;
}

// rel_err of the sum real_x + s·real_y (s = ±1) from the operands' relative
// errors: the weighted mean of r_x and r_y when real_x and s·real_y are
// certainly of one sign and nonzero; whole otherwise (a cancellation).
template <RealDomain D>
D relative_of_sum(const D& real_x, const D& real_y, const D& r_x, const D& r_y, bool subtract) {
  const bool y_pos = subtract ? real_y.upper() < 0 : real_y.lower() > 0;
  const bool y_neg = subtract ? real_y.lower() > 0 : real_y.upper() < 0;
  if ((real_x.lower() > 0 && y_pos) || (real_x.upper() < 0 && y_neg)) return hull(r_x, r_y);
  return D::whole();
}

// The range {a·b : a ∈ A, b ∈ B} of two bounded values, widened outward by
// one ulp (each product is rounded to nearest: off by at most half an ulp).
template <RealDomain D>
std::pair<double, double> range_product(const D& a, const D& b) {
  const double c[4] = {a.lower() * b.lower(), a.lower() * b.upper(), a.upper() * b.lower(), a.upper() * b.upper()};
  double lo = c[0], hi = c[0];
  for (double v : c) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {std::nextafter(lo, -INFINITY), std::nextafter(hi, INFINITY)};
}

// a with its range intersected with [lo, hi], its form kept: clip() where the
// domain has it (Affine: an intersection with a fresh interval may keep the
// interval's form instead, and lose a's correlations), else the meet.
template <RealDomain D>
D clip_range(const D& a, double lo, double hi) {
  if constexpr (requires { { clip(a, lo, hi) } -> std::same_as<D>; }) return clip(a, lo, hi);
  else return meet(a, D::between(lo, hi));
}

}  // namespace symerr::detail
