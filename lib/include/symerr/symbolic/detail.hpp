// Building blocks of SymbolicDomainError arithmetic: rounding an enclosure into
// a format, the introduced-error enclosures per format and mode, integer wrap.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <gmpxx.h>

#include <symerr/domain/concept.hpp>
#include <symerr/format.hpp>
#include <symerr/fp_environment.hpp>
#include <symerr/symbolic/fast_format.hpp>

namespace symerr::detail {

// A domain whose operations assume an environment set up by their caller (the
// one-scope Interval path's local domain, which runs under FE_UPWARD) says so
// by specializing this to true; every other domain's symbolic operations hold
// an FpEnvironmentGuard.
template <class D>
inline constexpr bool domain_owns_fp_environment = false;

template <class D>
struct FpGuardFor {
  FpEnvironmentGuard guard;
};
template <class D>
  requires domain_owns_fp_environment<D>
struct FpGuardFor<D> {};

// sign(v − n), exactly, for an integer-valued finite double v (the 64-bit
// bounds are not doubles: double(INT64_MAX) is 2^63).
inline int compare_int(double v, __int128 n) noexcept {
  if (v < -0x1p126) return -1;
  if (v > 0x1p126) return 1;
  const __int128 iv = static_cast<__int128>(v);  // exact: v is an integer
  return iv < n ? -1 : (iv > n ? 1 : 0);
}

// The integer bounds of I as doubles, outward: min is a power of two (exact),
// max is 2^n − 1 or 2^(n−1) − 1, rounded up for n > 53.
inline double int_min(const IntFormat& I) noexcept { return I.is_signed ? -pow2(I.bits - 1) : 0.0; }
inline double int_max_up(const IntFormat& I) noexcept {
  const int n = I.is_signed ? I.bits - 1 : I.bits;
  return n > 53 ? pow2(n) : pow2(n) - 1.0;
}

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
  lo = std::max(lo, int_min(I));
  hi = std::min(hi, int_max_up(I));
  if (!(lo <= hi)) return a;
  return meet(a, D::between(lo, hi));  // = [lo, hi] ⊆ a; a correlated domain keeps a's form
}

// round(t) for t in T, into F under mode: the enclosure of the finite results,
// and which special results are possible (IEEE 754 §7.4 overflow, or the
// format's Saturate / NaN overflow).
template <RealDomain D>
struct RoundedEnclosure {
  D fp;
  bool may_be_finite;
  bool may_be_pos_inf;
  bool may_be_neg_inf;
  bool may_overflow;  // |t| may exceed max finite after rounding
  bool may_be_nan = false;
};

template <RealDomain D>
RoundedEnclosure<D> round_enclosure(const D& t, const FloatFormat& F, RoundingMode mode) {
  const double max = max_finite(F);
  const bool beyond = t.upper() > max || t.lower() < -max;
  if (F.has_infinities()) {
    // Rounding is monotone, so round(T) ⊆ [round(inf T), round(sup T)].
    const double lo = round_value(t.lower(), F, mode);
    const double hi = round_value(t.upper(), F, mode);
    RoundedEnclosure<D> r{D::point(0), lo != INFINITY && hi != -INFINITY, hi == INFINITY,
                          lo == -INFINITY, beyond};
    if (r.may_be_finite) r.fp = D::between(std::max(lo, -max), std::min(hi, max));
    return r;
  }
  // No infinities: an overflow (an infinite endpoint included) gives ±max
  // (Saturate) or NaN. The finite results lie between the roundings of the
  // endpoints clamped to [−max, max] (monotonicity again).
  auto overflows = [&](double v) { return std::isinf(v) || (std::fabs(v) > max && round_to(v, F, mode).overflow); };
  const bool lo_over = overflows(t.lower()), hi_over = overflows(t.upper());
  RoundedEnclosure<D> r{D::point(0), true, false, false, beyond || lo_over || hi_over};
  if (F.overflow == Overflow::NaN) {
    r.may_be_nan = lo_over || hi_over;
    r.may_be_finite = !(lo_over && t.lower() > 0) && !(hi_over && t.upper() < 0);
  }
  if (r.may_be_finite) {
    const double lo = round_value(std::min(std::max(t.lower(), -max), max), F, mode);
    const double hi = round_value(std::max(std::min(t.upper(), max), -max), F, mode);
    r.fp = D::between(lo, hi);
  }
  return r;
}

