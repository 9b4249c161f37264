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
// index of them. Adding an operator: one OpId value and one row of the table
// below (with its MPFR function), its rule header, tests (docs/design.md,
// "Adding an operator"); an operator MPFR has no function for also gets its
// evaluation in lib/src/operators.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <mpfr.h>

#include <symerr/format.hpp>

namespace symerr {

/// Every operator symerr knows, in the order of the operator table
/// (operator_table()); the names are the ONNX spelling where ONNX has one.
enum class OpId : std::uint8_t {
  Add, Sub, Mul, Div,           // binary arithmetic
  Neg, Abs, Sqrt, Convert,      // unary, correctly rounded or exact in IEEE 754
  Exp, Expm1, Log, Log1p, Tanh, Sigmoid, Erf,  // elementary functions
  Pow,                          // x^c, real exponent
  Powi,                         // x^n, integer exponent (repeated multiplication)
  Exp2,                         // 2^x
  Floor, Ceil, Trunc,           // round to an integral value: toward −inf, +inf, 0
  Round,                        // … in the value's rounding mode (nearest-even: ONNX Round; C rint, nearbyint)
  RoundAway,                    // … to nearest, ties away from zero (C round)
  Fma,                          // x·y + w with one rounding (C fma)
  Log2, Log10,                  // base-2 and base-10 logarithms (C log2, log10)
  Sin, Cos,                     // sine and cosine (radians; C sin, cos)
  Atan,                         // arc tangent (C atan)
  Sinh, Cosh,                   // hyperbolic sine and cosine (C sinh, cosh)
  Asinh, Acosh, Atanh,          // inverse hyperbolic functions (C asinh, acosh, atanh)
  Asin, Acos,                   // arc sine and arc cosine (C asin, acos)
  Tan,                          // tangent (radians; C tan)
  Fmod,                         // x − trunc(x/y)·y, exact (C fmod; ONNX Mod with fmod = 1)
  Cbrt,                         // cube root (C cbrt)
  Hypot,                        // √(x² + y²) without intermediate overflow (C hypot)
  Atan2,                        // the angle of the point (x, y): atan2(y, x) (C atan2; operands in C's order y, x)
  Erfc,                         // complementary error function 1 − erf(x), decreasing (C erfc)
};

/// Properties of an operator (bit set).
enum OpProperty : std::uint32_t {
  kCommutative = 1u << 0,        ///< op(x, y) = op(y, x)
  kCorrectlyRounded = 1u << 1,   ///< IEEE 754 requires the correctly rounded result
  kExactResult = 1u << 2,        ///< the exact result is representable (Neg, Abs): no rounding
  kIntegerFormats = 1u << 3,     ///< defined on integer formats too
  kAccuracyModel = 1u << 4,      ///< implementation accuracy from the AccuracyModel (not IEEE-mandated)
  kIntegerExponent = 1u << 5,    ///< the second operand is an integer (Powi)
  kMonotoneIncreasing = 1u << 6, ///< unary, non-decreasing on its domain
  kOdd = 1u << 7,                ///< unary, op(−x) = −op(x)
};
/// A set of OpProperty bits.
using OpProperties = std::uint32_t;

///@{
/// An MPFR function computing a unary (binary) operator correctly rounded.
using MpfrUnaryFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinaryFn = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
///@}

/// A row of the operator table.
struct OpInfo {
  /// The operator.
  OpId id;
  std::string_view name;  ///< ONNX spelling ("Add", "Exp"); Expm1, Log1p, Powi, Convert, Fma, Log2, Log10 are symerr's
  unsigned arity;         ///< number of operands (Convert: 1, its target format is a parameter)
  /// Its OpProperty bits.
  OpProperties properties;
  std::string_view error_identity;  ///< err_z in terms of the operands (e = fp − real), as the rule evaluates it
  std::string_view function_name;   ///< C / libm spelling ("exp", "expm1"; "add" for the arithmetic)
  ///@{
  /// The MPFR function computing the exact value correctly rounded, when MPFR
  /// has one (else null, and evaluate_mpfr composes it: Sigmoid, Powi).
  MpfrUnaryFn mpfr_unary = nullptr;
  MpfrBinaryFn mpfr_binary = nullptr;
  ///@}

