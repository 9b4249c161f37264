// The integer of a symbolic value: C's conversion `(int)x` (operator I(),
// declared in <symerr/symbolic.hpp>), lrint / llrint and lround / llround
// (detail::to_integer). Part of the drop-in functions of
// <symerr/symbolic/dropin.hpp>, which includes it at its end: included on its
// own, it includes symbolic.hpp, which includes it at its place (hence a
// guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_TO_INTEGER_HPP_INCLUDED
#define SYMERR_SYMBOLIC_TO_INTEGER_HPP_INCLUDED

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace symerr {

namespace detail {

// The integer a double becomes (exact; no dependence on the rounding mode).
inline double to_integer_value(ToInteger k, double v) {
  switch (k) {
    case ToInteger::Trunc: return std::trunc(v);
    case ToInteger::Floor: return std::floor(v);
    case ToInteger::Ceil: return std::ceil(v);
    case ToInteger::NearestAway: return std::round(v);
    case ToInteger::NearestEven: {
      const double r = std::round(v);  // ties away; a tie goes to the even neighbour instead
      return std::fabs(r - v) == 0.5 && std::fmod(r, 2.0) != 0 ? r - std::copysign(1.0, v) : r;
    }
  }
  return v;
}

// SymbolicDomainError::operator I() (k = Trunc), lrint, lround: the
// integer of the computed value in the computed program and of the real
// value in the ideal one. One integer when every execution gives the same;
// else a bisection over the candidates, where "the integer is > n" is one
// comparison of x itself with n's switch point (x ≥ t or x > t), each
// decided where the ranges allow and otherwise a branch (forked by the
// driver, whose path conditions then relate x's real and computed values).
template <class I, RealDomain D>
I to_integer(const SymbolicDomainError<D>& x, ToInteger k) {
  constexpr std::size_t kMaxIntegers = 4096;
  const auto refuse = [&](const std::string& why) {
    std::ostringstream m;
    m << "conversion of a symbolic value to " << (std::is_signed_v<I> ? "a signed " : "an unsigned ")
      << 8 * sizeof(I) << "-bit integer type: " << why << "; the value: " << x;
    throw std::domain_error(m.str());
  };
  const SpecialStates& s = x.specials;
  if (s.may_be_nan || s.may_be_pos_inf || s.may_be_neg_inf || s.may_be_undefined || !s.may_be_finite)
    refuse("it may be NaN, infinite or undefined, where C's conversion is undefined");
  const double lo = to_integer_value(k, std::min(x.real.lower(), x.fp.lower()));
  const double hi = to_integer_value(k, std::max(x.real.upper(), x.fp.upper()));
  const double limit = std::ldexp(1.0, std::numeric_limits<I>::digits);  // 2^digits: the first value beyond max()
  const double least = std::is_signed_v<I> ? -limit : 0.0;
  if (!(lo >= least && hi < limit))
    refuse("it may lie outside the type's range, where C's conversion is undefined");
  if (lo == hi) return static_cast<I>(lo);
  if (hi - lo >= static_cast<double>(kMaxIntegers))
    refuse("it spans more than 4096 integers (one path of the branch driver each)");
  if (std::max(std::fabs(lo), std::fabs(hi)) >= 0x1p52)
    refuse("it may exceed 2^52 in magnitude with more than one integer possible");
  // "the integer is > n", one comparison of x with n's switch point. The
  // comparisons are of a modifiable copy of x: under the driver each one
  // narrows the copy's real range (ideal outcome) and computed range
  // (computed outcome), and reduce() keeps them within x's err of each other
  // (fp ⊆ real + err), so a later comparison is decided on those ranges and an
  // ideal integer n is paired only with computed integers that err allows
  // (with the fixed x, nearbyint(x / s) of an FP32 x in [-1, 1], s = 2/255,
  // paired integers 4 apart on a 64-box subdivision).
  SymbolicDomainError<D> v = x;
  const auto above = [&](double n) -> bool {
    switch (k) {
      case ToInteger::Trunc: return n >= 0 ? static_cast<bool>(v >= n + 1) : static_cast<bool>(v > n);
      case ToInteger::Floor: return static_cast<bool>(v >= n + 1);
      case ToInteger::Ceil: return static_cast<bool>(v > n);
      case ToInteger::NearestAway: return n >= 0 ? static_cast<bool>(v >= n + 0.5) : static_cast<bool>(v > n + 0.5);
      case ToInteger::NearestEven:  // a tie n + 1/2 goes to the even one of n, n + 1
        return std::fmod(n + 1, 2.0) == 0 ? static_cast<bool>(v >= n + 0.5) : static_cast<bool>(v > n + 0.5);
    }
    return false;
  };
  // binary search: about log2(hi − lo) comparisons on each path (a linear
  // chain made the driver's path conditions, and its linear programs, as
  // long as the range: an int8 quantise-dequantise of 4 FP32 values in the
  // Affine domain took 16 897 runs and 120 s that way, 1939 runs and 4.5 s so)
  double a = lo, b = hi;  // the integer is in [a, b]
  while (a < b) {
    const double mid = std::floor(a / 2 + b / 2);  // a <= mid < b
    if (above(mid)) a = mid + 1;
    else b = mid;
  }
  return static_cast<I>(a);
}

}  // namespace detail

// C lrint / llrint (in the value's rounding mode, as rint) and lround /
// llround (ties away from zero), and their f / l names: a plain integer, by
// comparisons of x itself with the switch points (detail::to_integer: one
// integer when every execution agrees, else branches the driver forks and
// relates to x's real and computed values; std::domain_error naming the
// value where C's result is unspecified: NaN, infinity, beyond the type).
namespace detail {
inline ToInteger to_integer_of_mode(RoundingMode m) {
  switch (m) {
    case RoundingMode::TowardZero: return ToInteger::Trunc;
    case RoundingMode::Upward: return ToInteger::Ceil;
    case RoundingMode::Downward: return ToInteger::Floor;
    default: return ToInteger::NearestEven;
  }
}
}  // namespace detail
#define SYMERR_INTEGRAL_TO_INT(name, I, kind)               \
  template <RealDomain D>                                    \
  I name(const SymbolicDomainError<D>& x) {                  \
    return detail::to_integer<I>(x, kind);                   \
  }
#define SYMERR_INTEGRAL_TO_INT_NAMES(name, I, kind) \
  SYMERR_INTEGRAL_TO_INT(name, I, kind)             \
  SYMERR_INTEGRAL_TO_INT(name##f, I, kind)          \
  SYMERR_INTEGRAL_TO_INT(name##l, I, kind)
///@{
/// C lrint, llrint (in the value's rounding mode, as rint) and lround, llround (ties
/// away from zero), and their f and l names: a plain integer, one per execution path
/// (undecided switch points are branches the driver forks; UndecidedBranch outside it).
/// @throws std::domain_error when C's result may be unspecified (NaN, infinity, beyond the type).
SYMERR_INTEGRAL_TO_INT_NAMES(lrint, long, detail::to_integer_of_mode(x.mode))
SYMERR_INTEGRAL_TO_INT_NAMES(llrint, long long, detail::to_integer_of_mode(x.mode))
SYMERR_INTEGRAL_TO_INT_NAMES(lround, long, detail::ToInteger::NearestAway)
SYMERR_INTEGRAL_TO_INT_NAMES(llround, long long, detail::ToInteger::NearestAway)
///@}
#undef SYMERR_INTEGRAL_TO_INT_NAMES
#undef SYMERR_INTEGRAL_TO_INT

}  // namespace symerr

#endif  // SYMERR_SYMBOLIC_TO_INTEGER_HPP_INCLUDED
