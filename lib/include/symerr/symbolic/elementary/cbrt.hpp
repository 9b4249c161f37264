// cbrt(x) on SymbolicDomainError (C cbrt, cbrtf).
//
// Propagated error (e = f − r):
//   r and f of the same strict sign (f/r > 0), exact identity
//     cbrt(f) − cbrt(r) = cbrt(r) · expm1(log1p(e / r) / 3),
//   relative: cbrt(f)/cbrt(r) − 1 = expm1(log1p(rel) / 3) (rel: e / r met
//   with the operand's carried relative error, relative.hpp);
//   otherwise (the hull of r and f reaches 0, where cbrt' is unbounded):
//     cbrt(f) − cbrt(r) has the sign of e and |·| <= 2^(2/3) · cbrt(|e|)
//   (for a fixed difference d = a − b >= 0, cbrt(a) − cbrt(b) is largest at
//   b = −a: 2·cbrt(d/2) = 2^(2/3)·cbrt(d)), met with image − real.
// Introduced error: impl(t) − cbrt(t) under the accuracy model (glibc 2.36:
// 4 ulps to nearest in double, 5 upward; 1 ulp in float).
// IEEE 754 / C Annex F: cbrt(±0) = ±0, cbrt(±inf) = ±inf; no overflow, no
// NaN from a finite input. Linearised in the Affine domain (cbrt_shape:
// convex below 0, concave above; the slope is unbounded at 0, where the
// propagated part keeps the bound above), so cbrt(x) − cbrt(x) is 0 there.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

/// The cube root of a symbolic value (C cbrt): the propagated error by the
/// identity of this header's opening comment, the introduced error bounded by
/// `model` (default: the thread's current_accuracy_model()); cbrt(±0) = ±0,
/// cbrt(±inf) = ±inf.
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> cbrt(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  namespace el = elementary;
  auto p = el::whole_line_parts(x, OpId::Cbrt, el::directed_d<OpId::Cbrt>);
  const D& R = x.real;
  const D& FP = x.fp;
  const bool same_sign = (R.lower() > 0 && FP.lower() > 0) || (R.upper() < 0 && FP.upper() < 0);
  if (same_sign) {
    p.rel_propagated = el::relative_power_image(el::relative_of(x), D::point(1) / D::point(3));
    p.propagated = p.real * p.rel_propagated;
  } else if (is_bounded(x.err)) {
    // 2^(2/3) = 1.5874010519681994…, rounded up
    constexpr double k = 0x1.965fea53d6e3dp+0;
    const double lo = x.err.lower() < 0 ? -el::lin::up(k * el::directed(OpId::Cbrt, -x.err.lower(), el::Dir::Up)) : 0.0;
    const double hi = x.err.upper() > 0 ? el::lin::up(k * el::directed(OpId::Cbrt, x.err.upper(), el::Dir::Up)) : 0.0;
    p.propagated = D::between(lo, hi);
  }
  p.shape = &el::cbrt_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = -INFINITY;
  p.odd_zero = true;
  return el::split_whole(x, el::finish(x, p, model), [&](const SymbolicDomainError<D>& v) { return cbrt(v, model); });
}

}  // namespace symerr