// Enclosure of the introduced error round(t) − t over t ∈ T, for the results
// that are finite: fp − T intersected with the bound of the mode:
//   RNE: |δ| <= ½ ulp(t) <= ½ ulp(max |T|); (½ ulp(t) <= u·|t| everywhere in the
//        normal range, so it is the tighter of the two bounds in every binade;
//        below the normal range it is the fixed ½ · min subnormal);
//   directed modes: δ in [0, ulp), (−ulp, 0], or sign(δ) = −sign(t) for RTZ,
//        valid while |t| <= max finite (beyond, saturation makes δ unbounded).
//   Without subnormals the spacing below the normal range is 2^emin itself
//   (the values there are 0 and ±2^emin).
//   Saturating formats: beyond max finite δ is unbounded (fp − T only).
template <RealDomain D>
D introduced_float_bound(const D& t, const D& fp, const FloatFormat& F, RoundingMode mode) {
  const D from_rounding = fp - t;
  const double max = max_finite(F);
  if (F.overflow == Overflow::Saturate && mag(t) > max) return from_rounding;
  double m = std::min(mag(t), max);
  // At |t| = 2^k exactly the rounding is exact, and every other |t| <= 2^k
  // lies in a lower binade: the top binade's ulp is never reached.
  if (m > min_normal(F) && is_power_of_two(m)) m = std::nextafter(m, 0.0);
  double u = ulp_of(m, F);
  if (!F.subnormals && mig(t) < min_normal(F)) u = std::max(u, min_normal(F));
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
// subnormal addition (Hauser 1996). Without subnormals a nonzero multiple of
// q below 2^emin is not a value: exact only if q >= 2^emin or |t| >= 2^emin.
// Precondition: x and y enclose values of F.
template <RealDomain D>
bool sum_is_exact(const D& x, const D& y, const D& t, const FloatFormat& F) {
  if (!is_bounded(t)) return false;
  const double q = std::min(ulp_of(mig(x), F), ulp_of(mig(y), F));
  if (!F.subnormals && q < min_normal(F) && mig(t) < min_normal(F)) return false;
  return mag(t) <= scale_power_of_two(q, F.precision) && mag(t) <= max_finite(F);
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
  const double lo = std::ceil(q.lower()), hi = std::floor(q.upper());
  const D range = D::between(int_min(I), int_max_up(I));
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {range, D::whole()};
  if (lo > hi) return {q, D::point(0)};  // no integer: no execution reaches here
  if (compare_int(lo, I.min_value()) >= 0 && compare_int(hi, I.max_value()) <= 0) return {q, D::point(0)};
  // k = floor((v − min) / 2^n), exactly (GMP; doubles are integers here).
  auto k_of = [&](double v) {
    mpz_class z(v);  // exact: v is an integer-valued double
    z -= mpz_class(int_min(I));
    mpz_fdiv_q_2exp(z.get_mpz_t(), z.get_mpz_t(), static_cast<mp_bitcnt_t>(I.bits));
    return z;
  };
  const mpz_class k_lo = k_of(lo), k_hi = k_of(hi);
  auto shift_of = [&](const mpz_class& k) {
    mpz_class s = k;
    mpz_mul_2exp(s.get_mpz_t(), s.get_mpz_t(), static_cast<mp_bitcnt_t>(I.bits));
    return D::from_rational(mpq_class(s));
  };
  if (k_lo == k_hi) {
    const D shift = shift_of(k_lo);
    return {meet(D::between(lo, hi) - shift, range), -shift};
  }
  return {range, hull(-shift_of(k_hi), -shift_of(k_lo))};
}

// x mod 2^n into [min, max] of I, exactly.
inline mpz_class wrap_exact(const mpz_class& v, const IntFormat& I) {
  mpz_class w;
  mpz_fdiv_r_2exp(w.get_mpz_t(), v.get_mpz_t(), static_cast<mp_bitcnt_t>(I.bits));
  if (I.is_signed && mpz_tstbit(w.get_mpz_t(), static_cast<mp_bitcnt_t>(I.bits - 1))) {
    mpz_class m(1);
    mpz_mul_2exp(m.get_mpz_t(), m.get_mpz_t(), static_cast<mp_bitcnt_t>(I.bits));
    w -= m;
  }
  return w;
}

// The nearest integer to q, ties to even.
inline mpz_class round_half_even(const mpq_class& q) {
  mpz_class n;
  mpz_fdiv_q(n.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  const mpq_class frac = q - mpq_class(n);
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(n.get_mpz_t()))) ++n;
  return n;
}

// The sign of zero a rounding into F can produce from the values of X that
// lie on one side of 0 (`negative` side or positive side): a nonzero value
// rounds to the zero of its own sign. `smallest` is the smallest magnitude
// of a nonzero value of X's format (0 for the real format: arbitrarily small).
template <RealDomain D>
bool side_may_round_to_zero(const D& x, bool negative, double smallest, const FloatFormat& F,
                            RoundingMode mode) {
  if (negative ? !(x.lower() < 0) : !(x.upper() > 0)) return false;
  double nearest = negative ? (x.upper() < 0 ? x.upper() : -smallest) : (x.lower() > 0 ? x.lower() : smallest);
  if (nearest == 0) nearest = negative ? -0x1p-1074 : 0x1p-1074;
  // Monotone rounding: the value nearest 0 gives the result nearest 0.
  return round_value(nearest, F, mode) == 0;
}

// The smallest nonzero magnitude of a value of `format`.
inline double smallest_nonzero(const Format& format) {
  if (auto* F = std::get_if<FloatFormat>(&format)) return min_subnormal(*F);
  if (std::holds_alternative<IntFormat>(format)) return 1.0;
  return 0.0;
}

}  // namespace symerr::detail
