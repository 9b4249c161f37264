// Measuring the installed libm against MPFR: per function, format (FP32,
// FP64) and rounding mode, the largest error in ulps of the exact result over
// a deterministic sample (random bit patterns and uniform values in the
// function's main range) plus the known hard cases, and the check of an
// accuracy table (the glibc model's, or any other) against those maxima.
// `symerr libm` (docs/cli.md) writes and checks the table with it; the tests
// check the shipped glibc table against the installed glibc.
//
// The error of a result y at x is |y − f(x)| / ulp(f(x)), f(x) by MPFR at 256
// bits, ulp as symerr::ulp of the format (the subnormal spacing below the
// normal range). Results outside the format's finite range (overflow,
// f(x) beyond max finite) and points where f is undefined are not measured:
// the model's flags cover them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/operators.hpp>

namespace symerr::verify {

/// A known hard case: an input where a libm is far from correct rounding.
struct LibmHardCase {
  OpId f;             ///< the function
  bool fp64;          ///< FP64 (else FP32)
  RoundingMode mode;  ///< the rounding mode
  ///@{
  /// The input; y: second argument of pow, hypot, atan2 (else 0).
  double x, y;
  ///@}
};

/// The functions of the glibc table (<symerr/symbolic/accuracy.hpp>) that the
/// installed libm has: exp, expm1, log, log1p, tanh, pow, erf, exp2, log2,
/// log10, sin, cos, atan, asin, acos, sinh, cosh, asinh, acosh, atanh, tan,
/// cbrt, hypot, atan2, erfc.
std::span<const OpId> libm_functions();
/// The hard cases shipped with symerr (witnesses of the table's entries).
std::span<const LibmHardCase> libm_hard_cases();

/// The measurement of one libm entry (function, format, rounding mode).
struct LibmMeasure {
  OpId f;                     ///< the function
  const FloatFormat* format;  ///< &FP32 or &FP64
  RoundingMode mode;          ///< the rounding mode
  long inputs = 0;            ///< inputs measured (finite, in range)
  double max_ulps = 0;        ///< the largest error found
  ///@{
  /// Its witness (y: second argument of a two-argument function, else 0).
  double x = 0, y = 0;
  ///@}
};

/// The installed libm's f in `format` and `mode` over `samples` sampled inputs
/// (seeded: deterministic) and the hard cases of that entry.
LibmMeasure measure_libm(OpId f, const FloatFormat& format, RoundingMode mode, long samples, std::uint64_t seed);

/// The error in ulps of the installed libm at one input (NaN when not
/// measured: undefined, overflow, outside the range).
double libm_error_ulps(OpId f, const FloatFormat& format, RoundingMode mode, double x, double y);

/// A table under check: its bound in ulps for (f, format, mode).
using LibmTable = std::function<double(OpId, const FloatFormat&, RoundingMode)>;
/// The shipped glibc model's table (AccuracyModel::glibc_x86_64()).
LibmTable glibc_model_table();

/// The check of a table: every measurement of every function, format and mode
/// (`samples` each); entries where `table` is below the measured maximum are
/// `too_tight`.
struct LibmTableCheck {
  std::vector<LibmMeasure> measures;   ///< every measurement
  std::vector<LibmMeasure> too_tight;  ///< those above the table's entry
};
/// Measures every function of `functions` in FP32 and FP64 under the four
/// rounding modes (measure_libm) and compares each maximum with `table`.
LibmTableCheck check_libm_table(const LibmTable& table, long samples, std::uint64_t seed,
                                std::span<const OpId> functions = libm_functions());

///@{
/// The measurements as a Markdown table (function, format, mode, inputs,
/// measured maximum, witness, table entry, verdict) and as JSON.
std::string libm_markdown(const LibmTableCheck& c, const LibmTable& table);
std::string libm_json(const LibmTableCheck& c, const LibmTable& table);
///@}

}  // namespace symerr::verify
