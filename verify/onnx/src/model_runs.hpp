// The three runs of a graph: the FP32 reference runner, the exact runner
// (MPFR, model_exact.hpp) and the symbolic run (SymbolicError), each one
// instantiation of the evaluator in its own translation unit.
#pragma once

#include <symerr/domains/affine.hpp>
#include <symerr/domains/symbolic_interval.hpp>

#include "graph_eval.hpp"
#include "model_exact.hpp"

namespace symerr::onnx::kernels {
/// A real constant c in the symbolic run: real value c, computed value the
/// runner's FP32 constant float(nearest double of c), error their difference.
template <class S>
S symbolic_real_constant(RealConstant c) {
  const float f = static_cast<float>(nearest_double(c));
  const auto [lo, hi] = Exact::real_constant_bounds(c);
  // err = f − c in [f − hi, f − lo], each difference rounded outward
  const double elo = std::nextafter(static_cast<double>(f) - hi, -INFINITY);
  const double ehi = std::nextafter(static_cast<double>(f) - lo, INFINITY);
  return S::computed(f, elo, ehi, FP32);
}
/// Weights and literals of the symbolic run are FP32 values, exact.
template <>
struct ScalarOps<SymbolicError> {
  static SymbolicError constant(double v) { return SymbolicError::constant(v, FP32); }
  static SymbolicError real_constant(RealConstant c) { return symbolic_real_constant<SymbolicError>(c); }
};
/// The same in the Affine domain.
template <>
struct ScalarOps<SymbolicDomainError<Affine>> {
  static SymbolicDomainError<Affine> constant(double v) { return SymbolicDomainError<Affine>::constant(v, FP32); }
  static SymbolicDomainError<Affine> real_constant(RealConstant c) {
    return symbolic_real_constant<SymbolicDomainError<Affine>>(c);
  }
};
}  // namespace symerr::onnx::kernels

namespace symerr::onnx {

/// The FP32 reference runner.
Values<float> run_float(const Graph& g, Values<float> inputs, bool keep_all);
/// The same graph in binary64 (for the directed search's gradient signs).
Values<double> run_double(const Graph& g, Values<double> inputs);
/// The exact runner.
Values<Exact> run_exact(const Graph& g, Values<Exact> inputs, bool keep_all);
/// The symbolic run: enclosures of every tensor, handed to `visit` node by node.
Values<SymbolicError> run_symbolic(const Graph& g, Values<SymbolicError> inputs,
                                   const NodeVisitor<SymbolicError>& visit, bool keep_all);
/// The symbolic run in the Affine domain (an AffineScope must be current).
Values<SymbolicDomainError<Affine>> run_symbolic(const Graph& g, Values<SymbolicDomainError<Affine>> inputs,
                                                 const NodeVisitor<SymbolicDomainError<Affine>>& visit,
                                                 bool keep_all);

}  // namespace symerr::onnx
