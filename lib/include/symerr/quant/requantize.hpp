// Requantization of an int32 accumulator: the exact ideal and the rounding
// variants shipped implementations use.
//
// A quantized matmul or convolution accumulates int32 sums acc and rescales
// them by a real multiplier m = s_a·s_b / s_y (0 < m < 1 in practice), stored
// as a Q31 fixed-point multiplier M and a right shift s: m = M · 2^-(31+s).
// The real ideal of the output (before the zero point and saturation) is the
// exact rational acc·M / 2^(31+s); ONNX's rule (QLinearMatMul, QLinearConv) is
// its round half to even. Implementations round differently; each variant
// below is written from its published definition and named by it:
//
// | variant            | computation                                            | roundings |
// |--------------------|--------------------------------------------------------|-----------|
// | exact_half_even    | RNE(acc·M / 2^(31+s)) (ONNX)                            | 1 |
// | gemmlowp           | SaturatingRoundingDoublingHighMul, RoundingDivideByPOT  | 2 |
// | single_half_up     | (acc·M + 2^(30+s)) >> (31+s) (TOSA apply_scale_32 without double_round, TFLite single rounding) | 1 |
// | tosa_double_round  | TOSA apply_scale_32 with double_round                   | 1, biased |
// | float_lrintf       | lrintf(float(acc) · float(m)) under round-to-nearest    | 3 |
// | float_magic_bias   | bits(float(acc)·float(m) + 0x1.8p23f) − 0x4B400000      | 3 |
// | truncate           | acc·M / 2^(31+s) rounded toward zero                    | 1 |
//
// Every function is exact integer arithmetic except the two float variants,
// which compute in binary32 and assume round-to-nearest; the sweeps that call
// them (<symerr/verify/quant/sweep.hpp>) hold the library's FP environment.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace symerr::quant {

/// A Q31 multiplier with a right shift: the real multiplier M · 2^-(31+shift).
struct FixedPointMultiplier {
  std::int32_t multiplier;  ///< M, in [1, 2^31): positive (normalised ones are in [2^30, 2^31))
  int shift;                ///< right shift s, in [0, 31]
};

/// Throws std::invalid_argument naming the value when M ≤ 0 or s ∉ [0, 31].
inline void validate(const FixedPointMultiplier& m) {
  if (m.multiplier <= 0)
    throw std::invalid_argument("requantization multiplier must be positive, got " + std::to_string(m.multiplier));
  if (m.shift < 0 || m.shift > 31)
    throw std::invalid_argument("requantization shift must be in [0, 31], got " + std::to_string(m.shift));
}

/// The requantization variants (see the table in this header).
enum class RequantVariant {
  exact_half_even,
  gemmlowp,
  single_half_up,
  tosa_double_round,
  float_lrintf,
  float_magic_bias,
  truncate,
};

/// The variant's name as campaign files and reports write it.
std::string_view to_string(RequantVariant v) noexcept;
/// The variant of a name (to_string's inverse); throws std::invalid_argument listing the names.
RequantVariant requant_variant_from_string(std::string_view name);

