// atan(x), asin(x) and acos(x) on SymbolicDomainError (C atan, asin, acos;
// ONNX Atan, Asin, Acos).
//
// Propagated error, mean value (no cheap closed identity; e = f − r, ξ
// between r and f, both in the domain):
//   atan(f) − atan(r) = e / (1 + ξ²),
//   asin(f) − asin(r) = e / √(1 − ξ²),   acos(f) − acos(r) = −e / √(1 − ξ²),
// with ξ over hull(real, fp). asin' and acos' are unbounded at ±1: when the
// hull reaches ±1 the propagated error is image − real only (finish()).
// Introduced error: impl(t) − f(t) under the accuracy model.
// IEEE 754 / C Annex F: atan(±0) = ±0, atan(±inf) = ±π/2 rounded (a finite
// result: any value within the model's bound of ±π/2 joins fp and err; in
// real arithmetic an enclosure of ±π/2);
// asin(±0) = ±0, acos(1) = +0, asin and acos of |x| > 1 or ±inf = NaN; the
// real asin, acos of |r| > 1 are undefined.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// [lo, hi] ⊇ the values of F an implementation within `model` returns for an
// exact result f(arg) (arg = ±inf: atan's ±π/2); without a float format (real
// arithmetic, no rounding) an enclosure of the exact value.
template <RealDomain D>
void limit_under_model(OpId fn, double arg, const SymbolicDomainError<D>& x, const AccuracyModel& model, double& lo,
                       double& hi) {
  const double c_lo = directed(fn, arg, Dir::Down), c_hi = directed(fn, arg, Dir::Up);
  lo = c_lo, hi = c_hi;
  const FloatFormat* F = std::get_if<FloatFormat>(&x.format);
  if (!F) return;
  const UlpBound b = model.bound(fn, *F, x.mode);
  if (b.correctly_rounded) {
    lo = round_to(c_lo, *F, x.mode).value;
    hi = round_to(c_hi, *F, x.mode).value;
    return;
  }
  const double slack = b.ulps * ulp(std::max(std::fabs(c_lo), std::fabs(c_hi)), *F);
  lo = round_to(lin::dn(c_lo - slack), *F, RoundingMode::Upward).value;  // the values of F inside
  hi = round_to(lin::up(c_hi + slack), *F, RoundingMode::Downward).value;
}

// Parts of asin (increasing) or acos (decreasing) on [−1, 1].
template <RealDomain D>
UnaryParts<D> arc_parts(const SymbolicDomainError<D>& x, OpId fn) {
  const bool sine = fn == OpId::Asin;
  auto p = interval_domain_parts(x, fn, sine ? directed_d<OpId::Asin> : directed_d<OpId::Acos>, -1.0, 1.0, sine, false);
  const D h = hull(x.real, x.fp);
  if (p.has_real && is_bounded(h) && mag(h) < 1) {
    const D slope = even_slope_image(shape_detail::asin_slope, h, false);
    p.propagated = (sine ? slope : -slope) * x.err;
  }
  p.shape = sine ? &asin_shape : &acos_shape;
  p.odd_zero = sine;
  return p;
}

}  // namespace elementary

/// atan(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> atan(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::whole_line_parts(x, OpId::Atan, elementary::directed_d<OpId::Atan>);
  p.propagated = elementary::even_slope_image(elementary::shape_detail::atan_slope, hull(x.real, x.fp), true) * x.err;
  p.rel_propagated = elementary::contracted_relative(x);  // odd, concave on [0, inf)
  p.shape = &elementary::atan_shape;
  if (x.specials.may_be_pos_inf)
    elementary::limit_under_model(OpId::Atan, INFINITY, x, model, p.at_pos_inf, p.at_pos_inf_hi);
  if (x.specials.may_be_neg_inf)
    elementary::limit_under_model(OpId::Atan, -INFINITY, x, model, p.at_neg_inf, p.at_neg_inf_hi);
  p.odd_zero = true;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return atan(v, model); });
}

/// asin(x) (defined on [−1, 1]) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> asin(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::arc_parts(x, OpId::Asin), model),
                                 [&](const SymbolicDomainError<D>& v) { return asin(v, model); });
}

/// acos(x) (defined on [−1, 1]) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> acos(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::arc_parts(x, OpId::Acos), model),
                                 [&](const SymbolicDomainError<D>& v) { return acos(v, model); });
}

}  // namespace symerr
