// erf(x) and erfc(x) = 1 − erf(x) on SymbolicDomainError.
//
// Propagated error, mean value (no closed identity; e = f − r, ξ between r and f):
//   erf(f) − erf(r) = erf'(ξ) · e,  erf'(ξ) = 2/√π · exp(−ξ²),  ξ ∈ hull(real, fp);
//   erfc(f) − erfc(r) = −erf'(ξ) · e;
// relative (erf): between 0 and the operand's (common.hpp, contracted_relative).
// Introduced error: impl(t) − erf(t) (erfc(t)) under the accuracy model;
// erfc underflows (FP64 beyond t ≈ 26.5, FP32 ≈ 10.05), where the model's
// k ulps are those of the subnormal result.
// IEEE 754 / C Annex F: erf(±0) = ±0, erf(±inf) = ±1; erfc(+inf) = +0,
// erfc(−inf) = 2, erfc(±0) = 1 (erfc is positive: a zero result is +0).
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

/// The error function erf(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> erf(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Erf, elementary::erf_d);
  p.propagated = elementary::erf_slope_image(hull(x.real, x.fp)) * x.err;
  p.rel_propagated = elementary::contracted_relative(x);
  p.shape = &elementary::erf_shape;
  p.at_pos_inf = 1.0;
  p.at_neg_inf = -1.0;
  p.odd_zero = true;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return erf(v, model); });
}

/// The complementary error function erfc(x) = 1 − erf(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> erfc(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  // decreasing on the whole line (the domain's ends are infinite: every
  // input is in it)
  auto p = elementary::interval_domain_parts(x, ElementaryFunction::Erfc, elementary::directed_d<OpId::Erfc>,
                                             -INFINITY, INFINITY, false, false);
  p.propagated = -elementary::erf_slope_image(hull(x.real, x.fp)) * x.err;
  p.shape = &elementary::erfc_shape;
  p.at_pos_inf = 0.0;
  p.at_neg_inf = 2.0;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return erfc(v, model); });
}

}  // namespace symerr
