// The operator table: every operator symerr knows, registered once with its
// name (ONNX spelling), arity and properties, and its exact value in MPFR.
// Everything that needs "which operators exist" — the symbolic arithmetic,
// verify's kernels, oracles and judges, the ONNX runner, the CLI's operator
// names, the tests — asks this table instead of keeping its own list.
//
// The symbolic rule of each operator (its exact error identity, special-value
// table, exactness conditions and scalar rule) lives in its own header under
// <symerr/symbolic/rules/> (arithmetic, unary) and
// <symerr/symbolic/elementary/> (elementary functions); the table is the
// index of them. Adding an operator: one OpId value, one row of the table
// (lib/src/operators.cpp), its MPFR evaluation there, its rule header, tests.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <mpfr.h>

#include <symerr/format.hpp>

namespace symerr {

enum class OpId : std::uint8_t {
  Add, Sub, Mul, Div,           // binary arithmetic
  Neg, Abs, Sqrt, Convert,      // unary, correctly rounded or exact in IEEE 754
  Exp, Expm1, Log, Log1p, Tanh, Sigmoid, Erf,  // elementary functions
  Pow,                          // x^c, real exponent
  Powi,                         // x^n, integer exponent (repeated multiplication)
};

// Properties of an operator (bit set).
enum OpProperty : std::uint32_t {
  kCommutative = 1u << 0,        // op(x, y) = op(y, x)
  kCorrectlyRounded = 1u << 1,   // IEEE 754 requires the correctly rounded result
  kExactResult = 1u << 2,        // the exact result is representable (Neg, Abs): no rounding
  kIntegerFormats = 1u << 3,     // defined on integer formats too
  kAccuracyModel = 1u << 4,      // implementation accuracy from the AccuracyModel (not IEEE-mandated)
  kIntegerExponent = 1u << 5,    // the second operand is an integer (Powi)
  kMonotoneIncreasing = 1u << 6, // unary, non-decreasing on its domain
  kOdd = 1u << 7,                // unary, op(−x) = −op(x)
};
using OpProperties = std::uint32_t;

struct OpInfo {
  OpId id;
  std::string_view name;  // ONNX spelling ("Add", "Exp"); Expm1, Log1p, Powi, Convert are symerr's
  unsigned arity;         // number of operands (Convert: 1, its target format is a parameter)
  OpProperties properties;
  std::string_view error_identity;  // err_z in terms of the operands (e = fp − real), as the rule evaluates it

  constexpr bool has(OpProperty p) const noexcept { return (properties & p) != 0; }
};

// Every operator, in OpId order (operator_table()[i].id == OpId(i)).
std::span<const OpInfo> operator_table() noexcept;

// The entry of op (never null for a valid OpId).
const OpInfo& operator_info(OpId op) noexcept;
std::string_view to_string(OpId op) noexcept;  // operator_info(op).name

// The entry named `name`, compared case-insensitively ("add", "EXP"); null if none.
const OpInfo* find_operator(std::string_view name) noexcept;

// The exact value of op(args[0], ...) rounded to out's precision in direction
// rnd (any MPFR rounding, RNDD / RNDU give a lower / upper bound): correctly
// rounded for every operator, also those MPFR has no single function for
// (Sigmoid: Ziv's strategy on directed bounds). Returns MPFR's ternary value
// (sign of out − exact). Convert is the identity on values (the rounding into
// the target format is the caller's). Powi: args[1] must be an integer.
// IEEE 754 special values as MPFR defines them (log(−1) = NaN, 1/0 = +inf).
// Preconditions: args.size() == arity; throws std::invalid_argument otherwise.
// Runs in MPFR's widest exponent range; the caller's range and flags are kept.
int evaluate_mpfr(OpId op, mpfr_ptr out, std::span<const mpfr_srcptr> args, mpfr_rnd_t rnd);

// The correctly rounded value of op(args) in F under `mode` (Convert: the
// conversion of args[0] into F), by Ziv's strategy: evaluate_mpfr toward −inf
// and +inf at growing precision until both round to the same value of F.
// nullopt when the exact value is 0, NaN, infinite, far outside F's range
// (the caller's special-value and overflow rules decide those), or when 4096
// bits do not decide. Precondition: args.size() == arity.
std::optional<double> correctly_rounded(OpId op, std::span<const double> args, const FloatFormat& F,
                                        RoundingMode mode);

}  // namespace symerr
