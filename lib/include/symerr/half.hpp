// Half: IEEE 754 binary16 (FP16) storage with correctly rounded arithmetic.
//
// Built on GCC's _Float16. On x86-64 without AVX512-FP16, GCC 12 evaluates
// a _Float16 operation in binary32 and rounds the result once to binary16.
// For + - * / that is the correctly rounded result: binary32 has
// p' = 24 >= 2p + 2 = 24 bits, and rounding an operation first to p' >= 2p+2
// bits and then to p bits equals rounding it directly (Figueroa, "When is
// double rounding innocuous?", SIGNUM 1995). tests/tensor checks it against
// MPFR. Conversions from double go through __truncdfhf2: one RNE rounding.
#pragma once

#include <bit>
#include <compare>
#include <concepts>
#include <cstdint>
#include <ostream>

namespace symerr {

/// IEEE 754 binary16 (FP16) storage with correctly rounded arithmetic, on GCC's
/// _Float16: each + - * / is evaluated in binary32 and rounded once to binary16,
/// which is correctly rounded since 24 >= 2·11 + 2 (Figueroa 1995).
class Half {
 public:
  Half() = default;
  ///@{
  /// The value rounded to FP16 (one rounding to nearest, ties to even); integers
  /// convert through double (exact below 2^53), then round once.
  explicit Half(double x) noexcept : v_(static_cast<_Float16>(x)) {}
  explicit Half(float x) noexcept : v_(static_cast<_Float16>(x)) {}
  // Integers convert through double (exact below 2^53), then round once.
  template <std::integral I>
  explicit Half(I i) noexcept : v_(static_cast<_Float16>(static_cast<double>(i))) {}
  ///@}

  /// The value of the bit pattern `bits`.
  static Half from_bits(std::uint16_t bits) noexcept {
    Half h;
    h.v_ = std::bit_cast<_Float16>(bits);
    return h;
  }
  /// The value of a native _Float16.
  static Half from_native(_Float16 x) noexcept {
    Half h;
    h.v_ = x;
    return h;
  }
  /// The bit pattern.
  std::uint16_t bits() const noexcept { return std::bit_cast<std::uint16_t>(v_); }
  /// The native _Float16 value.
  _Float16 native() const noexcept { return v_; }

  ///@{
  /// Exact conversion to double or float.
  explicit operator double() const noexcept { return static_cast<double>(v_); }
  explicit operator float() const noexcept { return static_cast<float>(v_); }
  ///@}

  ///@{
  /// Each result is assigned to _Float16 at once: one rounding per operation.
  friend Half operator+(Half a, Half b) noexcept { return from_native(a.v_ + b.v_); }
  friend Half operator-(Half a, Half b) noexcept { return from_native(a.v_ - b.v_); }
  friend Half operator*(Half a, Half b) noexcept { return from_native(a.v_ * b.v_); }
  friend Half operator/(Half a, Half b) noexcept { return from_native(a.v_ / b.v_); }
  friend Half operator-(Half a) noexcept { return from_bits(a.bits() ^ 0x8000u); }
  ///@}

  ///@{
  /// IEEE comparisons: NaN is unordered, +0 == -0.
  friend bool operator==(Half a, Half b) noexcept { return a.v_ == b.v_; }
  friend std::partial_ordering operator<=>(Half a, Half b) noexcept {
    return static_cast<float>(a.v_) <=> static_cast<float>(b.v_);
  }
  ///@}

 private:
  _Float16 v_ = 0;
};

static_assert(sizeof(Half) == 2);

/// Prints the value as a double.
inline std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<double>(h); }

}  // namespace symerr
