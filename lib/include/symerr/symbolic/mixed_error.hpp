// The mixed relative/absolute error of a value: |f − r| ≤ rel·|r| + abs.
//
// rel_err (relative.hpp) encloses (f − r)/r and is unbounded wherever the
// real value may be 0 — but a product x·y of values near 0 has the error of
// a normal number there, a relative one, except for the absolute error of an
// underflow (at most the subnormal spacing). A sum of such products of one
// sign (Σ x_i², a variance) then has a relative error plus a tiny absolute
// one, and Σ x_i²/n + ε, whose real value is at least ε, a relative error
// again: the normalisations x / √(Σ x_i²/n + ε) get a relative error, where
// the absolute enclosures of Σ x_i² alone lose it (FP32 RMS norm of 4 on
// [−1, 1]: 10^8 times the observed error). The model of each rounding is the
// standard one with underflow: round(t) = t(1 + ρ) + γ, |ρ| ≤ u (2^−p to
// nearest, 2^(1−p) directed) and |γ| ≤ the format's smallest subnormal
// spacing (or its smallest normal without subnormals), for every t whose
// rounding does not overflow.
//
// With fp_x = r_x(1 + α_x) + β_x, |α_x| ≤ rel_x, |β_x| ≤ abs_x (and the same
// for y), the exact identities are
//   x · y:  fp_x·fp_y = r_x r_y (1 + α_x)(1 + α_y) + β_x fp_y + β_y fp_x − β_x β_y
//   x ± y:  r_x α_x ± r_y α_y = r_z (w α_x + (1 − w) α_y), w ∈ [0, 1], when
//           r_x and ±r_y are of one sign (zeros included); otherwise the
//           relative parts are bounded absolutely by rel_x·|r_x| + rel_y·|r_y|
//   x / y:  (r_x(1 + α_x) + β_x) / (r_y(1 + α'_y)) = r_z (1 + α_x)/(1 + α'_y)
//           + β_x / fp_y, with α'_y y's relative error (rel_err)
// and then the rounding: (1 + α)(1 + ρ) − 1 and β(1 + ρ) + γ. Where the real
// value certainly excludes 0, |f − r|/|r| ≤ rel + abs/min|r| bounds rel_err
// (reduce(), construct.hpp).
//
// The pair is stored as two floats rounded up (it fills padding of
// SymbolicError: the size stays 176 bytes). The computations below take the
// domain D of the operation and round each step outward with D's own
// arithmetic on points, so that a result does not depend on the rounding
// mode in force (the Interval hot path runs in an upward scope, the generic
// template in the caller's environment: tests/core/test_symbolic_one_scope.cpp
// holds them equal bit for bit); a domain that keeps correlations (Affine,
// whose points are forms of a context) rounds each step up with nextafter
// instead — as sound, without that reproducibility.
// Unknown: rel = +inf. The operations that do not have one of the identities
// above set the pair from their own enclosures: (|rel_err|, 0) where the
// real value excludes 0, else (0, |err|).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include <concepts>

#include <symerr/format.hpp>
#include <symerr/symbolic/fast_format.hpp>  // pow2

namespace symerr {

/// A mixed error bound: |f − r| <= rel·|r| + abs (see this header's opening comment).
struct MixedError {
  float rel = INFINITY;  ///< |α| bound (+inf: unknown)
  float abs = INFINITY;  ///< |β| bound
  /// Whether both parts are finite.
  bool known() const noexcept { return rel < INFINITY && abs < INFINITY; }
};

namespace detail {

// Upper bounds whatever the rounding mode: an operation's result is within
// one ulp of the exact one, so the next double up bounds it.
inline double up(double v) noexcept { return std::nextafter(v, INFINITY); }
inline double down(double v) noexcept { return std::nextafter(v, -INFINITY); }

// a + b, a · b, a / b rounded up, and a − b rounded down, in D (see above).
// A domain may give the one-sided operations itself (the Interval hot
// path's scope domain: one upward operation each, the same result as its
// operations on points).
template <class D>
constexpr bool mixed_by_nextafter = requires { requires D::keeps_correlations; };
template <class D>
constexpr bool one_sided_ops = requires(double a) { { D::add_up(a, a) } -> std::same_as<double>; };
template <class D>
double add_up(double a, double b) {
  if constexpr (one_sided_ops<D>) return D::add_up(a, b);
  else if constexpr (mixed_by_nextafter<D>) return up(a + b);
  else return (D::point(a) + D::point(b)).upper();
}
template <class D>
double mul_up(double a, double b) {
  if constexpr (one_sided_ops<D>) return D::mul_up(a, b);
  else if constexpr (mixed_by_nextafter<D>) return up(a * b);
  else return (D::point(a) * D::point(b)).upper();
}
template <class D>
double div_up(double a, double b) {
  if constexpr (one_sided_ops<D>) return D::div_up(a, b);
  else if constexpr (mixed_by_nextafter<D>) return up(a / b);
  else return (D::point(a) / D::point(b)).upper();
}
template <class D>
double sub_down(double a, double b) {
  if constexpr (one_sided_ops<D>) return D::sub_down(a, b);
  else if constexpr (mixed_by_nextafter<D>) return down(a - b);
  else return (D::point(a) - D::point(b)).lower();
}
// The smallest float >= v >= 0 (whatever the mode the conversion rounds in;
// one bit step up instead of nextafterf, a library call on the hot path).
inline float float_up(double v) noexcept {
  if (!(v >= 0)) return INFINITY;  // NaN: unknown
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) + 1u);
  return f;
}

