// pow(x, c) for a real (double) exponent c, and powi(x, n) with the exact
// semantics of repeated multiplication, on SymbolicDomainError.
//
// pow — propagated error, exact identity where r and f have the same strict
// sign (f/r > 0; e = f − r):
//   f^c − r^c = r^c · expm1(c · log1p(e / r)),
// relative: f^c / r^c − 1 = expm1(c · log1p(rel)) with rel = e / r, met with
// the relative error the operand carries (relative.hpp);
// elsewhere, for c >= 1 (x^c is C¹ on the hull of r and f: any sign for an
// integer c, x >= 0 otherwise), the mean value form c·ξ^(c−1)·e with ξ over
// that hull; else the difference of the enclosures of f^c and r^c.
// Introduced error: impl(t) − t^c under the accuracy model.
// Real value: x^c for x > 0; for x < 0 only with c an integer (else undefined);
// 0^c = 0 for c > 0, undefined (pole) for c < 0; x^0 = 1 for every x.
// IEEE 754 / C Annex F (pow): pow(x, ±0) = 1 for every x, even NaN;
// pow(±0, c < 0) = ±inf for odd integer c, +inf otherwise (pole);
// pow(±0, c > 0) = ±0 for odd integer c, +0 otherwise; pow(x < 0, non-integer c)
// = NaN; pow(+inf, c) = +inf (c > 0) / +0 (c < 0); pow(−inf, c) = −inf / −0 for
// odd integer c, +inf / +0 otherwise; overflow to ±inf, underflow to ±0.
//
// powi(x, n): n >= 1: ((x·x)·x)·…·x, n − 1 rounded multiplications, left to
// right; n = 0: the constant 1; n < 0: 1 / powi(x, −n) (one more rounding).
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// {a^c : a ∈ [lo, hi]}, 0 <= lo <= hi (0^c = +inf for c < 0: a limit).
template <RealDomain D>
D positive_power_image(double lo, double hi, double c) {
  lo = std::fabs(lo);  // −0 is +0 here: MPFR's pow(−0, c) has the sign of an odd c
  hi = std::fabs(hi);
  if (c > 0) return D::between(pow_d(lo, c, Dir::Down), pow_d(hi, c, Dir::Up));
  return D::between(pow_d(hi, c, Dir::Down), pow_d(lo, c, Dir::Up));
}

// {a^c : a ∈ A, a^c defined}, with the excluded neighbourhood of 0 given by
// `tiny` (the smallest magnitude considered; 0 for the reals' limits).
// Returns false if the set is empty.
template <RealDomain D>
bool power_image(const D& A, double c, bool integer, bool odd, double tiny, D& out) {
  bool any = false;
  D img = D::point(0);
  const double lo = A.lower(), hi = A.upper();
  if (hi >= tiny && hi >= 0) {
    const double plo = std::max(lo, tiny);
    if (plo <= hi) { img = positive_power_image<D>(plo, hi, c); any = true; }
  }
  if (integer && lo <= -tiny && lo < 0) {
    const double nhi = std::min(hi, -tiny);
    if (lo <= nhi) {
      D m = positive_power_image<D>(-nhi, -lo, c);
      if (odd) m = -m;
      img = any ? hull(img, m) : m;
      any = true;
    }
  }
  out = img;
  return any;
}

}  // namespace elementary

