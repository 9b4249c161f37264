// Scalar integer arithmetic of the operators, for every IntegerElement
// (INT8...UINT64 as C++ integers, INT4/UINT4 as Int4/UInt4):
//   add, sub, mul: the exact result reduced modulo 2^n into the type's range;
//   divide: floor or truncation of the exact quotient, then reduced modulo 2^n
//   (only INT_MIN / -1 needs it: INT8 -128 / -1 = 128 wraps to -128);
//   a zero divisor gives std::nullopt (undefined), never a trap.
// Everything is computed in unsigned 64-bit or signed 128-bit arithmetic,
// where no operation can overflow: no undefined behaviour for any input.
#pragma once

#include <cstdint>
#include <optional>

#include <symerr/element_type.hpp>
#include <symerr/ops/semantics.hpp>

namespace symerr {

namespace detail {

template <IntegerElement T>
constexpr __int128 widen(T v) noexcept {
  if constexpr (SmallInteger<T>) return v.value();
  else return static_cast<__int128>(v);
}

// v modulo 2^n, represented in T (C++20 integral conversion is modular).
template <IntegerElement T>
constexpr T wrap_to(__int128 v) noexcept {
  const auto u = static_cast<unsigned __int128>(v);
  if constexpr (SmallInteger<T>) return T(static_cast<unsigned>(u & 0xFu));
  else return static_cast<T>(u);
}

template <IntegerElement T>
constexpr std::uint64_t as_u64(T v) noexcept {
  if constexpr (SmallInteger<T>) return static_cast<std::uint64_t>(static_cast<long long>(v.value()));
  else return static_cast<std::uint64_t>(v);
}

}  // namespace detail

///@{
/// a + b, a − b, a · b computed exactly and reduced modulo 2^n (two's-complement wrap-around).
template <IntegerElement T>
constexpr T wrapping_add(T a, T b) noexcept {
  return detail::wrap_to<T>(detail::as_u64(a) + detail::as_u64(b));
}
template <IntegerElement T>
constexpr T wrapping_sub(T a, T b) noexcept {
  return detail::wrap_to<T>(detail::as_u64(a) - detail::as_u64(b));
}
template <IntegerElement T>
constexpr T wrapping_mul(T a, T b) noexcept {
  return detail::wrap_to<T>(detail::as_u64(a) * detail::as_u64(b));
}
///@}

/// The quotient a / b rounded as `mode` says, reduced modulo 2^n; nullopt iff b == 0.
template <IntegerElement T>
constexpr std::optional<T> integer_divide(T a, T b, IntegerDivision mode) noexcept {
  const __int128 x = detail::widen(a), y = detail::widen(b);
  if (y == 0) return std::nullopt;
  __int128 q = x / y;  // truncated; |x| <= 2^64 and y != 0: no overflow
  if (mode == IntegerDivision::Floor && x % y != 0 && ((x < 0) != (y < 0))) q -= 1;
  return detail::wrap_to<T>(q);
}

static_assert(*integer_divide<std::int8_t>(-128, -1, IntegerDivision::Truncate) == -128);
static_assert(*integer_divide<int>(-7, 2, IntegerDivision::Floor) == -4);
static_assert(*integer_divide<int>(-7, 2, IntegerDivision::Truncate) == -3);
static_assert(wrapping_sub<std::uint8_t>(100, 200) == 156);

}  // namespace symerr