  /// Whether the operator has property `p`.
  constexpr bool has(OpProperty p) const noexcept { return (properties & p) != 0; }
};

namespace detail {
inline constexpr OpProperties kElementary = kAccuracyModel | kMonotoneIncreasing;
// rounding to an integral value: the result is exactly representable
inline constexpr OpProperties kIntegral = kCorrectlyRounded | kExactResult | kMonotoneIncreasing;

// The table: one row per operator, in OpId order (checked by
// tests/core/test_operators.cpp). Registering an operator is one row here.
inline constexpr OpInfo kOperatorRows[] = {
    {OpId::Add, "Add", 2, kCommutative | kCorrectlyRounded | kIntegerFormats, "e_x + e_y", "add", nullptr, mpfr_add},
    {OpId::Sub, "Sub", 2, kCorrectlyRounded | kIntegerFormats, "e_x - e_y", "sub", nullptr, mpfr_sub},
    {OpId::Mul, "Mul", 2, kCommutative | kCorrectlyRounded | kIntegerFormats,
     "real_x*e_y + e_x*fp_y  (= real_y*e_x + e_y*fp_x)", "mul", nullptr, mpfr_mul},
    {OpId::Div, "Div", 2, kCorrectlyRounded | kIntegerFormats, "(e_x - real_z*e_y) / fp_y", "div", nullptr, mpfr_div},
    {OpId::Neg, "Neg", 1, kCorrectlyRounded | kExactResult | kIntegerFormats | kOdd, "-e_x", "neg", mpfr_neg},
    {OpId::Abs, "Abs", 1, kCorrectlyRounded | kExactResult | kIntegerFormats, "|fp_x| - |real_x|  (in [-|e_x|, |e_x|])",
     "fabs", mpfr_abs},
    {OpId::Sqrt, "Sqrt", 1, kCorrectlyRounded | kMonotoneIncreasing, "e_x / (sqrt(fp_x) + sqrt(real_x))", "sqrt",
     mpfr_sqrt},
    {OpId::Convert, "Convert", 1, kCorrectlyRounded | kIntegerFormats | kMonotoneIncreasing, "e_x", "convert",
     mpfr_set},
    {OpId::Exp, "Exp", 1, kElementary, "exp(real_x) * expm1(e_x)", "exp", mpfr_exp},
    {OpId::Expm1, "Expm1", 1, kElementary, "exp(real_x) * expm1(e_x)", "expm1", mpfr_expm1},
    {OpId::Log, "Log", 1, kElementary, "log1p(e_x / real_x)", "log", mpfr_log},
    {OpId::Log1p, "Log1p", 1, kElementary, "log1p(e_x / (1 + real_x))", "log1p", mpfr_log1p},
    {OpId::Tanh, "Tanh", 1, kElementary | kOdd, "sinh(e_x) / (cosh(real_x) * cosh(fp_x))", "tanh", mpfr_tanh},
    {OpId::Sigmoid, "Sigmoid", 1, kElementary, "sinh(e_x/2) / (2 * cosh(real_x/2) * cosh(fp_x/2))", "sigmoid"},
    {OpId::Erf, "Erf", 1, kElementary | kOdd, "erf'(xi) * e_x, xi in hull(real_x, fp_x)  (mean value)", "erf",
     mpfr_erf},
    {OpId::Pow, "Pow", 2, kAccuracyModel, "real_x^c * expm1(c * log1p(e_x / real_x))", "pow", nullptr, mpfr_pow},
    {OpId::Powi, "Powi", 2, kIntegerExponent, "repeated Mul (n - 1 roundings; n < 0: one Div)", "powi"},
    {OpId::Exp2, "Exp2", 1, kElementary, "2^real_x * expm1(e_x * ln 2)", "exp2", mpfr_exp2},
    {OpId::Floor, "Floor", 1, kIntegral, "floor(fp_x) - floor(real_x)  (in [floor(e_x), ceil(e_x)])", "floor",
     mpfr_rint_floor},
    {OpId::Ceil, "Ceil", 1, kIntegral, "ceil(fp_x) - ceil(real_x)  (in [floor(e_x), ceil(e_x)])", "ceil",
     mpfr_rint_ceil},
    {OpId::Trunc, "Trunc", 1, kIntegral | kOdd, "trunc(fp_x) - trunc(real_x)  (in [floor(e_x) - 1, ceil(e_x) + 1])",
     "trunc", mpfr_rint_trunc},
    // Round's MPFR evaluation is the nearest-even one (the NearestEven mode)
    {OpId::Round, "Round", 1, kIntegral, "rint(fp_x) - rint(real_x)  (in [ceil(e_x - 1), floor(e_x + 1)])", "rint",
     mpfr_rint_roundeven},
    {OpId::RoundAway, "RoundAway", 1, kIntegral | kOdd,
     "round(fp_x) - round(real_x)  (in [ceil(e_x - 1), floor(e_x + 1)])", "round", mpfr_rint_round},
    {OpId::Fma, "Fma", 3, kCorrectlyRounded, "real_x*e_y + e_x*fp_y + e_w", "fma"},
    {OpId::Log2, "Log2", 1, kElementary, "log1p(e_x / real_x) / ln 2", "log2", mpfr_log2},
    {OpId::Log10, "Log10", 1, kElementary, "log1p(e_x / real_x) / ln 10", "log10", mpfr_log10},
    {OpId::Sin, "Sin", 1, kAccuracyModel | kOdd, "2 * cos((real_x + fp_x) / 2) * sin(e_x / 2)", "sin", mpfr_sin},
    {OpId::Cos, "Cos", 1, kAccuracyModel, "-2 * sin((real_x + fp_x) / 2) * sin(e_x / 2)", "cos", mpfr_cos},
    {OpId::Atan, "Atan", 1, kElementary | kOdd, "e_x / (1 + xi^2), xi in hull(real_x, fp_x)  (mean value)", "atan",
     mpfr_atan},
    {OpId::Sinh, "Sinh", 1, kElementary | kOdd, "2 * cosh((real_x + fp_x) / 2) * sinh(e_x / 2)", "sinh", mpfr_sinh},
    {OpId::Cosh, "Cosh", 1, kAccuracyModel, "2 * sinh((real_x + fp_x) / 2) * sinh(e_x / 2)", "cosh", mpfr_cosh},
    {OpId::Asinh, "Asinh", 1, kElementary | kOdd, "e_x / sqrt(1 + xi^2), xi in hull(real_x, fp_x)  (mean value)",
     "asinh", mpfr_asinh},
    {OpId::Acosh, "Acosh", 1, kElementary, "e_x / sqrt(xi^2 - 1), xi in hull(real_x, fp_x) > 1  (mean value)", "acosh",
     mpfr_acosh},
    {OpId::Atanh, "Atanh", 1, kElementary | kOdd, "e_x / (1 - xi^2), xi in hull(real_x, fp_x) in (-1, 1)  (mean value)",
     "atanh", mpfr_atanh},
    {OpId::Asin, "Asin", 1, kElementary | kOdd, "e_x / sqrt(1 - xi^2), xi in hull(real_x, fp_x) in (-1, 1)  (mean value)",
     "asin", mpfr_asin},
    {OpId::Acos, "Acos", 1, kAccuracyModel, "-e_x / sqrt(1 - xi^2), xi in hull(real_x, fp_x) in (-1, 1)  (mean value)",
     "acos", mpfr_acos},
    {OpId::Tan, "Tan", 1, kAccuracyModel | kOdd, "sin(e_x) / (cos(real_x) * cos(fp_x))", "tan", mpfr_tan},
    {OpId::Fmod, "Fmod", 2, kCorrectlyRounded | kExactResult,
     "e_x - n*e_y where trunc(x/y) = n on the box; else fmod(fp) - fmod(real)", "fmod", nullptr, mpfr_fmod},
    {OpId::Cbrt, "Cbrt", 1, kElementary | kOdd,
     "cbrt(real_x) * expm1(log1p(e_x / real_x) / 3); across 0 in 2^(2/3) * cbrt(|e_x|) with the sign of e_x", "cbrt",
     mpfr_cbrt},
    {OpId::Hypot, "Hypot", 2, kAccuracyModel | kCommutative,
     "(xi_x*e_x + xi_y*e_y) / hypot(xi), xi in hull(real, fp); in [-hypot(e_x, e_y), hypot(e_x, e_y)]", "hypot",
     nullptr, mpfr_hypot},
    {OpId::Atan2, "Atan2", 2, kAccuracyModel,
     "(xi_x*e_y - xi_y*e_x) / (xi_x^2 + xi_y^2), xi in hull(real, fp) off the cut; else atan2(fp) - atan2(real)",
     "atan2", nullptr, mpfr_atan2},
    {OpId::Erfc, "Erfc", 1, kAccuracyModel, "-erf'(xi) * e_x, xi in hull(real_x, fp_x)  (mean value)", "erfc",
     mpfr_erfc},
};
}  // namespace detail

/// Every operator, in OpId order (operator_table()[i].id == OpId(i)).
constexpr std::span<const OpInfo> operator_table() noexcept { return detail::kOperatorRows; }

/// The entry of op (precondition: a valid OpId).
constexpr const OpInfo& operator_info(OpId op) noexcept { return detail::kOperatorRows[static_cast<std::size_t>(op)]; }
/// The operator's name (operator_info(op).name; "?" for an invalid id).
std::string_view to_string(OpId op) noexcept;  // operator_info(op).name; "?" for an invalid id

/// The entry named `name`, compared case-insensitively ("add", "EXP"); null if none.
const OpInfo* find_operator(std::string_view name) noexcept;

/// The exact value of op(args[0], ...) rounded to out's precision in direction
/// rnd (any MPFR rounding, RNDD / RNDU give a lower / upper bound): correctly
/// rounded for every operator, also those MPFR has no single function for
/// (Sigmoid: Ziv's strategy on directed bounds). Returns MPFR's ternary value
/// (sign of out − exact). Convert is the identity on values (the rounding into
/// the target format is the caller's). Powi: args[1] must be an integer.
/// IEEE 754 special values as MPFR defines them (log(−1) = NaN, 1/0 = +inf).
/// Preconditions: args.size() == arity; throws std::invalid_argument otherwise.
/// Runs in MPFR's widest exponent range; the caller's range and flags are kept.
int evaluate_mpfr(OpId op, mpfr_ptr out, std::span<const mpfr_srcptr> args, mpfr_rnd_t rnd);

/// The correctly rounded value of op(args) in F under `mode` (Convert: the
/// conversion of args[0] into F), by Ziv's strategy: evaluate_mpfr toward −inf
/// and +inf at growing precision until both round to the same value of F.
/// nullopt when the exact value is 0, NaN, infinite, far outside F's range
/// (the caller's special-value and overflow rules decide those), or when 4096
/// bits do not decide. Precondition: args.size() == arity.
std::optional<double> correctly_rounded(OpId op, std::span<const double> args, const FloatFormat& F,
                                        RoundingMode mode);

}  // namespace symerr
