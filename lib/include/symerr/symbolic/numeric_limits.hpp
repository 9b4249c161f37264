// std::numeric_limits<SymbolicDomainError<D>>: what a generic kernel asks for
// its number type — `T m = std::numeric_limits<T>::lowest();` before a
// running maximum, `max()` before a minimum, `epsilon()` in a tolerance.
//
// Without this specialization the primary template answers T() — an exact 0
// — and a maximum of negative values silently starts at 0. The limits of a
// floating-point format belong to the format, which a SymbolicDomainError
// carries as a value, not as a type: they are the limits of the thread's
// literal format (<symerr/symbolic/dropin.hpp>), which the kernel driver sets
// to its inputs' format when they all have one (FP32 inputs: lowest() is
// −FLT_MAX in FP32), and ScopedLiteralFormat sets anywhere else. Without a
// float literal format the format-dependent values throw std::logic_error
// naming the member and the way to give a format; infinity() and quiet_NaN()
// are then the real-format ±inf / NaN, which take the format of the operand
// they meet. The members that are constants of one format (digits,
// max_exponent, …) are not declared: using one does not compile.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_NUMERIC_LIMITS_HPP_INCLUDED
#define SYMERR_SYMBOLIC_NUMERIC_LIMITS_HPP_INCLUDED

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <symerr/symbolic/dropin.hpp>

namespace symerr::detail {

// The float format of this thread's literals; throws naming `member`.
inline const FloatFormat& limits_format(const char* member) {
  const Format* f = literal_format();
  const FloatFormat* F = f ? std::get_if<FloatFormat>(f) : nullptr;
  if (!F)
    throw std::logic_error(std::string("std::numeric_limits<SymbolicDomainError>::") + member +
                           "(): the value depends on the floating-point format, and no float format is in scope " +
                           (f ? "(the literal format is " + format_name(*f) + ")" : "(literals are exact reals)") +
                           ": run the kernel through symerr::verify::run_kernel with inputs of one float format, "
                           "or set symerr::ScopedLiteralFormat(FP32) around it");
  return *F;
}

}  // namespace symerr::detail

namespace std {

/// std::numeric_limits of a symbolic value: the limits of the thread's literal
/// float format (<symerr/symbolic/dropin.hpp>), which the kernel driver sets to
/// its inputs' format and ScopedLiteralFormat sets elsewhere. Without a float
/// literal format the format-dependent members throw std::logic_error naming the
/// member and how to give a format; infinity() and quiet_NaN() need none.
template <symerr::RealDomain D>
struct numeric_limits<symerr::SymbolicDomainError<D>> {
 private:
  using S = symerr::SymbolicDomainError<D>;
  static S value(const char* member, double (*of)(const symerr::FloatFormat&)) {
    const symerr::FloatFormat& F = symerr::detail::limits_format(member);
    S v = S::constant(of(F), F);
    v.mode = symerr::detail::literal_format_state().mode;
    return v;
  }

 public:
  ///@{
  /// Traits of a set of executions' values (not one IEEE value: is_iec559 false;
  /// round_style indeterminate, the rounding being the value's mode).
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = false;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr bool is_iec559 = false;  // a set of executions, not one IEEE value
  static constexpr int radix = 2;
  static constexpr std::float_round_style round_style = std::round_indeterminate;  // the value's mode
  ///@}

  ///@{
  /// The format's lowest (−max finite), largest finite, smallest normal and
  /// smallest subnormal values, exact constants of the literal format; throw
  /// std::logic_error without a float literal format.
  static S lowest() { return value("lowest", [](const symerr::FloatFormat& F) { return -F.max_finite(); }); }
  static S max() { return value("max", [](const symerr::FloatFormat& F) { return F.max_finite(); }); }
  static S min() { return value("min", [](const symerr::FloatFormat& F) { return F.min_normal(); }); }
  static S denorm_min() {
    return value("denorm_min", [](const symerr::FloatFormat& F) { return F.min_subnormal(); });
    ///@}
  }
  /// 2^(1−p) of the literal format (throws as lowest() does).
  static S epsilon() {
    return value("epsilon", [](const symerr::FloatFormat& F) { return std::ldexp(1.0, 1 - F.precision); });
  }
  /// ½ ulp of 1 to nearest, 1 ulp in the directed modes
  static S round_error() {
    (void)symerr::detail::limits_format("round_error");
    const bool nearest = symerr::detail::literal_format_state().mode == symerr::RoundingMode::NearestEven;
    return value("round_error", nearest ? +[](const symerr::FloatFormat&) { return 0.5; }
                                        : +[](const symerr::FloatFormat&) { return 1.0; });
  }
  /// +inf (no format needed).
  static S infinity() { return S(std::numeric_limits<double>::infinity()); }
  /// A quiet NaN (no format needed).
  static S quiet_NaN() { return S(std::numeric_limits<double>::quiet_NaN()); }
};

}  // namespace std

#endif  // SYMERR_SYMBOLIC_NUMERIC_LIMITS_HPP_INCLUDED
