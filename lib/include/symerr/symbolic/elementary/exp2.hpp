// exp2(x) = 2^x on SymbolicDomainError (C99 exp2; ONNX has no Exp2).
//
// Propagated error, exact identity (e = f − r):
//   2^f − 2^r = 2^r · expm1(e · ln 2);
// relative: 2^f / 2^r − 1 = expm1(e · ln 2) (relative.hpp).
// Introduced error: impl(t) − 2^t under the accuracy model.
// IEEE 754 / C Annex F: exp2(±0) = 1, exp2(+inf) = +inf, exp2(−inf) = +0;
// overflow to +inf (flag), underflow through the subnormals to +0.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

/// 2^x of a symbolic value: propagated error 2^r · expm1(e · ln 2), the
/// introduced error bounded by `model` (default: current_accuracy_model());
/// overflow to +inf (flagged), underflow through the subnormals to +0.
/// @throws std::invalid_argument when `model` has no entry for the function and format.
template <RealDomain D>
SymbolicDomainError<D> exp2(const SymbolicDomainError<D>& x, const AccuracyModel& model = current_accuracy_model()) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  using elementary::Dir;
  auto p = elementary::whole_line_parts(x, OpId::Exp2, elementary::directed_d<OpId::Exp2>);
  const D ln2 = D::between(elementary::log_d(2.0, Dir::Down), elementary::log_d(2.0, Dir::Up));
  p.rel_propagated = elementary::increasing_image<D>(elementary::expm1_d, x.err * ln2);
  p.propagated = p.real * p.rel_propagated;
  p.shape = &elementary::exp2_shape;
  p.at_pos_inf = INFINITY;
  p.at_neg_inf = 0.0;
  return elementary::split_whole(x, elementary::finish(x, p, model),
                                 [&](const SymbolicDomainError<D>& v) { return exp2(v, model); });
}

}  // namespace symerr
