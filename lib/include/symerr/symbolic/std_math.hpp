// The qualified spellings std::exp(x), std::sqrt(x), std::fmax(a, b), ...
// for symerr's number types (SymbolicDomainError<D> of every domain, and the
// types derived from it: CFloat, CDouble); and std::printf(fmt, x) with a
// symerr value refused at compile time.
//
// A C++ kernel often writes its math functions qualified. std::exp has no
// overload for a class type, so `std::exp(x)` with x symbolic did not compile
// (only unqualified `exp(x)`, or `using std::exp; exp(x)`, found symerr's by
// argument-dependent lookup). This header declares, in namespace std, one
// constrained function template per name that forwards to the function an
// unqualified call finds — the same function, so `std::exp(x)` and `exp(x)`
// give the same result (tests/dropin/test_spellings.cpp). The templates
// take part in overload resolution only when an operand is a symerr number
// type: a call on float, double or an integer resolves as before.
//
// Standard conformance: adding declarations to namespace std is formally
// undefined behaviour ([namespace.std]). The declarations here are function
// templates whose constraint no standard or user type satisfies, so they can
// only be selected for a symerr type — where the call would otherwise not
// compile; checked with g++ 12 / libstdc++. Define SYMERR_NO_STD_OVERLOADS
// before including a symerr header to leave namespace std untouched (then
// write the calls unqualified).
//
// Included by <symerr/verify/symbolic/driver.hpp> (the kernel-verification
// entry point); <symerr/symbolic.hpp> alone does not include it.
#pragma once

#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>

#include <symerr/elementary.hpp>

#if !defined(SYMERR_NO_STD_OVERLOADS)

namespace symerr::detail {
template <RealDomain D>
std::true_type symbolic_base_test(const SymbolicDomainError<D>*);
std::false_type symbolic_base_test(...);
// T is SymbolicDomainError<D> for some domain D, or derived from one.
template <class T>
inline constexpr bool symbolic_like_v =
    decltype(symbolic_base_test(std::declval<const std::remove_cvref_t<T>*>()))::value;
template <class... T>
concept StdMathOperands = (symbolic_like_v<T> || ...);
}  // namespace symerr::detail

// The unqualified calls, outside namespaces std and symerr: for a symbolic
// argument, argument-dependent lookup finds symerr's overloads (the global
// C functions of <math.h> take arithmetic types only).
namespace symerr_std_math {
#define SYMERR_STD_FORWARD(fn)                                 \
  template <class... A>                                        \
  auto fn##_(const A&... a) -> decltype(fn(a...)) {            \
    return fn(a...);                                           \
  }
#define SYMERR_STD_NAMES(X)                                                                                   \
  X(sqrt) X(cbrt) X(fabs) X(abs) X(exp) X(expm1) X(exp2) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) \
  X(tan) X(atan) X(asin) X(acos) X(sinh) X(cosh) X(asinh) X(acosh) X(atanh) X(tanh) X(erf) X(erfc) X(floor)    \
  X(ceil) X(trunc) X(round) X(rint) X(nearbyint) X(isnan) X(isinf) X(isfinite) X(fmin) X(fmax) X(pow)  \
  X(signbit) X(isnormal) X(fpclassify) X(copysign) X(fdim) X(copysignf) X(fdimf) X(frexp) X(modf) X(frexpf) X(modff) X(remainder) X(remainderf) \
  X(fmod) X(hypot) X(atan2) X(ldexp) X(scalbn) X(scalbln) X(fma) X(lrint) X(llrint) X(lround) X(llround) \
  X(sqrtf) X(cbrtf) X(fabsf) X(expf) X(expm1f) X(exp2f) X(logf) X(log1pf) X(log2f) X(log10f) X(sinf)    \
  X(cosf) X(tanf) X(atanf) X(asinf) X(acosf) X(sinhf) X(coshf) X(asinhf) X(acoshf) X(atanhf) X(tanhf)   \
  X(erff) X(erfcf) X(floorf) X(ceilf) X(truncf) X(roundf) X(rintf) X(nearbyintf) X(fminf) X(fmaxf) X(powf)       \
  X(fmodf) X(hypotf) X(atan2f) X(ldexpf) X(scalbnf) X(scalblnf) X(fmaf) X(lrintf) X(llrintf) X(lroundf)   \
  X(llroundf)
SYMERR_STD_NAMES(SYMERR_STD_FORWARD)
#undef SYMERR_STD_FORWARD
}  // namespace symerr_std_math

namespace std {
#define SYMERR_STD_DECLARE(fn)                                                   \
  template <class... A>                                                          \
    requires(sizeof...(A) >= 1 && sizeof...(A) <= 3 &&                          \
             ::symerr::detail::StdMathOperands<A...>)                            \
  auto fn(const A&... a) -> decltype(::symerr_std_math::fn##_(a...)) {           \
    return ::symerr_std_math::fn##_(a...);                                       \
  }
///@{
/// std::sqrt, std::exp, std::fmax, std::isnan, ... (every C math name symerr implements,
/// float names included) for symbolic operands: each forwards to symerr's function
/// found by argument-dependent lookup, so that `std::exp(x)` compiles for a symbolic x.
SYMERR_STD_NAMES(SYMERR_STD_DECLARE)
///@}
#undef SYMERR_STD_DECLARE

///@{
/// std::printf(fmt, x) and its family with a symerr value among the arguments:
/// a compile error naming the call, as for the unqualified spellings
/// (<symerr/symbolic/printf_guard.hpp>).
template <class... A>
  requires ::symerr::any_refuses_varargs_v<A...>
int printf(const char*, const A&...) {
  static_assert(!::symerr::any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("std::printf"));
  return 0;
}
template <class... A>
  requires ::symerr::any_refuses_varargs_v<A...>
int fprintf(std::FILE*, const char*, const A&...) {
  static_assert(!::symerr::any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("std::fprintf"));
  return 0;
}
template <class... A>
  requires ::symerr::any_refuses_varargs_v<A...>
int sprintf(char*, const char*, const A&...) {
  static_assert(!::symerr::any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("std::sprintf"));
  return 0;
}
template <class... A>
  requires ::symerr::any_refuses_varargs_v<A...>
int snprintf(char*, std::size_t, const char*, const A&...) {
  static_assert(!::symerr::any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("std::snprintf"));
  return 0;
}
///@}
}  // namespace std

#undef SYMERR_STD_NAMES

#endif  // SYMERR_NO_STD_OVERLOADS