/// x^c for a real (double) exponent c of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> pow(const SymbolicDomainError<D>& x, double c,
                           const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  using namespace elementary;
  if (std::isnan(c)) throw std::invalid_argument("pow: the exponent is NaN");
  if (x.is_integer()) throw std::invalid_argument("pow: not defined on integer format " + format_name(x.format));
  if (c == 0) {  // x^0 = 1, and pow(x, ±0) = 1 even for NaN and ±inf
    SymbolicDomainError<D> one = SymbolicDomainError<D>::constant(1.0, x.format);
    one.mode = x.mode;
    return one;
  }
  const bool integer = std::isinf(c) ? false : std::trunc(c) == c;
  const bool odd = integer && std::fmod(c, 2.0) != 0;
  UnaryParts<D> p;
  p.fn = ElementaryFunction::Pow;
  p.odd_zero = odd;
  p.exponent = c;
  const D& R = x.real;
  const D& FP = x.fp;
  // real: negatives need an integer c; 0 is a pole for c < 0
  p.undefined_real = (!integer && R.lower() < 0) || (c < 0 && contains(R, 0.0));
  p.has_real = power_image<D>(R, c, integer, odd, 0.0, p.real);
  if (c < 0 && p.has_real && contains(R, 0.0)) {  // the image near the pole is unbounded
    p.real = hull(p.real, D::between(odd && R.lower() < 0 ? -INFINITY : 0, INFINITY));
  }
  if (x.specials.may_be_finite) {
    const FloatFormat* F = std::get_if<FloatFormat>(&x.format);
    p.nan_from_finite = !integer && FP.lower() < 0;
    if (c < 0 && contains(FP, 0.0)) {
      p.pos_inf_from_finite = x.specials.may_be_pos_zero || !odd;
      p.neg_inf_from_finite = odd && x.specials.may_be_neg_zero;
    }
    const double tiny = c < 0 ? (F ? F->min_subnormal() : 0.0) : 0.0;
    p.has_inputs = power_image<D>(FP, c, integer, odd, tiny, p.image);
    p.inputs = FP;
  }
  const bool same_sign = (R.lower() > 0 && FP.lower() > 0) || (integer && R.upper() < 0 && FP.upper() < 0);
  if (same_sign && p.has_real) {
    // f^c / r^c − 1 = (1 + rel)^c − 1 (relative.hpp: a power multiplies the
    // relative error's logarithm by c)
    p.rel_propagated = relative_power_image(relative_of(x), D::point(c));
    p.propagated = p.real * p.rel_propagated;
  } else if (p.has_real && c >= 1 && (integer || (R.lower() >= 0 && FP.lower() >= 0))) {
    // mean value: f^c − r^c = c·ξ^(c−1)·e for some ξ between r and f, where
    // x^c is C¹ on the hull of real and fp (a polynomial for integer c; on
    // [0, inf) for c >= 1)
    const D H = hull(R, FP);
    const bool integer_d = integer && std::isfinite(c);
    const bool odd_d = integer_d && std::fmod(c - 1, 2.0) != 0;
    D slope = D::point(0);
    if (power_image<D>(H, c - 1, integer_d, odd_d, 0.0, slope)) p.propagated = D::point(c) * slope * x.err;
  }
  p.at_pos_inf = c > 0 ? INFINITY : 0.0;
  p.at_neg_inf = odd ? (c > 0 ? -INFINITY : -0.0) : (c > 0 ? INFINITY : 0.0);
  return split_whole(x, finish(x, p, model),
                     [&](const SymbolicDomainError<D>& v) { return pow(v, c, model); });
}

// powi(x, n): x·x·…·x (n − 1 products, left to right; the first one a
// square), or 1 / that for n < 0. A function object like sigmoid: a kernel's
// own `powi` (often by repeated squaring: other roundings) is not replaced by
// this one through argument-dependent lookup.
/// powi(x, n): x·x·…·x (n − 1 products, left to right; the first one a square),
/// or 1 / that for n < 0: the roundings of repeated multiplication. A function
/// object, so that argument-dependent lookup never replaces a kernel's own `powi`.
struct PowiFunction {
  /// x to the integer power n (n = 0: the exact constant 1).
  template <RealDomain D>
  SymbolicDomainError<D> operator()(const SymbolicDomainError<D>& x, long n) const {
    if (n == 0) {
      SymbolicDomainError<D> one = SymbolicDomainError<D>::constant(1.0, x.format);
      one.mode = x.mode;
      return one;
    }
    const unsigned long m = n < 0 ? 0UL - static_cast<unsigned long>(n) : static_cast<unsigned long>(n);
    // the first product is x * x of one object: a square (>= 0, arith.hpp)
    SymbolicDomainError<D> y = m >= 2 ? x * x : x;
    for (unsigned long i = 2; i < m; ++i) y = y * x;
    if (n > 0) return y;
    SymbolicDomainError<D> one = SymbolicDomainError<D>::constant(1.0, x.format);
    one.mode = x.mode;
    return one / y;
  }
};
/// The powi function object.
inline constexpr PowiFunction powi{};

}  // namespace symerr
