// A quantized matmul against its real-number ideal: a sound bound per output
// element, and the exact execution that judges it.
//
// The kernel (QLinearMatMul with the ideal QuantizeLinear in front):
//   qa = saturate(round_half_even(a / sa) + za)      every element of A (m×k)
//   qb = saturate(round_half_even(b / sb) + zb)      every element of B (k×n)
//   acc = Σ_l (qa − za)(qb − zb)                     exact int32 accumulation
//   qy = saturate(requantize(acc, M, s, variant) + zy)
// and its dequantized output sy·(qy − zy) is compared with the real matmul
// Σ_l a·b of the float inputs. For each output element the error is
//   sy·ρ + (sy·M·2^-(31+s) − sa·sb)·acc + Σ_l (ã·b̃ − a·b)
// with ρ the requantization's rounding error in LSB (|ρ| ≤ R of the variant)
// and ã = sa·(qa − za); each term is enclosed in exact rational interval
// arithmetic over the input boxes, and ã·b̃ − a·b as a·e_b + e_a·b̃ with the
// quantization errors e = ã − a. A possible saturation (inputs or output) or
// int32 overflow of the accumulator is flagged; with output saturation the
// bound falls back to the hull of the dequantized range minus the real range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <symerr/quant/quantize_linear.hpp>
#include <symerr/quant/requantize.hpp>

namespace symerr::verify::quant {

/// A quantized tensor's parameters: scale, zero point and integer type.
struct QuantParams {
  float scale = 1.0f;                          ///< positive finite
  std::int64_t zero_point = 0;                 ///< inside `type`
  symerr::quant::QuantType type{"int8", -128, 127, 8};  ///< the integer type
};

/// The quantized matmul and its input boxes (per element, row-major).
struct QMatMulSpec {
  ///@{
  /// A is m×k, B is k×n.
  std::size_t m = 0, k = 0, n = 0;
  ///@}
  ///@{
  /// The box of every A element (m·k values each).
  std::vector<double> a_lo, a_hi;
  ///@}
  ///@{
  /// The box of every B element (k·n values each).
  std::vector<double> b_lo, b_hi;
  ///@}
  ///@{
  /// The inputs' and the output's parameters.
  QuantParams a, b, y;
  ///@}
  symerr::quant::FixedPointMultiplier multiplier{1 << 30, 0};  ///< requantization M·2^-(31+s)
  symerr::quant::RequantVariant variant = symerr::quant::RequantVariant::exact_half_even;  ///< its rounding
};

/// The bound of one output element: err = sy·(qy − zy) − Σ a·b.
struct QMatMulElementBound {
  ///@{
  /// The enclosure of the error, rounded outward.
  double err_lo = 0, err_hi = 0;
  ///@}
  double rounding = 0;               ///< |sy·ρ| bound: the requantization's rounding
  double multiplier = 0;             ///< bound of the multiplier's approximation term
  double quantization = 0;           ///< bound of Σ (ã·b̃ − a·b): the inputs' quantization
  bool inputs_may_saturate = false;  ///< some input box reaches beyond its type's range
  bool output_may_saturate = false;  ///< qy may saturate (the bound then uses the ranges' hull)
  bool accumulator_may_overflow = false;  ///< acc may leave int32: no bound (±inf)
};

/// Validates the spec (sizes, boxes, scales, zero points, multiplier) and
/// returns the bound of every output element (m·n, row-major). Throws
/// std::invalid_argument naming the problem. Cost O(m·n·k) rational operations.
std::vector<QMatMulElementBound> qmatmul_bound(const QMatMulSpec& spec);

/// Executes the kernel on inputs `a` (m·k) and `b` (k·n): the outputs qy (m·n).
std::vector<std::int64_t> qmatmul_execute(const QMatMulSpec& spec, const std::vector<float>& a,
                                          const std::vector<float>& b);

/// The exact error sy·(qy − zy) − Σ a·b of output (i, j), rounded to nearest double.
double qmatmul_error(const QMatMulSpec& spec, const std::vector<float>& a, const std::vector<float>& b,
                     const std::vector<std::int64_t>& qy, std::size_t i, std::size_t j);

/// The requantization variant's rounding bound R in LSB (|output − acc·M/2^(31+s)| ≤ R)
/// for accumulators with |acc·M/2^(31+s)| ≤ magnitude; +inf where the variant is undefined
/// (the magic bias beyond 2^22).
double requant_rounding_bound(symerr::quant::RequantVariant v, const symerr::quant::FixedPointMultiplier& m,
                              double magnitude);

}  // namespace symerr::verify::quant
