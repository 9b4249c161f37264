// Int4 / UInt4: 4-bit two's-complement and unsigned integers (INT4, UINT4),
// one value per object. Construction from an integer and + - * wrap modulo 16,
// like the conversion of an integer to a narrower C++ integer type.
// Division has no operator: its rounding (floor or truncation) is explicit,
// see <symerr/ops/integer_arith.hpp>.
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <ostream>

namespace symerr {

/// A 4-bit two's-complement (`Signed`) or unsigned integer (Int4, UInt4), one
/// value per object. Construction from an integer and + - * wrap modulo 16;
/// division has no operator (its rounding is explicit, <symerr/ops/integer_arith.hpp>).
template <bool Signed>
class BasicInt4 {
 public:
  ///@{
  /// The range of values: [-8, 7] signed, [0, 15] unsigned.
  static constexpr int min_value = Signed ? -8 : 0;
  static constexpr int max_value = Signed ? 7 : 15;
  ///@}

  constexpr BasicInt4() = default;
  /// v modulo 16, represented in [min_value, max_value].
  template <std::integral I>
  explicit constexpr BasicInt4(I v) noexcept : v_(wrap(static_cast<unsigned>(static_cast<unsigned long long>(v) & 0xFu))) {}

  /// The low 4 bits of `nibble` as an encoding.
  static constexpr BasicInt4 from_bits(std::uint8_t nibble) noexcept {
    BasicInt4 r;
    r.v_ = wrap(nibble & 0xFu);
    return r;
  }
  /// The 4-bit encoding (low nibble).
  constexpr std::uint8_t bits() const noexcept { return static_cast<std::uint8_t>(v_ & 0xF); }
  /// The value in [min_value, max_value].
  constexpr int value() const noexcept { return v_; }
  ///@{
  /// The value as a wider type (exact).
  explicit constexpr operator int() const noexcept { return v_; }
  explicit constexpr operator long long() const noexcept { return v_; }
  explicit constexpr operator double() const noexcept { return v_; }
  ///@}

  ///@{
  /// Arithmetic modulo 16 (wraps like a narrowing integer conversion).
  friend constexpr BasicInt4 operator+(BasicInt4 a, BasicInt4 b) noexcept { return BasicInt4(a.v_ + b.v_); }
  friend constexpr BasicInt4 operator-(BasicInt4 a, BasicInt4 b) noexcept { return BasicInt4(a.v_ - b.v_); }
  friend constexpr BasicInt4 operator*(BasicInt4 a, BasicInt4 b) noexcept { return BasicInt4(a.v_ * b.v_); }
  friend constexpr BasicInt4 operator-(BasicInt4 a) noexcept { return BasicInt4(-a.v_); }
  ///@}
  ///@{
  /// Comparison of values.
  friend constexpr bool operator==(BasicInt4, BasicInt4) noexcept = default;
  friend constexpr std::strong_ordering operator<=>(BasicInt4 a, BasicInt4 b) noexcept { return a.v_ <=> b.v_; }
  ///@}

 private:
  static constexpr std::int8_t wrap(unsigned low4) noexcept {
    return static_cast<std::int8_t>(Signed && low4 >= 8 ? static_cast<int>(low4) - 16 : static_cast<int>(low4));
  }
  std::int8_t v_ = 0;
};

/// Prints the value as an integer.
template <bool Signed>
std::ostream& operator<<(std::ostream& os, BasicInt4<Signed> v) {
  return os << v.value();
}

/// 4-bit two's-complement integer (INT4).
using Int4 = BasicInt4<true>;
/// 4-bit unsigned integer (UINT4).
using UInt4 = BasicInt4<false>;

static_assert(Int4(7) + Int4(1) == Int4(-8));
static_assert(UInt4(0) - UInt4(1) == UInt4(15));
static_assert(Int4(-8) * Int4(-1) == Int4(-8));

}  // namespace symerr
