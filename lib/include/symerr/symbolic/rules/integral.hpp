// Rounding to an integral value: floor, ceil, trunc, round (C: ties away
// from zero) and rint/nearbyint (the value's rounding mode: nearest-even by
// default, ONNX Round). The computed result is exact (an integral value of a
// float format is a value of that format), so nothing is introduced by the
// operation itself; what moves is the error, because g is discontinuous.
//
// Error identity (exact): err_z = g(fp_x) − g(real_x), an integer, enclosed
// through e = fp_x − real_x by
//   floor, ceil:       g(r + e) − g(r) ∈ [floor(e), ceil(e)]
//                      (floor(r + e) ∈ {floor(r) + floor(e), floor(r) + floor(e) + 1});
//   nearest (any tie): |g(v) − v| <= 1/2, so g(r + e) − g(r) ∈ [ceil(e − 1), floor(e + 1)];
//   trunc:             non-decreasing, jumps of 1 at the nonzero integers (none
//                      at 0): for e >= 0, g(r + e) − g(r) ∈ [max(0, floor(e) − 1),
//                      ceil(e)] (trunc = floor + c, c ∈ {0, 1} being 1 on the
//                      negative non-integers; c_b − c_a = 1 needs a integer and b
//                      not, so floor(b) − a + 1 = ceil(e)), for e < 0 the mirror
//                      [floor(e), min(0, ceil(e) + 1)];
// each intersected with g(fp) − g(real) over the ranges (0 where both ranges
// lie between the same two switch points), and e = 0 gives 0. The split
// likewise: propagated g(pr) − g(r), introduced g(f) − g(pr).
// Special values: NaN → NaN, ±inf → ±inf, a zero result keeps the operand's
// sign (floor(−0) = −0, ceil(−0.5) = −0, round(0.3) = +0). Not defined on
// integer formats (std::invalid_argument naming the format).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic.hpp>  // SymbolicDomainError and the driver's helpers (actual_real, FpGuardFor)

namespace symerr {

namespace detail {

enum class Integral { Floor, Ceil, Trunc, NearestEven, NearestAway };

inline double integral_value(Integral k, double v) {  // exact on doubles, any rounding mode
  switch (k) {
    case Integral::Floor: return std::floor(v);
    case Integral::Ceil: return std::ceil(v);
    case Integral::Trunc: return std::trunc(v);
    case Integral::NearestAway: return std::round(v);
    case Integral::NearestEven: {
      if (!std::isfinite(v)) return v;
      const double f = std::floor(v), d = v - f;  // exact
      const double r = d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0) ? f + 1 : f;
      return r == 0 ? std::copysign(0.0, v) : r;  // nearbyint(−0.3) = −0
    }
  }
  return v;
}

// {g(v) : v ∈ a} for the non-decreasing g.
template <RealDomain D>
D integral_image(Integral k, const D& a) {
  return D::between(integral_value(k, a.lower()), integral_value(k, a.upper()));
}

// An enclosure of g(b) − g(a) from one of b − a (see the header comment).
template <RealDomain D>
D integral_difference(Integral k, const D& b_minus_a) {
  const double lo = b_minus_a.lower(), hi = b_minus_a.upper();
  if (lo == 0 && hi == 0) return D::point(0);
  if (!std::isfinite(lo) || !std::isfinite(hi)) return D::whole();
  switch (k) {
    case Integral::Floor:
    case Integral::Ceil: return D::between(std::floor(lo), std::ceil(hi));
    case Integral::Trunc:
      return D::between(lo < 0 ? std::floor(lo) : std::max(0.0, std::floor(lo) - 1),
                        hi > 0 ? std::ceil(hi) : std::min(0.0, std::ceil(hi) + 1));
    case Integral::NearestEven:
    case Integral::NearestAway:
      return D::between(std::ceil(std::nextafter(lo - 1, -INFINITY)), std::floor(std::nextafter(hi + 1, INFINITY)));
  }
  return D::whole();
}

inline Integral integral_of_mode(RoundingMode m) {
  switch (m) {
    case RoundingMode::NearestEven: return Integral::NearestEven;
    case RoundingMode::TowardZero: return Integral::Trunc;
    case RoundingMode::Upward: return Integral::Ceil;
    case RoundingMode::Downward: return Integral::Floor;
  }
  return Integral::NearestEven;
}

template <RealDomain D>
SymbolicDomainError<D> integral(const SymbolicDomainError<D>& x, Integral k, const char* name) {
  if (x.is_integer())
    throw std::invalid_argument(std::string(name) + ": not defined on integer format " + format_name(x.format));
  [[maybe_unused]] const FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeIntegral + static_cast<std::uint32_t>(k), x);  // another quantity
  z.real = integral_image(k, x.real);
  z.fp = integral_image(k, x.fp);
  const D pr = actual_real(x), g_pr = integral_image(k, pr);
  const bool finite = is_bounded(z.real) && is_bounded(z.fp) && is_bounded(g_pr);
  z.err = integral_difference(k, x.err);
  z.propagated = integral_difference(k, x.propagated);
  z.introduced = integral_difference(k, x.introduced);
  if (finite) {
    z.err = meet(z.err, z.fp - z.real);
    z.propagated = meet(z.propagated, g_pr - z.real);
    z.introduced = meet(z.introduced, z.fp - g_pr);
  }
  z.err = meet(z.err, z.propagated + z.introduced);
  SpecialStates& s = z.specials;
  const bool zero = s.may_be_finite && contains(z.fp, 0.0);
  s.may_be_neg_zero = zero && (x.fp.lower() < 0 || x.specials.may_be_neg_zero);
  s.may_be_pos_zero = zero && (x.fp.upper() > 0 || x.specials.may_be_pos_zero);
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

}  // namespace detail

///@{
/// Rounding to an integral value in the value's format: toward −inf (floor), +inf
/// (ceil) or zero (trunc); exact (no rounding error is introduced).
template <RealDomain D>
SymbolicDomainError<D> floor(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::Integral::Floor, "floor");
}
template <RealDomain D>
SymbolicDomainError<D> ceil(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::Integral::Ceil, "ceil");
}
template <RealDomain D>
SymbolicDomainError<D> trunc(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::Integral::Trunc, "trunc");
}
///@}
/// C round: to nearest, ties away from zero, whatever the rounding mode.
template <RealDomain D>
SymbolicDomainError<D> round(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::Integral::NearestAway, "round");
}
///@{
/// C rint / nearbyint: in the value's rounding mode (x.mode; nearest-even by
/// default, as ONNX Round).
template <RealDomain D>
SymbolicDomainError<D> rint(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::integral_of_mode(x.mode), "rint");
}
template <RealDomain D>
SymbolicDomainError<D> nearbyint(const SymbolicDomainError<D>& x) {
  return detail::integral(x, detail::integral_of_mode(x.mode), "nearbyint");
}
///@}

// lrint, llrint, lround, llround: <symerr/symbolic/dropin.hpp> (plain integers).

}  // namespace symerr
