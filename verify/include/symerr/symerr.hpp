// <symerr/symerr.hpp>: the value types with everything they support, in one
// include — what a program that analyses its own kernels needs.
//
//   * SymbolicError (= SymbolicDomainError<Interval>) and SymbolicDomainError<D>
//     over every domain: Interval, MpfrInterval, RationalInterval, Affine
//     (with AffineContext and AffineScope);
//   * what they support: the drop-in arithmetic and comparisons, literals and
//     ScopedLiteralFormat, std::numeric_limits, the math functions found by
//     unqualified lookup (sqrt, fabs, fmin, fmax, exp, log, tanh, erf, pow,
//     sin, ..., and the C99 names sqrtf, expf, ...), their std:: spellings
//     (unless SYMERR_NO_STD_OVERLOADS is defined), the accuracy models of the
//     elementary functions (ScopedAccuracyModel), C's conversions (int)x;
//   * CFloat and CDouble (C's float and double, for C_TYPES substitution) and
//     the lean types LeanDouble and LeanFloat;
//   * the formats (FP16, BF16, FP32, FP64, ...) and the library's version;
//   * the branch driver (run_kernel, DriverOptions, elementwise_lanes,
//     KernelBuffer) and symbolic_check of a kernel against a bound.
//
// Link symerr::verify (CMake: find_package(symerr), target_link_libraries(app
// PRIVATE symerr::verify)) or `pkg-config --cflags --libs symerr`.
//
// Not included: <symerr/substitute.hpp> (it opens a substitution region:
// macros that rename double and float, ended by <symerr/substitute_end.hpp>),
// the concrete harness, campaigns and reports (<symerr/verify/...>), tensors
// and operators (<symerr/tensor.hpp>, <symerr/operators.hpp>) and the ONNX
// component (<symerr/onnx/...>).
#pragma once

#include <symerr/c_types.hpp>
#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/format.hpp>
#include <symerr/lean.hpp>
#include <symerr/symbolic/std_math.hpp>
#include <symerr/verify/symbolic/driver.hpp>
#include <symerr/verify/symbolic/symbolic_check.hpp>
#include <symerr/version.hpp>
