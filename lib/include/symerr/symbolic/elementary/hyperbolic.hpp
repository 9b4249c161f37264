// sinh(x), cosh(x), asinh(x), acosh(x) and atanh(x) on SymbolicDomainError
// (C sinh, cosh, asinh, acosh, atanh; ONNX Sinh, Cosh, Asinh, Acosh, Atanh).
//
// Propagated error (e = f − r), exact identities for sinh and cosh:
//   sinh(f) − sinh(r) = 2·cosh((r + f)/2)·sinh(e/2),
//   cosh(f) − cosh(r) = 2·sinh((r + f)/2)·sinh(e/2),
// with (r + f)/2 over the enclosures' sum; the mean value for the inverses
// (ξ between r and f, over hull(real, fp)):
//   asinh(f) − asinh(r) = e / √(1 + ξ²),
//   acosh(f) − acosh(r) = e / √(ξ² − 1)   (ξ > 1),
//   atanh(f) − atanh(r) = e / (1 − ξ²)    (|ξ| < 1).
// acosh' and atanh' are unbounded at 1 and ±1: when the hull reaches them the
// propagated error is image − real only (finish()).
// Introduced error: impl(t) − f(t) under the accuracy model; sinh and cosh
// overflow to ±inf (flags).
// IEEE 754 / C Annex F: sinh, asinh, atanh keep the sign of a zero;
// cosh(±0) = 1, acosh(1) = +0; sinh(±inf) = ±inf, cosh(±inf) = +inf,
// asinh(±inf) = ±inf, acosh(+inf) = +inf, acosh(x < 1) = NaN (and −inf),
// atanh(±1) = ±inf (poles), atanh(|x| > 1) = NaN (and ±inf). The real acosh
// of r < 1 and atanh of |r| >= 1 are undefined.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// Parts of sinh (odd) or cosh (even): the identity 2·g((r + f)/2)·sinh(e/2),
// g = cosh for sinh, sinh for cosh.
template <RealDomain D>
UnaryParts<D> hyperbolic_parts(const SymbolicDomainError<D>& x, OpId fn) {
  const bool sine = fn == OpId::Sinh;
  UnaryParts<D> p;
  p.fn = fn;
  p.has_inputs = p.has_real = true;
  p.inputs = x.fp;
  p.image = sine ? sinh_image(x.fp) : cosh_image(x.fp);
  p.real = sine ? sinh_image(x.real) : cosh_image(x.real);
  const D half = D::point(0.5), mid = (x.real + x.fp) * half;
  p.propagated = D::point(2) * (sine ? cosh_image(mid) : sinh_image(mid)) * sinh_image(x.err * half);
  p.shape = sine ? &sinh_shape : &cosh_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = sine ? -INFINITY : INFINITY;
  p.odd_zero = sine;
  return p;
}

}  // namespace elementary

/// sinh(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> sinh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::hyperbolic_parts(x, OpId::Sinh), model),
                                 [&](const SymbolicDomainError<D>& v) { return sinh(v, model); });
}

/// cosh(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> cosh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::hyperbolic_parts(x, OpId::Cosh), model),
                                 [&](const SymbolicDomainError<D>& v) { return cosh(v, model); });
}

/// asinh(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> asinh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  namespace el = elementary;
  auto p = el::whole_line_parts(x, OpId::Asinh, el::directed_d<OpId::Asinh>);
  p.propagated = el::even_slope_image(el::shape_detail::asinh_slope, hull(x.real, x.fp), true) * x.err;
  p.rel_propagated = el::contracted_relative(x);  // odd, concave on [0, inf)
  p.shape = &el::asinh_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = -INFINITY;
  p.odd_zero = true;
  return el::split_whole(x, el::finish(x, p, model), [&](const SymbolicDomainError<D>& v) { return asinh(v, model); });
}

/// acosh(x) (defined for x >= 1: a real value below is undefined, a computed one gives NaN) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> acosh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  namespace el = elementary;
  auto p = el::interval_domain_parts(x, OpId::Acosh, el::directed_d<OpId::Acosh>, 1.0, INFINITY, true, false);
  const D h = hull(x.real, x.fp);
  if (p.has_real && is_bounded(h) && h.lower() > 1) {
    using el::Dir;
    p.propagated = D::between(el::shape_detail::acosh_slope(h.upper(), Dir::Down),
                              el::shape_detail::acosh_slope(h.lower(), Dir::Up)) * x.err;
  }
  p.shape = &el::acosh_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = NAN;
  return el::split_whole(x, el::finish(x, p, model), [&](const SymbolicDomainError<D>& v) { return acosh(v, model); });
}

/// atanh(x) (poles at ±1) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> atanh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  namespace el = elementary;
  auto p = el::interval_domain_parts(x, OpId::Atanh, el::directed_d<OpId::Atanh>, -1.0, 1.0, true, true);
  const D h = hull(x.real, x.fp);
  if (p.has_real && is_bounded(h) && mag(h) < 1)
    p.propagated = el::even_slope_image(el::shape_detail::atanh_slope, h, false) * x.err;
  p.shape = &el::atanh_shape;
  p.at_pos_inf = p.at_neg_inf = NAN;
  p.odd_zero = true;
  return el::split_whole(x, el::finish(x, p, model), [&](const SymbolicDomainError<D>& v) { return atanh(v, model); });
}

}  // namespace symerr