// |round(t) − t| ≤ u·|t| + g for a rounding in F and `mode` that does not
// overflow; F null (a real-format result): no rounding.
struct MixedRounding {
  double u = 0, g = 0;
};
inline MixedRounding mixed_rounding(const FloatFormat* F, RoundingMode mode) noexcept {
  if (!F) return {};
  // (F's min_subnormal(), inline: the hot path calls this for every operation)
  return {pow2(mode == RoundingMode::NearestEven ? -F->precision : 1 - F->precision),
          pow2(F->subnormals ? F->emin - F->precision + 1 : F->emin)};
}

// (rel, abs) of t = r(1 + α) + β after the rounding: (1 + α)(1 + ρ) − 1, β(1 + ρ) + γ.
template <class D>
MixedError mixed_rounded(double rel, double abs, MixedRounding rr) {
  if (!(rel < INFINITY) || !(abs < INFINITY)) return {};
  // (exact zeros stay exact: up(0) would be the smallest subnormal)
  const double m = rel == 0 ? rr.u : add_up<D>(add_up<D>(rel, rr.u), mul_up<D>(rel, rr.u));
  const double a = abs == 0 ? rr.g : add_up<D>(add_up<D>(abs, mul_up<D>(abs, rr.u)), rr.g);
  return {float_up(m), float_up(a)};
}

// z = x · y; mag_fp_*: max |fp|.
template <class D>
MixedError mixed_product(MixedError x, MixedError y, double mag_fp_x, double mag_fp_y, MixedRounding rr) {
  if (!x.known() || !y.known() || !(mag_fp_x < INFINITY) || !(mag_fp_y < INFINITY)) return {};
  const double xr = x.rel, yr = y.rel, xa = x.abs, ya = y.abs;
  const double m = (xr == 0 && yr == 0) ? 0.0 : add_up<D>(add_up<D>(xr, yr), mul_up<D>(xr, yr));
  const double a = (xa == 0 && ya == 0)
                       ? 0.0
                       : add_up<D>(add_up<D>(mul_up<D>(xa, mag_fp_y), mul_up<D>(ya, mag_fp_x)), mul_up<D>(xa, ya));
  return mixed_rounded<D>(m, a, rr);
}

// z = x + s·y; one_sign: r_x and s·r_y certainly of one sign (zeros
// allowed); mag_real_*: max |r|.
template <class D>
MixedError mixed_sum(MixedError x, MixedError y, bool one_sign, double mag_real_x, double mag_real_y,
                     MixedRounding rr) {
  if (!x.known() || !y.known()) return {};
  const double xr = x.rel, yr = y.rel;
  double m = 0, a = (x.abs == 0 && y.abs == 0) ? 0.0 : add_up<D>(x.abs, y.abs);
  if (one_sign) {
    m = std::max(xr, yr);
  } else {
    if (!(mag_real_x < INFINITY) || !(mag_real_y < INFINITY)) return {};
    if (xr != 0 || yr != 0) a = add_up<D>(a, add_up<D>(mul_up<D>(xr, mag_real_x), mul_up<D>(yr, mag_real_y)));
  }
  return mixed_rounded<D>(m, a, rr);
}

// z = x / y; rel_y: max |α'_y| (y's rel_err), mig_fp_y: min |fp_y| > 0.
template <class D>
MixedError mixed_quotient(MixedError x, double rel_y, double mig_fp_y, MixedRounding rr) {
  if (!x.known() || !(rel_y < 1) || !(mig_fp_y > 0)) return {};
  const double m = (x.rel == 0 && rel_y == 0) ? 0.0 : div_up<D>(add_up<D>(x.rel, rel_y), sub_down<D>(1, rel_y));
  const double a = x.abs == 0 ? 0.0 : div_up<D>(x.abs, mig_fp_y);
  return mixed_rounded<D>(m, a, rr);
}

// |f − r|/|r| ≤ rel + abs/mig_real for a real value of magnitude ≥ mig_real > 0.
template <class D>
double mixed_relative_bound(MixedError x, double mig_real) {
  if (!x.known() || !(mig_real > 0)) return INFINITY;
  return x.abs == 0 ? static_cast<double>(x.rel) : add_up<D>(x.rel, div_up<D>(x.abs, mig_real));
}

// |f − r| ≤ rel·mag_real + abs.
template <class D>
double mixed_error_bound(MixedError x, double mag_real) {
  if (!x.known() || !(mag_real < INFINITY)) return INFINITY;
  return add_up<D>(mul_up<D>(x.rel, mag_real), x.abs);
}

// The pair a value keeps after its reduction: `rule` (from an identity above,
// or unknown) against the one its own enclosures give — (max|rel_err|, 0)
// when rel_err is bounded and holds for every execution (err_zero, or the
// real value excludes 0: mag_rel finite), else (0, max|err|). A pure relative
// bound is kept over the rule's (it already includes the rule's, see
// reduce()); an absolute one only replaces a rule's absolute one if smaller.
inline MixedError settle_mixed(MixedError rule, bool err_zero, double mag_rel, double mag_err) noexcept {
  if (err_zero) return {0, 0};
  if (mag_rel < INFINITY) return {float_up(mag_rel), 0};
  const MixedError own = mag_err < INFINITY ? MixedError{0, float_up(mag_err)} : MixedError{};
  if (!rule.known()) return own;
  if (rule.rel == 0 && own.known() && own.abs < rule.abs) return own;
  return rule;
}

}  // namespace detail
}  // namespace symerr
