// The C99 spellings of the math functions for SymbolicDomainError: the float
// names (sqrtf, fabsf, fminf, fmaxf, expf, expm1f, exp2f, logf, log1pf, log2f, log10f,
// sinf, cosf, tanf, atanf, asinf, acosf, sinhf, coshf, asinhf, acoshf, atanhf,
// tanhf, erff, erfcf, powf, floorf, ceilf, truncf, roundf, rintf, nearbyintf, fmaf, fmodf, cbrtf,
// hypotf, atan2f, ldexpf, scalbnf, scalblnf, copysignf, fdimf, remainderf) and
// the long double ones (sqrtl, ...). A C kernel
// written for float calls sqrtf(x); with float replaced by a symbolic type
// (<symerr/substitute.hpp>) x is symbolic, and these overloads, found by
// argument-dependent lookup next to the C functions, are the same functions
// as sqrt, exp, fmax, ... The *format of the value* decides the rounding and
// the accuracy model's entry, not the suffix: expf of an FP32 value is
// bounded by the model's FP32 exp entry (glibc's expf by default).
//
// pow with a symbolic exponent (a C kernel's `powf(x, p)` with p a replaced
// float parameter) is pow(x, c) when the exponent is one exact value c (a
// literal, or an input of zero width and zero error); a variable exponent is
// not supported (std::invalid_argument naming the exponent).
#pragma once

#include <sstream>
#include <stdexcept>

#include <symerr/symbolic/elementary/cbrt.hpp>
#include <symerr/symbolic/elementary/erf.hpp>
#include <symerr/symbolic/elementary/exp.hpp>
#include <symerr/symbolic/elementary/exp2.hpp>
#include <symerr/symbolic/elementary/hyperbolic.hpp>
#include <symerr/symbolic/elementary/hypot_atan2.hpp>
#include <symerr/symbolic/elementary/inverse_trig.hpp>
#include <symerr/symbolic/elementary/ldexp.hpp>
#include <symerr/symbolic/elementary/log.hpp>
#include <symerr/symbolic/elementary/pow.hpp>
#include <symerr/symbolic/elementary/tanh.hpp>
#include <symerr/symbolic/elementary/trig.hpp>

