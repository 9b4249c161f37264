// The interval arithmetic under LeanError<F> (<symerr/lean.hpp>): an
// interval [lo, hi] as the vector pair (−lo, hi), rounded outward in
// round-to-nearest double arithmetic, and the helpers of its operations.
#pragma once

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <symerr/fp_environment.hpp>
#include <symerr/lean_interval.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace symerr {

namespace lean_detail {

// An interval [lo, hi] as the pair (−lo, hi): both ends are then upper
// bounds, so one vector operation rounds both outward, adds two intervals,
// and negates one (swap the lanes).
using Pair = double __attribute__((vector_size(16)));
using PairBits = std::int64_t __attribute__((vector_size(16)));
using FloatPair = float __attribute__((vector_size(8)));

[[gnu::always_inline]] inline Pair swap(Pair a) noexcept { return __builtin_shufflevector(a, a, 1, 0); }
[[gnu::always_inline]] inline Pair broadcast(double x) noexcept { return Pair{x, x}; }
[[gnu::always_inline]] inline Pair vmax(Pair a, Pair b) noexcept {
#if defined(__SSE2__)
  return reinterpret_cast<Pair>(_mm_max_pd(reinterpret_cast<__m128d>(a), reinterpret_cast<__m128d>(b)));
#else
  return Pair{std::max(a[0], b[0]), std::max(a[1], b[1])};
#endif
}
[[gnu::always_inline]] inline Pair vmin(Pair a, Pair b) noexcept { return -vmax(-a, -b); }
[[gnu::always_inline]] inline Pair vabs(Pair a) noexcept {
  return reinterpret_cast<Pair>(reinterpret_cast<PairBits>(a) & PairBits{INT64_MAX, INT64_MAX});
}
inline constexpr double kSlack = 0x1p-50;   // 8u, u = 2^-53
inline constexpr double kTiny = 0x1p-1074;  // FP64's smallest subnormal

// Rounds both ends outward: for every lane c, c + (|c|·2^-50 + 2^-1074)
// (round to nearest throughout) ≥ c + 6.9u|c| and ≥ c + 2^-1074. It covers
// what the operations below leave: an end that is the rounding of an exact
// value (error ≤ u|c|; none where the sum is subnormal), or the largest of
// the roundings of products (quotients) of exact or once-rounded operands
// (≤ 2.01u|c|: x ↦ x + 2.01u|x| is increasing, so the largest computed corner
// bounds every true corner), or an underflow (≤ 2^-1075). Rump, Zimmermann,
// Boldo and Melquiond (BIT 2009) use 2^-53(1 + 2^-52) for one successor step.
[[gnu::always_inline]] inline Pair widen(Pair c) noexcept { return c + (vabs(c) * kSlack + kTiny); }
// The next value of FP64 below x (x finite).
inline double next_down(double x) noexcept {
  if (x == 0) return -0x1p-1074;
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits - 1 : bits + 1);
}
// x − y rounded down and up exactly (TwoSum's remainder says on which side
// round-to-nearest fell; Knuth): the real value's enclosure fp − err.
// TwoSum's remainder (Knuth): s = RN(x + y) and s + r = x + y exactly (per lane).
template <class T>
inline T two_sum_remainder(T x, T y, T s) noexcept {
  const T v = s - x;
  return (x - (s - v)) + (y - v);
}
// A power of two (or zero): no significand bits.
inline bool power_of_two(double x) noexcept {
  return (std::bit_cast<std::uint64_t>(x) & 0x000FFFFFFFFFFFFFull) == 0;
}
// (x − y beyond DBL_MAX rounds to +inf: the bound below is DBL_MAX; near it
// TwoSum's s − x may overflow, a NaN remainder: then one step down)
inline double sub_down(double x, double y) noexcept {
  const double s = x - y;
  if (s == -INFINITY) return s;
  return !(two_sum_remainder(x, -y, s) >= 0) || s == INFINITY ? next_down(s) : s;
}
inline double sub_up(double x, double y) noexcept { return -sub_down(y, x); }
// The same for one end: up(c) ≥ c, down(c) ≤ c by the same margin.
inline double up(double c) noexcept { return c + (std::fabs(c) * kSlack + kTiny); }
inline double down(double c) noexcept { return c - (std::fabs(c) * kSlack + kTiny); }

