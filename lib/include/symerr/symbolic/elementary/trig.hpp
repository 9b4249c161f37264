// sin(x) and cos(x) (radians) on SymbolicDomainError (C sin, cos; ONNX Sin,
// Cos).
//
// Propagated error, exact identities (e = f − r):
//   sin(f) − sin(r) = 2·cos((r + f)/2)·sin(e/2),
//   cos(f) − cos(r) = −2·sin((r + f)/2)·sin(e/2),
// with (r + f)/2 over the enclosures' sum (any r, f in them: sound).
// Introduced error: impl(t) − f(t) under the accuracy model (glibc: 1 ulp).
// Images: neither function is monotone; the image of an interval is the hull
// of its endpoint values and of ±1 wherever it may hold an extremum
// (elementary::trig_range: the arguments are reduced in MPFR with π at enough
// bits for their magnitude, so a huge argument costs more bits, not an error).
// IEEE 754 / C Annex F: sin(±0) = ±0, cos(±0) = 1, sin(±inf) = cos(±inf) = NaN.
// Not linearised in the Affine domain (an interval image, like pow): the
// linearisation shapes assume at most one inflection point.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {
namespace elementary {

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
  return p;
}

}  // namespace elementary

template <RealDomain D>
SymbolicDomainError<D> sin(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  return elementary::split_whole(x, elementary::finish(x, elementary::trig_parts(x, OpId::Sin), model),
                                 [&](const SymbolicDomainError<D>& v) { return sin(v, model); });
}

template <RealDomain D>
SymbolicDomainError<D> cos(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  return elementary::split_whole(x, elementary::finish(x, elementary::trig_parts(x, OpId::Cos), model),
                                 [&](const SymbolicDomainError<D>& v) { return cos(v, model); });
}

}  // namespace symerr
