// GELU as a generic kernel (the erf form of ONNX Gelu, approximate = "none"):
//   gelu(x) = 0.5 · x · (1 + erf(x / √2)),
// evaluated as half * x * (one + erf(x / sqrt(two))) with the constants given
// by the caller in T (for SymbolicDomainError: exact constants of the format,
// so that √2 is computed — rounded — by the kernel and exact in the ideal program).
#pragma once

#include <cmath>

namespace symerr::kernels {

/// GELU (ONNX Gelu, approximate = "none"): half · x · (one + erf(x / sqrt(two))),
/// the constants given by the caller in T (for a symbolic value: exact
/// constants of the format, so that √2 is rounded by the kernel and exact in the ideal program).
template <class T>
T gelu(const T& x, const T& half, const T& one, const T& two) {
  using std::erf;
  using std::sqrt;
  return half * x * (one + erf(x / sqrt(two)));
}

}  // namespace symerr::kernels