// The extreme products (quotients) of two intervals, rounded to nearest, not
// widened: with a = (−a0, a1), b = (−b0, b1), a·b = (a0b0, a1b1) and
// a·swap(b) = (−a0b1, −a1b0); the ends are the maxima of the four and of
// their negations. Exact for the computed values' range (RN is monotone).
[[gnu::always_inline]] inline Pair corners(Pair p, Pair q) noexcept {
  const Pair x = vmax(p, -q), y = vmax(-p, q);
  return vmax(__builtin_shufflevector(y, x, 0, 2), __builtin_shufflevector(y, x, 1, 3));
}
// A NaN corner is inf·0: a bound beyond DBL_MAX (of a finite value) times an
// exact 0, which is 0 (corners' max would drop the NaN, losing that corner).
[[gnu::always_inline]] inline Pair zero_nan(Pair p) noexcept {
  return reinterpret_cast<Pair>(reinterpret_cast<PairBits>(p) & (p == p));
}
[[gnu::always_inline]] inline Pair product(Pair a, Pair b) noexcept {
  return corners(zero_nan(a * b), zero_nan(a * swap(b)));
}
// 0 ∉ b
[[gnu::always_inline]] inline Pair quotient(Pair a, Pair b) noexcept { return corners(a / b, a / swap(b)); }

// Half the spacing of F's values in the binade of m ≥ 0 (m a finite value
// of F), at least half F's smallest subnormal spacing (FP64: its smallest
// subnormal): a bound on |RN_F(x) − x| for every x with |RN_F(x)| ≤ m. A
// power of two.
template <class F>
[[gnu::always_inline]] inline double half_ulp(double m) noexcept {
  const double binade = std::bit_cast<double>(std::bit_cast<std::uint64_t>(m) & 0x7FF0000000000000ull);
  constexpr double scale = std::is_same_v<F, double> ? 0x1p-53 : 0x1p-24;
  constexpr double least = std::is_same_v<F, double> ? 0x1p-1074 : 0x1p-150;
  return std::max(binade * scale, least);
}

// The ends of a pair of exact results rounded to F (for FP32, the FP64
// result of two FP32 values rounded to FP32: double rounding is innocuous for
// +, −, ×, ÷ and √ since 53 ≥ 2·24 + 2, Figueroa 1995).
template <class F>
[[gnu::always_inline]] inline Pair to_format(Pair x) noexcept {
  if constexpr (std::is_same_v<F, double>) return x;
  else return __builtin_convertvector(__builtin_convertvector(x, FloatPair), Pair);
}

template <class F>
inline constexpr double kMax = static_cast<double>(std::numeric_limits<F>::max());

// True when the thread's floating-point environment is the library's
// (round to nearest, no FTZ/DAZ, every exception masked).
[[gnu::always_inline]] inline bool library_environment() noexcept {
#if defined(__x86_64__) && defined(__SSE2_MATH__)
  return (detail::read_mxcsr() & detail::kMxcsrControl) == detail::kMxcsrLibrary;
#else
  return false;  // elsewhere every operation takes the guarded path
#endif
}

// Out of line (domains/src/lean.cpp): messages and the guarded operations.
[[noreturn]] void fail(const std::string& what);
std::string range_text(const char* name, double lo, double hi);
template <class F>
const char* format_name() noexcept {
  return std::is_same_v<F, double> ? "FP64" : "FP32";
}
[[gnu::always_inline]] inline LeanInterval interval(Pair p) noexcept { return {-p[0], p[1]}; }
[[gnu::always_inline]] inline Pair pair(LeanInterval i) noexcept { return Pair{-i.lo, i.hi}; }

struct Guarded;  // friend: the out-of-line operations

}  // namespace lean_detail

}  // namespace symerr