namespace symerr {

/// pow with a symbolic exponent that is one exact value (a literal, or an input of zero
/// width and zero error): pow(x, c) with that value.
/// @throws std::invalid_argument when the exponent may take several values or be special.
template <RealDomain D>
SymbolicDomainError<D> pow(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& c,
                           const AccuracyModel& model = current_accuracy_model()) {
  const SpecialStates& s = c.specials;
  const bool one_value = c.real.lower() == c.real.upper() && c.fp.lower() == c.real.lower() &&
                         c.fp.upper() == c.fp.lower() && !s.may_be_nan && !s.may_be_pos_inf &&
                         !s.may_be_neg_inf && !s.may_be_undefined;
  if (!one_value) {
    std::ostringstream m;
    m << "pow: the exponent must be one exact value (a literal or an input of zero width and zero error); got "
      << c;
    throw std::invalid_argument(m.str());
  }
  return pow(x, c.real.lower(), model);
}
/// A number base and a symbolic exponent (`powf(10000.0f, e)`, one exact value):
/// the base as a drop-in number (the literal format applies).
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> pow(A x, const SymbolicDomainError<D>& c,
                           const AccuracyModel& model = current_accuracy_model()) {
  return pow(SymbolicDomainError<D>(x), c, model);
}

#define SYMERR_C_NAME_UNARY(name, fn)                                           \
  template <RealDomain D>                                                        \
  SymbolicDomainError<D> name(const SymbolicDomainError<D>& x) {                 \
    return fn(x);                                                                \
  }
#define SYMERR_C_NAMES_UNARY(fn) \
  SYMERR_C_NAME_UNARY(fn##f, fn) \
  SYMERR_C_NAME_UNARY(fn##l, fn)
///@{
/// The C99 float (f) and long double (l) names of the unary functions (sqrtf,
/// expf, floorl, ...): the same function (the value's format decides, not the suffix).
SYMERR_C_NAMES_UNARY(sqrt)
SYMERR_C_NAMES_UNARY(fabs)
SYMERR_C_NAMES_UNARY(exp)
SYMERR_C_NAMES_UNARY(expm1)
SYMERR_C_NAMES_UNARY(exp2)
SYMERR_C_NAMES_UNARY(log)
SYMERR_C_NAMES_UNARY(log1p)
SYMERR_C_NAMES_UNARY(log2)
SYMERR_C_NAMES_UNARY(log10)
SYMERR_C_NAMES_UNARY(sin)
SYMERR_C_NAMES_UNARY(cos)
SYMERR_C_NAMES_UNARY(tan)
SYMERR_C_NAMES_UNARY(atan)
SYMERR_C_NAMES_UNARY(asin)
SYMERR_C_NAMES_UNARY(acos)
SYMERR_C_NAMES_UNARY(sinh)
SYMERR_C_NAMES_UNARY(cosh)
SYMERR_C_NAMES_UNARY(asinh)
SYMERR_C_NAMES_UNARY(acosh)
SYMERR_C_NAMES_UNARY(atanh)
SYMERR_C_NAMES_UNARY(tanh)
SYMERR_C_NAMES_UNARY(floor)
SYMERR_C_NAMES_UNARY(ceil)
SYMERR_C_NAMES_UNARY(trunc)
SYMERR_C_NAMES_UNARY(round)
SYMERR_C_NAMES_UNARY(rint)
SYMERR_C_NAMES_UNARY(nearbyint)
SYMERR_C_NAMES_UNARY(erf)
SYMERR_C_NAMES_UNARY(erfc)
SYMERR_C_NAMES_UNARY(cbrt)
///@}
#undef SYMERR_C_NAMES_UNARY
#undef SYMERR_C_NAME_UNARY

// ldexpf, scalbnf, scalblnf (and the l names): ldexp of a symbolic value by an integer.
#define SYMERR_C_NAME_SCALE(name, fn, N)                                         \
  template <RealDomain D>                                                        \
  SymbolicDomainError<D> name(const SymbolicDomainError<D>& x, N n) {            \
    return fn(x, n);                                                             \
  }
///@{
/// ldexpf, scalbnf, scalblnf and the l names: ldexp() of a symbolic value by an integer.
SYMERR_C_NAME_SCALE(ldexpf, ldexp, int)
SYMERR_C_NAME_SCALE(ldexpl, ldexp, int)
SYMERR_C_NAME_SCALE(scalbnf, scalbn, int)
SYMERR_C_NAME_SCALE(scalbnl, scalbn, int)
SYMERR_C_NAME_SCALE(scalblnf, scalbln, long)
SYMERR_C_NAME_SCALE(scalblnl, scalbln, long)
///@}
#undef SYMERR_C_NAME_SCALE

namespace detail {
template <class T>
inline constexpr bool is_symbolic_v = false;
template <RealDomain D>
inline constexpr bool is_symbolic_v<SymbolicDomainError<D>> = true;
}  // namespace detail

// fminf/fmaxf (and the l names): either operand symbolic, the other symbolic
// or a number — the same overloads as fmin/fmax (fmodf/fmodl: fmod's, hypotf/hypotl and
// atan2f/atan2l: hypot's and atan2's, copysignf/copysignl and fdimf/fdiml:
// copysign's and fdim's, <symerr/symbolic/sign_functions.hpp>); powf/powl: a symbolic base
// or exponent, the exponent a number or one exact symbolic value — those of pow.
#define SYMERR_C_NAME_BINARY(name, fn, requirement)  \
  template <class A, class B>                        \
    requires(requirement)                            \
  auto name(const A& a, const B& b) {                \
    return fn(a, b);                                 \
  }
///@{
/// fminf, fmaxf, powf, fmodf, hypotf, atan2f, copysignf, fdimf, remainderf and the l
/// names: the overloads of the unsuffixed function (either operand symbolic, the
/// other symbolic or a number).
SYMERR_C_NAME_BINARY(fminf, fmin, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fminl, fmin, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fmaxf, fmax, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fmaxl, fmax, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(powf, pow, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(powl, pow, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fmodf, fmod, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fmodl, fmod, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(hypotf, hypot, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(hypotl, hypot, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(atan2f, atan2, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(atan2l, atan2, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(copysignf, copysign, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(copysignl, copysign, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fdimf, fdim, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(fdiml, fdim, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(remainderf, remainder, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
SYMERR_C_NAME_BINARY(remainderl, remainder, detail::is_symbolic_v<A> || detail::is_symbolic_v<B>)
///@}
#undef SYMERR_C_NAME_BINARY

// fmaf/fmal: fma (rules/fma.hpp), any operand symbolic.
#define SYMERR_C_NAME_TERNARY(name)                                                              \
  template <class A, class B, class C>                                                            \
    requires(detail::is_symbolic_v<A> || detail::is_symbolic_v<B> || detail::is_symbolic_v<C>) \
  auto name(const A& a, const B& b, const C& c) {                                                 \
    return fma(a, b, c);                                                                          \
  }
///@{
/// fmaf and fmal: fma() with any operand symbolic.
SYMERR_C_NAME_TERNARY(fmaf)
SYMERR_C_NAME_TERNARY(fmal)
///@}
#undef SYMERR_C_NAME_TERNARY

}  // namespace symerr
