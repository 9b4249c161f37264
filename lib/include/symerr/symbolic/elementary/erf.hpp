// erf(x) on SymbolicDomainError.
//
// Propagated error, mean value (no closed identity; e = f − r, ξ between r and f):
//   erf(f) − erf(r) = erf'(ξ) · e,  erf'(ξ) = 2/√π · exp(−ξ²),  ξ ∈ hull(real, fp).
// Introduced error: impl(t) − erf(t) under the accuracy model.
// IEEE 754 / C Annex F: erf(±0) = ±0, erf(±inf) = ±1.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

template <RealDomain D>
SymbolicDomainError<D> erf(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Erf, elementary::erf_d);
  p.propagated = elementary::erf_slope_image(hull(x.real, x.fp)) * x.err;
  p.shape = &elementary::erf_shape;
  p.at_pos_inf = 1.0;
  p.at_neg_inf = -1.0;
  p.odd_zero = true;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return erf(v, model); });
}

}  // namespace symerr
