// Semantic choices of the arithmetic operators that a caller makes explicitly.
// Small on purpose: <symerr/symbolic.hpp> includes it for the ADL extension
// point divide(a, b, IntegerDivision).
#pragma once

#include <string_view>

namespace symerr {

/// Rounding of an integer quotient:
///   Floor    — toward -inf: the SONNX Div seed (000), OpenVINO pythondiv=true, numpy //;
///   Truncate — toward 0: C/C++, ONNX Runtime, OpenVINO pythondiv=false.
/// The two differ only when the exact quotient is negative and not an integer.
enum class IntegerDivision : unsigned char { Floor, Truncate };  // one byte: SymbolicError's layout

/// "floor" or "truncate".
constexpr std::string_view to_string(IntegerDivision d) noexcept {
  return d == IntegerDivision::Floor ? "floor" : "truncate";
}

/// Float division by a zero divisor:
///   Ieee      — IEEE 754: ±inf for a nonzero dividend (sign = xor of the signs),
///               NaN for 0/0 and NaN operands; not an error (SONNX float sections);
///   Undefined — the real semantics: the quotient is undefined (SONNX real
///               sections, [C2] of the newer Div); reported like an integer
///               division by zero.
enum class FloatDivisionByZero { Ieee, Undefined };

}  // namespace symerr
