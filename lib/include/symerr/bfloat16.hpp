// BFloat16: the bfloat16 format (p = 8, emin = -126, emax = 127, subnormals,
// infinities, NaN) in uint16 storage, with correctly rounded arithmetic.
//
// GCC 12 has no __bf16 arithmetic. An operation is computed in double and
// rounded once to BF16 (round to nearest, ties to even): the double result of
// + - * / on BF16 operands, rounded to BF16, is the correctly rounded BF16
// result because 53 >= 2*8 + 2 (Figueroa, SIGNUM 1995: double rounding through
// p' >= 2p + 2 bits is innocuous for + - * / sqrt).
// A NaN result is the quiet NaN 0x7FC0 with the sign of the double NaN.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <compare>
#include <concepts>
#include <cstdint>
#include <ostream>

namespace symerr {

namespace detail {

// The BF16 value nearest to x (ties to even), as a bit pattern. Every step is
// exact, so the result does not depend on the FPU rounding mode.
inline std::uint16_t bf16_round_bits(double x) noexcept {
  const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
  if (std::isnan(x)) return static_cast<std::uint16_t>(sign | 0x7FC0u);
  const double a = std::fabs(x);
  if (a == 0.0) return sign;
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | 0x7F80u);
  // Quantum (spacing) exponent of BF16 at a: 2^(e-7) in the normal range,
  // the subnormal spacing 2^-133 below 2^-126.
  const int q = std::max(std::ilogb(a), -126) - 7;
  const double m = std::ldexp(a, -q);  // exact; m < 2^8
  double n = std::trunc(m);
  const double f = m - n;               // exact
  if (f > 0.5 || (f == 0.5 && std::fmod(n, 2.0) != 0.0)) n += 1.0;
  const double r = std::ldexp(n, q);    // exact; a BF16 value or 2^128
  if (r > 0x1.FEp127) return static_cast<std::uint16_t>(sign | 0x7F80u);
  const auto f32 = std::bit_cast<std::uint32_t>(static_cast<float>(r));  // exact
  return static_cast<std::uint16_t>(sign | (f32 >> 16));
}

inline double bf16_to_double(std::uint16_t bits) noexcept {
  return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

}  // namespace detail

/// The bfloat16 format (p = 8, emin = -126, emax = 127, subnormals, infinities,
/// NaN) in uint16 storage, with correctly rounded arithmetic: each operation is
/// computed in double and rounded once to BF16 (round to nearest, ties to even),
/// which is correctly rounded since 53 >= 2·8 + 2 (Figueroa 1995). A NaN result
/// is the quiet NaN 0x7FC0 with the sign of the double NaN.
class BFloat16 {
 public:
  BFloat16() = default;
  ///@{
  /// The value rounded to BF16 (to nearest, ties to even; independent of the FPU
  /// rounding mode). Integers convert through double.
  explicit BFloat16(double x) noexcept : bits_(detail::bf16_round_bits(x)) {}
  explicit BFloat16(float x) noexcept : bits_(detail::bf16_round_bits(x)) {}
  template <std::integral I>
  explicit BFloat16(I i) noexcept : bits_(detail::bf16_round_bits(static_cast<double>(i))) {}
  ///@}

  /// The value of the bit pattern `bits`.
  static BFloat16 from_bits(std::uint16_t bits) noexcept {
    BFloat16 b;
    b.bits_ = bits;
    return b;
  }
  /// The bit pattern.
  std::uint16_t bits() const noexcept { return bits_; }

  ///@{
  /// Exact (every BF16 value is a binary32 value); NaN payloads are kept.
  explicit operator double() const noexcept { return detail::bf16_to_double(bits_); }
  explicit operator float() const noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits_) << 16);
  }
  ///@}

  ///@{
  /// Arithmetic correctly rounded to BF16 (round to nearest, ties to even);
  /// negation flips the sign bit.
  friend BFloat16 operator+(BFloat16 a, BFloat16 b) noexcept { return BFloat16(double(a) + double(b)); }
  friend BFloat16 operator-(BFloat16 a, BFloat16 b) noexcept { return BFloat16(double(a) - double(b)); }
  friend BFloat16 operator*(BFloat16 a, BFloat16 b) noexcept { return BFloat16(double(a) * double(b)); }
  friend BFloat16 operator/(BFloat16 a, BFloat16 b) noexcept { return BFloat16(double(a) / double(b)); }
  friend BFloat16 operator-(BFloat16 a) noexcept {
    return from_bits(static_cast<std::uint16_t>(a.bits_ ^ 0x8000u));
  }
  ///@}

  ///@{
  /// IEEE comparisons (NaN unordered, +0 == -0).
  friend bool operator==(BFloat16 a, BFloat16 b) noexcept { return double(a) == double(b); }
  friend std::partial_ordering operator<=>(BFloat16 a, BFloat16 b) noexcept {
    return double(a) <=> double(b);
  }
  ///@}

 private:
  std::uint16_t bits_ = 0;
};

static_assert(sizeof(BFloat16) == 2);

/// Prints the value as a double.
inline std::ostream& operator<<(std::ostream& os, BFloat16 b) { return os << static_cast<double>(b); }

}  // namespace symerr
