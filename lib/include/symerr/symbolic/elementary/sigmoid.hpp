// sigmoid(x) = 1 / (1 + exp(−x)) on SymbolicDomainError (the ONNX Sigmoid
// operator; no std counterpart).
//
// Propagated error, exact identity (sigmoid(x) = (1 + tanh(x/2)) / 2, e = f − r):
//   sigmoid(f) − sigmoid(r) = sinh(e/2) / (2 · cosh(r/2) · cosh(f/2));
// relative (relative.hpp): with 1 + e^−r = 1 + e^−f · e^e,
//   sigmoid(f) / sigmoid(r) − 1 = expm1(e) · e^−f / (1 + e^−f) = expm1(e) · sigmoid(−f).
// Introduced error: impl(t) − sigmoid(t) under the accuracy model (libm has
// no sigmoid: the glibc table has no entry, a model must be set explicitly).
// Special values: sigmoid(+inf) = 1, sigmoid(−inf) = +0, sigmoid(±0) = ½;
// saturation: results round to 1 for large t and underflow to +0 for very
// negative t (fp and the zero flag say so).
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

namespace elementary {
template <RealDomain D>
SymbolicDomainError<D> sigmoid_operation(const SymbolicDomainError<D>& x, const AccuracyModel& model) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  auto p = whole_line_parts(x, ElementaryFunction::Sigmoid, sigmoid_d);
  const D half = D::point(0.5);
  p.propagated = sinh_image(x.err * half) / (D::point(2) * cosh_image(x.real * half) * cosh_image(x.fp * half));
  // sigmoid(f)/sigmoid(r) − 1 = expm1(e) · (1 − sigmoid(f)) = expm1(e) · sigmoid(−f)
  const D tail = D::between(sigmoid_d(-x.fp.upper(), Dir::Down), sigmoid_d(-x.fp.lower(), Dir::Up));
  p.rel_propagated = increasing_image<D>(expm1_d, x.err) * tail;
  p.shape = &sigmoid_shape;
  p.at_pos_inf = 1.0;
  p.at_neg_inf = 0.0;
  return split_whole(x, finish(x, p, model),
                     [&](const SymbolicDomainError<D>& v) { return sigmoid_operation(v, model); });
}
}  // namespace elementary

/// symerr::sigmoid(x[, model]) is a function object, not a function, so that
/// argument-dependent lookup never finds it: a kernel's own `sigmoid` template
/// (1 / (1 + exp(−x)): an exp, an add and a divide, each rounded) called on a
/// symbolic value runs the kernel's code, not this one-operation model of a
/// sigmoid implementation with the accuracy model's error
/// (tests/elementary/test_adl_names.cpp).
struct SigmoidFunction {
  /// 1 / (1 + exp(−x)) as one operation whose introduced error `model` bounds
  /// (glibc has no sigmoid: the default model throws std::invalid_argument; set
  /// ulps(k) or correctly_rounded()).
  template <RealDomain D>
  SymbolicDomainError<D> operator()(const SymbolicDomainError<D>& x,
                                    const AccuracyModel& model = current_accuracy_model()) const {
    return elementary::sigmoid_operation(x, model);
  }
};
/// The sigmoid function object.
inline constexpr SigmoidFunction sigmoid{};

}  // namespace symerr
