// Mul: C = A * B element-wise.
//
// Error identity (docs/design.md §1), for SymbolicDomainError elements:
//   err_C = real_A·e_B + real_B·e_A + e_A·e_B + (round(t) − t), t = fp_A · fp_B.
//
// Scalar semantics by element type:
//   integers    — the exact result reduced modulo 2^n (INT4/UINT4 included): wrap-around;
//   floats      — IEEE 754 in the element's format (RNE; ±inf, NaN, signed zero);
//   class types — their own operator*.
// Never undefined, never an error for any element value.
#pragma once

#include <symerr/ops/elementwise.hpp>
#include <symerr/ops/integer_arith.hpp>

namespace symerr {

/// Mul's name and SONNX requirement IDs, for messages.
inline constexpr OpConstraints kMulInfo{"Mul", "[R1]/[C1]", "[R2]/[C2]"};

/// The scalar rule of Mul: integers wrap modulo 2^n, floats are IEEE 754 in the element's format, class types use their own operator*.
template <class T>
T mul_scalar(const T& a, const T& b) {
  if constexpr (IntegerElement<T>) return wrapping_mul(a, b);
  else return T(a * b);
}

/// A · B element-wise under the shape rule of `o`; never undefined for any element value.
/// @throws ShapeError when the shapes do not satisfy the rule.
template <class T>
Tensor<T> Mul(const Tensor<T>& A, const Tensor<T>& B, const ElementwiseOptions& o = {}) {
  return elementwise(A, B, o.shape_rule, [](const T& a, const T& b) { return mul_scalar(a, b); },
                     kMulInfo);
}

}  // namespace symerr
