// The functions of LeanError<F> beyond its inline operations
// (<symerr/lean.hpp> includes this file at its end): the comparisons with
// numbers, the elementary functions through SymbolicError, the C99 float
// names, output, and std::numeric_limits.
#pragma once

#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include <symerr/lean.hpp>

namespace symerr {

// ---- comparisons with a number: with its exact value (as C compares) ----------
#define SYMERR_LEAN_COMPARE(op, call)                                                                  \
  template <class F, class A>                                                                         \
    requires std::is_arithmetic_v<A>                                                                  \
  bool operator op(const LeanError<F>& a, A c) {                                                      \
    const lean_detail::Sides x = lean_detail::sides(a), y = lean_detail::sides_of_number<F>(c);        \
    return call;                                                                                      \
  }                                                                                                   \
  template <class F, class A>                                                                         \
    requires std::is_arithmetic_v<A>                                                                  \
  bool operator op(A c, const LeanError<F>& a) {                                                      \
    const lean_detail::Sides y = lean_detail::sides(a), x = lean_detail::sides_of_number<F>(c);        \
    return call;                                                                                      \
  }
SYMERR_LEAN_COMPARE(<, lean_detail::less(x, y, false, "<", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(<=, lean_detail::less(x, y, true, "<=", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(>, lean_detail::less(y, x, false, ">", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(>=, lean_detail::less(y, x, true, ">=", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(==, lean_detail::equal(x, y, "==", lean_detail::format_name<F>()))
SYMERR_LEAN_COMPARE(!=, !lean_detail::equal(x, y, "!=", lean_detail::format_name<F>()))
#undef SYMERR_LEAN_COMPARE

// ---- the elementary functions, through SymbolicError ---------------------------
#define SYMERR_LEAN_UNARY(name)                                                  \
  template <class F>                                                             \
  LeanError<F> name(const LeanError<F>& x) {                                     \
    return LeanError<F>::from_symbolic(::symerr::name(x.to_symbolic()), #name); \
  }                                                                              \
  template <class F>                                                             \
  LeanError<F> name##f(const LeanError<F>& x) {                                  \
    return name(x);                                                              \
  }
SYMERR_LEAN_UNARY(exp)
SYMERR_LEAN_UNARY(expm1)
SYMERR_LEAN_UNARY(exp2)
SYMERR_LEAN_UNARY(log)
SYMERR_LEAN_UNARY(log1p)
SYMERR_LEAN_UNARY(log2)
SYMERR_LEAN_UNARY(log10)
SYMERR_LEAN_UNARY(sin)
SYMERR_LEAN_UNARY(cos)
SYMERR_LEAN_UNARY(tan)
SYMERR_LEAN_UNARY(asin)
SYMERR_LEAN_UNARY(acos)
SYMERR_LEAN_UNARY(atan)
SYMERR_LEAN_UNARY(sinh)
SYMERR_LEAN_UNARY(cosh)
SYMERR_LEAN_UNARY(tanh)
SYMERR_LEAN_UNARY(asinh)
SYMERR_LEAN_UNARY(acosh)
SYMERR_LEAN_UNARY(atanh)
SYMERR_LEAN_UNARY(erf)
SYMERR_LEAN_UNARY(erfc)
SYMERR_LEAN_UNARY(cbrt)
#undef SYMERR_LEAN_UNARY

template <class F>
LeanError<F> pow(const LeanError<F>& x, const LeanError<F>& y) {
  return LeanError<F>::from_symbolic(::symerr::pow(x.to_symbolic(), y.to_symbolic()), "pow");
}
template <class F, class A>
  requires std::is_arithmetic_v<A>
LeanError<F> pow(const LeanError<F>& x, A y) {
  return pow(x, LeanError<F>(y));
}
template <class F>
LeanError<F> hypot(const LeanError<F>& x, const LeanError<F>& y) {
  return LeanError<F>::from_symbolic(::symerr::hypot(x.to_symbolic(), y.to_symbolic()), "hypot");
}
template <class F>
LeanError<F> atan2(const LeanError<F>& y, const LeanError<F>& x) {
  return LeanError<F>::from_symbolic(::symerr::atan2(y.to_symbolic(), x.to_symbolic()), "atan2");
}
/// The C99 float names of the inline operations (a kernel written for float).
template <class F>
LeanError<F> fdimf(const LeanError<F>& a, const LeanError<F>& b) { return fdim(a, b); }
template <class F>
LeanError<F> copysignf(const LeanError<F>& m, const LeanError<F>& s) { return copysign(m, s); }
template <class F>
LeanError<F> sqrtf(const LeanError<F>& x) { return sqrt(x); }
template <class F>
LeanError<F> fabsf(const LeanError<F>& x) { return fabs(x); }
template <class F>
LeanError<F> fmaxf(const LeanError<F>& a, const LeanError<F>& b) { return fmax(a, b); }
template <class F>
LeanError<F> fminf(const LeanError<F>& a, const LeanError<F>& b) { return fmin(a, b); }
template <class F>
LeanError<F> fmaf(const LeanError<F>& a, const LeanError<F>& b, const LeanError<F>& c) { return fma(a, b, c); }
template <class F>
LeanError<F> powf(const LeanError<F>& x, const LeanError<F>& y) { return pow(x, y); }

/// {fp [lo, hi], err [lo, hi], real [lo, hi]}, 17 significant digits
template <class F>
std::ostream& operator<<(std::ostream& os, const LeanError<F>& x) {
  const LeanInterval f = x.fp(), e = x.err(), r = x.real();
  return os << "{" << lean_detail::range_text("fp", f.lo, f.hi) << ", " << lean_detail::range_text("err", e.lo, e.hi)
            << ", " << lean_detail::range_text("real", r.lo, r.hi) << "}";
}

static_assert(std::is_trivially_copyable_v<LeanDouble> && std::is_trivially_destructible_v<LeanDouble>);
static_assert(sizeof(LeanDouble) == 48 && sizeof(LeanFloat) == 48);

extern template class LeanError<double>;
extern template class LeanError<float>;

}  // namespace symerr

/// std::numeric_limits<LeanError<F>>: F's limits as exact constants
/// (`T m = std::numeric_limits<T>::lowest();` before a running maximum);
/// without it the primary template answers T(), an exact 0, and a maximum of
/// negative values would silently start at 0. LeanError has no infinities
/// and no NaN: infinity() and quiet_NaN() throw std::domain_error.
template <class F>
struct std::numeric_limits<symerr::LeanError<F>> {
  using T = symerr::LeanError<F>;  ///< The value type.
  using L = std::numeric_limits<F>;  ///< F's own limits.
  static constexpr bool is_specialized = true;  ///< Specialized.
  static constexpr bool is_signed = true;  ///< Signed.
  static constexpr bool is_integer = false;  ///< Not an integer type.
  static constexpr bool is_exact = false;  ///< Not exact.
  static constexpr bool has_infinity = false;  ///< No infinities.
  static constexpr bool has_quiet_NaN = false;  ///< No NaN.
  static constexpr bool has_signaling_NaN = false;  ///< No signaling NaN.
  static constexpr bool is_iec559 = false;  ///< Not IEC 559: a set of executions' values.
  static constexpr bool is_bounded = true;  ///< Bounded.
  static constexpr bool is_modulo = false;  ///< Not modular.
  static constexpr int digits = L::digits;  ///< F's.
  static constexpr int digits10 = L::digits10;  ///< F's.
  static constexpr int max_digits10 = L::max_digits10;  ///< F's.
  static constexpr int radix = 2;  ///< 2.
  static constexpr int min_exponent = L::min_exponent;  ///< F's.
  static constexpr int max_exponent = L::max_exponent;  ///< F's.
  static constexpr std::float_round_style round_style = std::round_to_nearest;  ///< Round to nearest (the computed program's rounding).
  static T min() { return T(L::min()); }  ///< F's smallest normal, as a LeanError.
  static T max() { return T(L::max()); }  ///< F's largest finite value.
  static T lowest() { return T(L::lowest()); }  ///< F's lowest finite value.
  static T epsilon() { return T(L::epsilon()); }  ///< F's epsilon.
  static T round_error() { return T(0.5); }  ///< 0.5.
  static T denorm_min() { return T(L::denorm_min()); }  ///< F's smallest subnormal.
  static T infinity() { symerr::lean_detail::fail(no_special("infinity()")); }  ///< Throws std::domain_error: no infinities.
  static T quiet_NaN() { symerr::lean_detail::fail(no_special("quiet_NaN()")); }  ///< Throws std::domain_error: no NaN.

 private:
  static std::string no_special(const char* member) {
    std::string text = "std::numeric_limits<LeanError<";  // appended: GCC 12 warns on string + literal chains
    text.append(symerr::lean_detail::format_name<F>()).append(">>::").append(member);
    text.append(": LeanError has no infinities and no NaN; start a running maximum at lowest() or at the first "
                "element, or use SymbolicError");
    return text;
  }
};
