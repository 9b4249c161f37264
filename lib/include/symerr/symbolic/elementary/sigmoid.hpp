// sigmoid(x) = 1 / (1 + exp(−x)) on SymbolicDomainError (the ONNX Sigmoid
// operator; no std counterpart).
//
// Propagated error, exact identity (sigmoid(x) = (1 + tanh(x/2)) / 2, e = f − r):
//   sigmoid(f) − sigmoid(r) = sinh(e/2) / (2 · cosh(r/2) · cosh(f/2)).
// Introduced error: impl(t) − sigmoid(t) under the accuracy model (libm has
// no sigmoid: the glibc table has no entry, a model must be set explicitly).
// Special values: sigmoid(+inf) = 1, sigmoid(−inf) = +0, sigmoid(±0) = ½;
// saturation: results round to 1 for large t and underflow to +0 for very
// negative t (fp and the zero flag say so).
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

template <RealDomain D>
SymbolicDomainError<D> sigmoid(const SymbolicDomainError<D>& x,
                               const AccuracyModel& model = current_accuracy_model()) {
  auto p = elementary::whole_line_parts(x, ElementaryFunction::Sigmoid, elementary::sigmoid_d);
  const D half = D::point(0.5);
  p.propagated = elementary::sinh_image(x.err * half) /
                 (D::point(2) * elementary::cosh_image(x.real * half) * elementary::cosh_image(x.fp * half));
  p.shape = &elementary::sigmoid_shape;
  p.at_pos_inf = 1.0;
  p.at_neg_inf = 0.0;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return sigmoid(v, model); });
}

}  // namespace symerr
