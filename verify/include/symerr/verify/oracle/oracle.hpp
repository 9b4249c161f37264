// Reference semantics of Add/Sub/Mul/Div for the concrete check (docs/design.md §3):
// what a correct kernel must return, and the exact result it approximates.
//
// Floats: the exact result of the operation on the (exact) input values,
// rounded once to the format in round-to-nearest-even; IEEE 754 special cases
// by rule (NaN operands, inf - inf, 0 * inf, 0/0, inf/inf -> NaN; x/±0 -> ±inf
// with the xor of the signs; signed zeros). Three oracles compute it:
//   Exact  — GMP rationals + round_to(mpq);
//   Mpfr   — MPFR emulating the format (precision, exponent range, subnormals);
//   Double — hardware binary64 and one more rounding with round_to(double);
//            exact by a theorem where double_oracle_valid() holds (see .cpp);
//            an exact midpoint tie is re-decided by the Exact oracle.
// Integers: wrap-around modulo 2^n for Add/Sub/Mul; Div with floor or
// truncation chosen explicitly; division by zero is undefined (no value);
// INT_MIN / -1 wraps.
#pragma once

#include <cstdint>
#include <optional>

#include <gmpxx.h>

#include <symerr/format.hpp>
#include <symerr/ops/semantics.hpp>
#include <symerr/verify/kernel/kernel.hpp>

namespace symerr::verify {

/// How a float reference is computed: exactly (GMP), by MPFR emulation of the
/// format, or in binary64 with one final rounding (exact where double_oracle_valid()).
enum class OracleKind : unsigned char { Exact, Mpfr, Double };
const char* to_string(OracleKind k) noexcept;  ///< "gmp-exact" | "mpfr-emulation" | "binary64-double-rounding"

/// The reference result of a float operation.
struct FloatReference {
  double value = 0;           ///< the IEEE result in F under RNE (NaN, ±inf, ±0, or a value of F)
  double exact = 0;           ///< the exact result rounded to the nearest double (NaN/±inf when special)
  bool finite_exact = false;  ///< the exact result is a real number (no special rule applied)
  bool overflow = false;      ///< finite exact result rounded to ±inf
};

/// IEEE 754 special-case rules: the result of a op b when an operand is NaN or
/// infinite, or for x/0; std::nullopt when the result is the rounding of the
/// finite exact value.
std::optional<double> ieee_special_result(OpId op, double a, double b) noexcept;

/// The sign of a zero result when the exact value of a op b is 0 (a, b finite),
/// under round-to-nearest: true for -0.
bool zero_result_negative(OpId op, double a, double b) noexcept;

/// The exact value of a op b. Precondition: a, b finite, and b != 0 for Div
/// (throws std::domain_error otherwise).
mpq_class exact_result(OpId op, double a, double b);
mpq_class exact_result(OpId op, const mpq_class& a, const mpq_class& b);  ///< the same over rationals

/// True when the Double oracle is exact for op in F (the theorem's conditions).
bool double_oracle_valid(OpId op, const FloatFormat& F) noexcept;

/// The oracle to use by default: Double where valid, else Mpfr.
OracleKind default_oracle(OpId op, const FloatFormat& F) noexcept;

/// The reference of a op b in F. a and b must be values of F (or NaN / ±inf).
/// Throws std::invalid_argument for OracleKind::Double where !double_oracle_valid.
FloatReference float_reference(OracleKind k, OpId op, double a, double b,
                               const FloatFormat& F);

// ---- integers ---------------------------------------------------------------

/// The reference result of an integer operation.
struct IntReference {
  std::optional<__int128> value;  ///< the result in the format; nullopt: undefined (x/0)
  bool overflow = false;          ///< the exact (rounded-quotient) result is outside the format and wraps
};

/// a, b must be values of I.
IntReference int_reference(OpId op, __int128 a, __int128 b, const IntFormat& I,
                           IntegerDivision division);

}  // namespace symerr::verify