namespace detail {

// floor(p / 2^k) and the remainder p − floor·2^k ∈ [0, 2^k), for k in [1, 62].
inline std::int64_t floor_shift(std::int64_t p, int k) noexcept { return p >> k; }  // arithmetic: floor

inline std::int64_t round_half_even_shift(std::int64_t p, int k) noexcept {
  const std::int64_t q = p >> k;
  const std::int64_t rem = p - q * (std::int64_t{1} << k);
  const std::int64_t half = std::int64_t{1} << (k - 1);
  if (rem > half) return q + 1;
  if (rem < half) return q;
  return q + (q & 1);
}

inline std::int32_t saturating_rounding_doubling_high_mul(std::int32_t a, std::int32_t b) noexcept {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const std::int64_t ab = static_cast<std::int64_t>(a) * b;
  const std::int64_t nudge = ab >= 0 ? (std::int64_t{1} << 30) : (1 - (std::int64_t{1} << 30));
  return static_cast<std::int32_t>((ab + nudge) / (std::int64_t{1} << 31));  // C division: toward zero
}

inline std::int32_t rounding_divide_by_pot(std::int32_t x, int exponent) noexcept {
  const std::int64_t mask = (std::int64_t{1} << exponent) - 1;
  const std::int64_t remainder = x & mask;
  const std::int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<std::int32_t>((static_cast<std::int64_t>(x) >> exponent) + (remainder > threshold ? 1 : 0));
}

inline std::int64_t tosa_apply_scale_32(std::int32_t value, std::int32_t multiplier, int shift, bool double_round) noexcept {
  std::int64_t round = std::int64_t{1} << (shift - 1);
  if (double_round && shift > 31) round += value >= 0 ? (std::int64_t{1} << 30) : -(std::int64_t{1} << 30);
  return (static_cast<std::int64_t>(value) * multiplier + round) >> shift;
}

// Round half to even of a binary32 value whose magnitude is below 2^31, in
// exact arithmetic (independent of the rounding mode).
inline std::int64_t round_half_even_float(float x) noexcept {
  const double t = static_cast<double>(static_cast<std::int64_t>(x));  // toward zero, exact
  const double frac = static_cast<double>(x) - t;                       // exact
  auto n = static_cast<std::int64_t>(t);
  if (frac > 0.5 || (frac == 0.5 && (n & 1))) return n + 1;
  if (frac < -0.5 || (frac == -0.5 && (n & 1))) return n - 1;
  return n;
}

}  // namespace detail

/// The real multiplier M · 2^-(31+s) rounded to binary32 (the float variants' m).
inline float float_multiplier(const FixedPointMultiplier& m) noexcept {
  // M has at most 31 bits: the conversion rounds once, the scaling by a power
  // of two is exact for the shifts allowed.
  const float mf = static_cast<float>(m.multiplier);
  return mf * std::bit_cast<float>(static_cast<std::uint32_t>((127 - 31 - m.shift) << 23));
}

/// The requantized accumulator (before the zero point and saturation) of
/// `variant`; `m` must satisfy validate(). Float variants assume the caller
/// holds round-to-nearest (symerr::FpEnvironmentGuard).
inline std::int64_t requantize(std::int32_t acc, const FixedPointMultiplier& m, RequantVariant variant) noexcept {
  const int k = 31 + m.shift;
  const std::int64_t p = static_cast<std::int64_t>(acc) * m.multiplier;
  switch (variant) {
    case RequantVariant::exact_half_even:
      return detail::round_half_even_shift(p, k);
    case RequantVariant::gemmlowp:
      return detail::rounding_divide_by_pot(detail::saturating_rounding_doubling_high_mul(acc, m.multiplier), m.shift);
    case RequantVariant::single_half_up:
      return detail::tosa_apply_scale_32(acc, m.multiplier, k, false);
    case RequantVariant::tosa_double_round:
      return detail::tosa_apply_scale_32(acc, m.multiplier, k, true);
    case RequantVariant::float_lrintf: {
      const float y = static_cast<float>(acc) * float_multiplier(m);
      return detail::round_half_even_float(y);
    }
    case RequantVariant::float_magic_bias: {
      const float y = static_cast<float>(acc) * float_multiplier(m) + 0x1.8p23f;
      return static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(y) - 0x4B400000u);
    }
    case RequantVariant::truncate:
      return p >= 0 ? (p >> k) : -((-p) >> k);
  }
  return 0;
}

/// |q − acc·M/2^(31+s)| scaled by 2^(31+s): the error of an output q in units
/// of 2^-(31+s) LSB, exact (an unsigned 128-bit integer).
inline unsigned __int128 scaled_error(std::int64_t q, std::int32_t acc, const FixedPointMultiplier& m) noexcept {
  const __int128 exact = static_cast<__int128>(acc) * m.multiplier;
  const __int128 d = static_cast<__int128>(q) * (static_cast<__int128>(1) << (31 + m.shift)) - exact;
  return static_cast<unsigned __int128>(d < 0 ? -d : d);
}

}  // namespace symerr::quant
