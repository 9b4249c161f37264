// QuantizeLinear and DequantizeLinear: the ONNX rule, its real ideal, and the
// variants implementations ship.
//
// ONNX QuantizeLinear: y = saturate(round_half_even(x / y_scale) + y_zero_point)
// into the output type's range; DequantizeLinear: x = (y − y_zero_point) ·
// x_scale. Two readings of the division exist and differ on some inputs:
// the real ideal divides exactly (`exact`), the ONNX reference implementation
// divides in binary32 and then rounds (`onnx_reference`, numpy's x / y_scale
// then rint). The other variants are what kernels have shipped: a precomputed
// reciprocal, ties away from zero (roundf), truncation, a symmetric int8 range
// [−127, 127], and wrap-around instead of saturation.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace symerr::quant {

/// An integer output type of QuantizeLinear: its name and range.
struct QuantType {
  std::string_view name;  ///< "int8", "uint8", "int16", "uint16", "int4", "uint4"
  std::int64_t lo;        ///< smallest value
  std::int64_t hi;        ///< largest value
  int bits;               ///< width, for wrap-around
};

/// The type of a name; throws std::invalid_argument listing the names.
QuantType quant_type_from_string(std::string_view name);

/// The QuantizeLinear variants (see the header comment).
enum class QuantizeVariant {
  exact,
  onnx_reference,
  reciprocal_multiply,
  half_away_from_zero,
  truncate,
  symmetric_range,
  wrap,
};

/// The variant's name as campaign files and reports write it.
std::string_view to_string(QuantizeVariant v) noexcept;
/// The variant of a name; throws std::invalid_argument listing the names.
QuantizeVariant quantize_variant_from_string(std::string_view name);

/// Throws std::invalid_argument when the scale is not a positive finite
/// number or the zero point lies outside the type.
void validate_quantize(float scale, std::int64_t zero_point, const QuantType& type);

namespace detail {

inline std::int64_t saturate(std::int64_t v, std::int64_t lo, std::int64_t hi) noexcept {
  return v < lo ? lo : (v > hi ? hi : v);
}

inline std::int64_t wrap(std::int64_t v, const QuantType& t) noexcept {
  const std::uint64_t mask = (std::uint64_t{1} << t.bits) - 1;
  const std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
  if (t.lo < 0 && (u >> (t.bits - 1)) != 0) return static_cast<std::int64_t>(u) - static_cast<std::int64_t>(mask) - 1;
  return static_cast<std::int64_t>(u);
}

// Values beyond this magnitude saturate every supported type: the exact
// rounding below is done only under it (products then fit in 53 bits).
inline constexpr double kQuantCap = 268435456.0;  // 2^28

// round_half_even(x / s) exactly, for finite x and s > 0; ±2^28 beyond.
inline std::int64_t round_half_even_quotient(float x, float s) noexcept {
  const double sd = s;
  const double q = static_cast<double>(x) / sd;
  if (!(std::fabs(q) < kQuantCap)) return q > 0 ? static_cast<std::int64_t>(kQuantCap) : -static_cast<std::int64_t>(kQuantCap);
  double n = std::floor(q);
  while (n * sd > x) n -= 1;           // exact: |n| < 2^28, s has 24 bits
  while ((n + 1) * sd <= x) n += 1;    // now n·s ≤ x < (n+1)·s
  const double twice = 2.0 * static_cast<double>(x);
  const double mid = (2 * n + 1) * sd;  // exact: 2n+1 < 2^29
  const auto ni = static_cast<std::int64_t>(n);
  if (twice > mid) return ni + 1;
  if (twice < mid) return ni;
  return ni + (ni & 1);
}

// Round half to even of a float of magnitude below 2^28 (exact, any mode).
inline std::int64_t rint_even(float y) noexcept {
  if (!(std::fabs(y) < static_cast<float>(kQuantCap))) return y > 0 ? static_cast<std::int64_t>(kQuantCap) : -static_cast<std::int64_t>(kQuantCap);
  const auto t = static_cast<std::int64_t>(y);  // toward zero
  const double frac = static_cast<double>(y) - static_cast<double>(t);
  if (frac > 0.5 || (frac == 0.5 && (t & 1))) return t + 1;
  if (frac < -0.5 || (frac == -0.5 && (t & 1))) return t - 1;
  return t;
}

inline std::int64_t clamp_cap(float y) noexcept {
  if (!(std::fabs(y) < static_cast<float>(kQuantCap))) return y > 0 ? static_cast<std::int64_t>(kQuantCap) : -static_cast<std::int64_t>(kQuantCap);
  return static_cast<std::int64_t>(y);
}

}  // namespace detail

/// The real ideal: saturate(round_half_even(x / scale) + zero_point) with an
/// exact division; x finite (±inf saturate), not NaN (the caller skips NaN:
/// ONNX leaves it undefined for integer outputs).
inline std::int64_t quantize_ideal(float x, float scale, std::int64_t zero_point, const QuantType& t) noexcept {
  return detail::saturate(detail::round_half_even_quotient(x, scale) + zero_point, t.lo, t.hi);
}

/// QuantizeLinear as `variant` computes it; binary32 steps assume the caller
/// holds round-to-nearest (symerr::FpEnvironmentGuard).
inline std::int64_t quantize(float x, float scale, std::int64_t zero_point, const QuantType& t,
                             QuantizeVariant variant) noexcept {
  switch (variant) {
    case QuantizeVariant::exact:
      return quantize_ideal(x, scale, zero_point, t);
    case QuantizeVariant::onnx_reference:
      return detail::saturate(detail::rint_even(x / scale) + zero_point, t.lo, t.hi);
    case QuantizeVariant::reciprocal_multiply:
      return detail::saturate(detail::rint_even(x * (1.0f / scale)) + zero_point, t.lo, t.hi);
    case QuantizeVariant::half_away_from_zero:
      return detail::saturate(detail::clamp_cap(std::round(x / scale)) + zero_point, t.lo, t.hi);
    case QuantizeVariant::truncate:
      return detail::saturate(detail::clamp_cap(x / scale) + zero_point, t.lo, t.hi);
    case QuantizeVariant::symmetric_range:
      return detail::saturate(detail::rint_even(x / scale) + zero_point, t.lo < 0 ? t.lo + 1 : t.lo, t.hi);
    case QuantizeVariant::wrap:
      return detail::wrap(detail::rint_even(x / scale) + zero_point, t);
  }
  return 0;
}

/// DequantizeLinear: (q − zero_point) · scale, rounded once to binary32 (the
/// product of an integer below 2^17 and a binary32 scale is exact in double).
inline float dequantize(std::int64_t q, float scale, std::int64_t zero_point) noexcept {
  return static_cast<float>(static_cast<double>(q - zero_point) * static_cast<double>(scale));
}

}  // namespace symerr::quant
