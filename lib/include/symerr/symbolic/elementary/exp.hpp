// exp(x) and expm1(x) on SymbolicDomainError.
//
// Propagated error, exact identity (e = f − r):
//   exp(f) − exp(r) = exp(r) · expm1(e),   expm1(f) − expm1(r) = exp(r) · expm1(e);
// relative: exp(f)/exp(r) − 1 = expm1(e) (relative.hpp).
// Introduced error: impl(t) − exp(t) under the accuracy model.
// IEEE 754 / C Annex F: exp(±0) = 1, exp(+inf) = +inf, exp(−inf) = +0;
// overflow to +inf (flag), underflow through the subnormals to +0;
// expm1(±0) = ±0, expm1(−inf) = −1.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

/// exp(x) of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// Overflow gives +inf (flagged), underflow goes through the subnormals.
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> exp(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Exp, elementary::exp_d);
  p.rel_propagated = elementary::increasing_image<D>(elementary::expm1_d, x.err);
  p.propagated = p.real * p.rel_propagated;
  // relational domains: expm1(e) as a form of e, so the relative errors of
  // exp(x_i − m) share m's error (see relative_form)
  p.rel_propagated = elementary::relative_form(x.err, elementary::expm1_shape, ElementaryFunction::Exp, p.rel_propagated);
  p.relative_form = true;
  p.shape = &elementary::exp_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = 0.0;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return exp(v, model); });
}

/// exp(x) − 1 of a symbolic value: the propagated error by the exact identity
/// of this header's opening comment, the introduced error impl(t) − f(t)
/// bounded by `model` (default: the thread's current_accuracy_model()); IEEE 754
/// special values as C Annex F gives them (NaN, ±inf as flags).
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> expm1(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Expm1, elementary::expm1_d);
  p.propagated = elementary::increasing_image<D>(elementary::exp_d, x.real) *
                 elementary::increasing_image<D>(elementary::expm1_d, x.err);
  p.shape = &elementary::expm1_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = -1.0;
  p.odd_zero = true;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return expm1(v, model); });
}

}  // namespace symerr
