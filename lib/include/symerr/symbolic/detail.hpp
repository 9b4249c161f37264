// Building blocks of SymbolicDomainError arithmetic: rounding an enclosure into
// a format, the introduced-error enclosures per format and mode, integer wrap.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <symerr/domains/concept.hpp>
#include <symerr/format.hpp>
#include <symerr/symbolic/fast_format.hpp>

namespace symerr::detail {

template <RealDomain D>
D meet(const D& a, const D& b) {
  auto m = intersect(a, b);
  return m ? *m : a;  // disjoint only when no execution reaches here: any enclosure is sound
}

template <RealDomain D>
D symmetric(double h) {
  return D::between(-h, h);
}

// The smallest value of F that is >= x / the largest that is <= x (x finite).
inline double format_ceil(double x, const FloatFormat& F) { return round_value(x, F, RoundingMode::Upward); }
inline double format_floor(double x, const FloatFormat& F) { return round_value(x, F, RoundingMode::Downward); }

// Shrink an enclosure of finite values of F to its format-value endpoints.
template <RealDomain D>
D snap_to_format(const D& a, const FloatFormat& F) {
  const double max = max_finite(F);
  double lo = std::max(a.lower(), -max), hi = std::min(a.upper(), max);
  lo = format_ceil(lo, F);
  hi = format_floor(hi, F);
  if (!(lo <= hi)) return a;
  return meet(a, D::between(lo, hi));  // = [lo, hi] ⊆ a; a correlated domain keeps a's form
}

template <RealDomain D>
D snap_to_integers(const D& a, const IntFormat& I) {
  double lo = std::ceil(a.lower()), hi = std::floor(a.upper());
  lo = std::max(lo, static_cast<double>(I.min_value()));
  hi = std::min(hi, static_cast<double>(I.max_value()));
  if (!(lo <= hi)) return a;
  return meet(a, D::between(lo, hi));  // = [lo, hi] ⊆ a; a correlated domain keeps a's form
}

// round(t) for t in T, into F under mode: the enclosure of the finite results,
// and which special results are possible (IEEE 754 §7.4 overflow).
template <RealDomain D>
struct RoundedEnclosure {
  D fp;
  bool may_be_finite;
  bool may_be_pos_inf;
  bool may_be_neg_inf;
  bool may_overflow;  // |t| may exceed max finite after rounding
};

template <RealDomain D>
RoundedEnclosure<D> round_enclosure(const D& t, const FloatFormat& F, RoundingMode mode) {
  const double max = max_finite(F);
  // Rounding is monotone, so round(T) ⊆ [round(inf T), round(sup T)].
  const double lo = round_value(t.lower(), F, mode);
  const double hi = round_value(t.upper(), F, mode);
  RoundedEnclosure<D> r{D::point(0), lo != INFINITY && hi != -INFINITY, hi == INFINITY,
                        lo == -INFINITY, t.upper() > max || t.lower() < -max};
  if (r.may_be_finite) r.fp = D::between(std::max(lo, -max), std::min(hi, max));
  return r;
}

// Enclosure of the introduced error round(t) − t over t ∈ T, for the results
// that are finite: fp − T intersected with the bound of the mode:
//   RNE: |δ| <= ½ ulp(t) <= ½ ulp(max |T|); (½ ulp(t) <= u·|t| everywhere in the
//        normal range, so it is the tighter of the two bounds in every binade;
//        below the normal range it is the fixed ½ · min subnormal);
//   directed modes: δ in [0, ulp), (−ulp, 0], or sign(δ) = −sign(t) for RTZ,
//        valid while |t| <= max finite (beyond, saturation makes δ unbounded).
template <RealDomain D>
D introduced_float_bound(const D& t, const D& fp, const FloatFormat& F, RoundingMode mode) {
  const D from_rounding = fp - t;
  const double max = max_finite(F);
  double m = std::min(mag(t), max);
  // At |t| = 2^k exactly the rounding is exact, and every other |t| <= 2^k
  // lies in a lower binade: the top binade's ulp is never reached.
  if (m > min_normal(F) && is_power_of_two(m)) m = std::nextafter(m, 0.0);
  const double u = ulp_of(m, F);
  // ½ ulp, rounded up: half of FP64's smallest subnormal is not a double.
  const double half = (u / 2) * 2 == u ? u / 2 : u;
  if (mode == RoundingMode::NearestEven) return meet(from_rounding, symmetric<D>(half));
  if (mag(t) > max) return from_rounding;
  switch (mode) {
    case RoundingMode::Upward: return meet(from_rounding, D::between(0, u));
    case RoundingMode::Downward: return meet(from_rounding, D::between(-u, 0));
    default:
      if (t.lower() >= 0) return meet(from_rounding, D::between(-u, 0));
      if (t.upper() <= 0) return meet(from_rounding, D::between(0, u));
      return meet(from_rounding, symmetric<D>(u));
  }
}

// Customisation point (found by ADL) for domains whose values share noise
// symbols (Affine): name the rounding error round(t) − t, a function of t, so
// that identical operations on identical operands share it. The default keeps
// the enclosure.
template <RealDomain D>
D name_rounding_error(const D&, const FloatFormat&, RoundingMode, const D& bound) {
  return bound;
}

template <RealDomain D>
D introduced_float(const D& t, const D& fp, const FloatFormat& F, RoundingMode mode) {
  return name_rounding_error(t, F, mode, introduced_float_bound(t, fp, F, mode));
}

// Add/Sub of values of F is exact when the exact sum is a multiple of the
// smaller quantum q that needs at most p significant bits: every x ∈ X is a
// multiple of ulp(mig X), so x ± y is a multiple of q = min(ulp(mig X), ulp(mig Y)),
// and |t| <= 2^p · q makes it representable. This covers Sterbenz's lemma and
// subnormal addition (Hauser 1996).
template <RealDomain D>
bool sum_is_exact(const D& x, const D& y, const D& t, const FloatFormat& F) {
  if (!is_bounded(t)) return false;
  const double q = std::min(ulp_of(mig(x), F), ulp_of(mig(y), F));
  return mag(t) <= std::ldexp(q, F.precision) && mag(t) <= max_finite(F);
}

// x · 2^k and x / 2^k are exact when no result leaves the normal range.
template <RealDomain D>
bool power_of_two_point(const D& a) {
  return is_point(a) && is_power_of_two(a.lower());
}

template <RealDomain D>
bool scaling_is_exact(const D& t, const FloatFormat& F) {
  return mig(t) >= min_normal(F) && mag(t) <= max_finite(F);
}

// x · 2^k with k >= 0 is exact whenever it does not overflow (subnormals
// included: the significand's bits are kept).
template <RealDomain D>
bool upscaling_is_exact(const D& x, const D& y, const D& t, const FloatFormat& F) {
  const bool x_up = power_of_two_point(x) && mag(x) >= 1, y_up = power_of_two_point(y) && mag(y) >= 1;
  return (x_up || y_up) && is_bounded(t) && mag(t) <= max_finite(F);
}

// The wrap-around of integer results Q (integer-valued enclosure) into I: the
// wrapped enclosure and the introduced error −k·2^n.
template <RealDomain D>
struct Wrapped {
  D fp;
  D introduced;
};

template <RealDomain D>
Wrapped<D> wrap_integers(const D& q, const IntFormat& I) {
  const double lo = q.lower(), hi = q.upper();
  const double min = static_cast<double>(I.min_value()), max = static_cast<double>(I.max_value());
  if (lo >= min && hi <= max) return {q, D::point(0)};
  const double M = std::ldexp(1.0, I.bits);
  if (!std::isfinite(lo) || !std::isfinite(hi))
    return {D::between(min, max), D::whole()};
  // k = floor((v − min) / M); widened by one where doubles are not exact.
  double k_lo = std::floor((lo - min) / M), k_hi = std::floor((hi - min) / M);
  if (std::fabs(lo) >= 0x1p52 || std::fabs(hi) >= 0x1p52) { k_lo -= 1; k_hi += 1; }
  if (k_lo == k_hi) {
    const D shift = D::point(k_lo * M);
    return {meet(q - shift, D::between(min, max)), -shift};
  }
  return {D::between(min, max), D::between(-k_hi * M, -k_lo * M)};
}

}  // namespace symerr::detail
