// sin(x), cos(x) and tan(x) (radians) on SymbolicDomainError (C sin, cos,
// tan; ONNX Sin, Cos, Tan).
//
// Propagated error, exact identities (e = f − r):
//   sin(f) − sin(r) = 2·cos((r + f)/2)·sin(e/2),
//   cos(f) − cos(r) = −2·sin((r + f)/2)·sin(e/2),
//   tan(f) − tan(r) = sin(e) / (cos(r)·cos(f)),
// with (r + f)/2 over the enclosures' sum (any r, f in them: sound).
// Introduced error: impl(t) − f(t) under the accuracy model (glibc: 1 ulp).
// Images: neither function is monotone; the image of an interval is the hull
// of its endpoint values and of ±1 wherever it may hold an extremum
// (elementary::trig_range: the arguments are reduced in MPFR with π at enough
// bits for their magnitude, so a huge argument costs more bits, not an error).
// tan increases between its poles π/2 + kπ: the image of an interval without
// one is the directed endpoint values; an interval that may hold a pole
// (decided as for the extrema) has the whole line as image — the rounding
// then flags ±inf and overflow — and its real tan is undefined there.
// IEEE 754 / C Annex F: sin(±0) = ±0, cos(±0) = 1, tan(±0) = ±0,
// sin(±inf) = cos(±inf) = tan(±inf) = NaN.
// In the Affine domain they are linearised on operand ranges that lie
// between two inflection points around one (trig_shape, linearise.hpp:
// narrower than about π; sin's and cos's irrational inflection points are
// bracketed by doubles); wider ranges keep the interval image.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

// Relational domains: the linearisation shape for the hull of the operand's
// real and computed ranges.
template <RealDomain D>
void relational_shape(UnaryParts<D>& p, const SymbolicDomainError<D>& x) {
  if constexpr (Relational<D>) {
    if (is_bounded(x.real) && is_bounded(x.fp))
      p.own_shape = trig_shape(p.fn, std::min(x.real.lower(), x.fp.lower()), std::max(x.real.upper(), x.fp.upper()));
  } else {
    (void)p, (void)x;
  }
}

template <RealDomain D>
D trig_image(OpId f, const D& a) {
  if (!is_bounded(a)) return D::between(-1, 1);
  const TrigRange r = trig_range(f, a.lower(), a.upper());
  return D::between(r.lo, r.hi);
}

template <RealDomain D>
UnaryParts<D> trig_parts(const SymbolicDomainError<D>& x, OpId fn) {
  UnaryParts<D> p;
  p.fn = fn;
  p.has_inputs = true;
  p.inputs = x.fp;
  p.image = trig_image(fn, x.fp);
  p.has_real = true;
  p.real = trig_image(fn, x.real);
  const D half = D::point(0.5);
  const D mid = trig_image(fn == OpId::Sin ? OpId::Cos : OpId::Sin, (x.real + x.fp) * half);
  const D s = trig_image(OpId::Sin, x.err * half);
  p.propagated = (fn == OpId::Sin ? D::point(2) : D::point(-2)) * mid * s;
  p.at_pos_inf = p.at_neg_inf = NAN;
  p.odd_zero = fn == OpId::Sin;
  relational_shape(p, x);
  return p;
}

template <RealDomain D>
D tan_image(const D& a) {
  if (!is_bounded(a)) return D::whole();
  const TrigRange r = tan_range(a.lower(), a.upper());
  return D::between(r.lo, r.hi);
}

template <RealDomain D>
UnaryParts<D> tan_parts(const SymbolicDomainError<D>& x) {
  UnaryParts<D> p;
  p.fn = OpId::Tan;
  p.has_inputs = p.has_real = true;
  p.inputs = x.fp;
  p.image = tan_image(x.fp);
  p.real = tan_image(x.real);
  p.undefined_real = !is_bounded(p.real);  // a real input may be a pole
  p.propagated = trig_image(OpId::Sin, x.err) / (trig_image(OpId::Cos, x.real) * trig_image(OpId::Cos, x.fp));
  p.at_pos_inf = p.at_neg_inf = NAN;
  p.odd_zero = true;
  relational_shape(p, x);
  return p;
}

}  // namespace elementary

/// tan(x) (radians; an interval holding a pole gives an unbounded range) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> tan(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::tan_parts(x), model),
                                 [&](const SymbolicDomainError<D>& v) { return tan(v, model); });
}

/// sin(x) (radians) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> sin(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::trig_parts(x, OpId::Sin), model),
                                 [&](const SymbolicDomainError<D>& v) { return sin(v, model); });
}

/// cos(x) (radians) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> cos(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  return elementary::split_whole(x, elementary::finish(x, elementary::trig_parts(x, OpId::Cos), model),
                                 [&](const SymbolicDomainError<D>& v) { return cos(v, model); });
}

}  // namespace symerr
