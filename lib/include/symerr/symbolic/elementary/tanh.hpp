// tanh(x) on SymbolicDomainError.
//
// Propagated error, exact identity (e = f − r):
//   tanh(f) − tanh(r) = sinh(e) / (cosh(r) · cosh(f));
// relative: between 0 and the operand's (common.hpp, contracted_relative).
// Introduced error: impl(t) − tanh(t) under the accuracy model.
// IEEE 754 / C Annex F: tanh(±0) = ±0, tanh(±inf) = ±1 (finite results: they
// join fp and err).
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

/// tanh(x) of a symbolic value: propagated error sinh(e) / (cosh(r) · cosh(f)),
/// the introduced error bounded by `model` (default: current_accuracy_model());
/// tanh(±0) = ±0, tanh(±inf) = ±1.
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> tanh(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Tanh, elementary::tanh_d);
  p.propagated = elementary::sinh_image(x.err) / (elementary::cosh_image(x.real) * elementary::cosh_image(x.fp));
  p.rel_propagated = elementary::contracted_relative(x);
  p.shape = &elementary::tanh_shape;
  p.at_pos_inf = 1.0;
  p.at_neg_inf = -1.0;
  p.odd_zero = true;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return tanh(v, model); });
}

}  // namespace symerr
