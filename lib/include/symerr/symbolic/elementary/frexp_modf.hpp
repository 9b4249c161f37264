// frexp and modf of a symbolic value (C frexp/frexpf/frexpl,
// modf/modff/modfl, std::frexp, std::modf): the decompositions of a float
// into exact parts.
//
// frexp(x, &k): x = m·2^k with 0.5 <= |m| < 1, in each program for its own
// value (the computed value in the computed program, the real value in the
// ideal one); frexp(±0) = ±0 with k = 0. The exponent is a plain int, so it
// must be one value per path: like C's (int)x (dropin.hpp), one exponent
// when every execution has the same, else a bisection over the candidate
// exponents by comparisons of x itself with powers of two, each decided where
// the ranges allow and otherwise a branch (forked by the driver, an
// UndecidedBranch outside it). m = ldexp(x, −k) is exact. Refused with
// std::invalid_argument naming the operand: a value that may be NaN or
// infinite (the exponent is unspecified there), and a range that reaches 0
// without being 0 (the real value may be arbitrarily small, with an
// exponent of no bound: split the box away from 0, or test x == 0 first).
//
// modf(x, &i): i = trunc(x), and the fractional part x − trunc(x), which is
// exact in IEEE arithmetic and carries x's sign (modf(−3.0) = −0): computed
// here as a rounded subtraction, which is sound (an exact result is one of
// the roundings) and adds at most half an ulp of the fraction's range to the
// bound. Refused for a value that may be NaN or infinite.
#pragma once

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <symerr/symbolic/elementary/ldexp.hpp>

namespace symerr {

namespace detail {
template <RealDomain D>
[[noreturn]] void refuse_decomposition(const char* fn, const SymbolicDomainError<D>& x, const char* why) {
  std::ostringstream m;
  m << fn << ": " << why << ": " << x;
  throw std::invalid_argument(m.str());
}
}  // namespace detail

/// C frexp of a symbolic value: x = m·2^k with 0.5 <= |m| < 1, m returned (exact)
/// and k stored in `*exp`. k is one integer per path: decided by comparisons of x
/// with powers of two, an undecided one a branch (forked by the driver,
/// UndecidedBranch outside it).
/// @throws std::invalid_argument when x may be NaN or infinite, or its range reaches 0 without being 0.
template <RealDomain D>
SymbolicDomainError<D> frexp(const SymbolicDomainError<D>& x, int* exp) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  if (!detail::plain_finite(x))
    detail::refuse_decomposition("frexp", x, "the operand may be NaN or infinite (its exponent is unspecified)");
  if (x.is_integer()) throw std::invalid_argument("frexp: not defined on integer format " + format_name(x.format));
  // |x| in [2^(k−1), 2^k): k from the magnitudes of both programs' ranges
  const double lo = std::min(mig(x.real), mig(x.fp)), hi = std::max(mag(x.real), mag(x.fp));
  if (hi == 0) {  // ±0 in both programs
    *exp = 0;
    return x;
  }
  if (!(lo > 0))
    detail::refuse_decomposition("frexp", x,
                                 "the range reaches 0 (the real value may be arbitrarily small, its exponent has no "
                                 "bound); split the box away from 0");
  int k_lo = 0, k_hi = 0;
  (void)std::frexp(lo, &k_lo);
  (void)std::frexp(hi, &k_hi);
  const bool negative = x < 0;
  // the exponent of x: the least k in [k_lo, k_hi] with |x| < 2^k (bisection)
  int a = k_lo, b = k_hi;
  while (a < b) {
    const int mid = a + (b - a) / 2;
    const double t = std::ldexp(1.0, mid);  // |x| < 2^mid ?
    const bool below = negative ? bool(x > -t) : bool(x < t);
    if (below) b = mid;
    else a = mid + 1;
  }
  *exp = a;
  return ldexp(x, -a);
}

/// C modf of a symbolic value: the fractional part x − trunc(x) (with x's sign),
/// trunc(x) stored in `*integral`.
/// @throws std::invalid_argument when x may be NaN or infinite.
template <RealDomain D>
SymbolicDomainError<D> modf(const SymbolicDomainError<D>& x, SymbolicDomainError<D>* integral) {
  [[maybe_unused]] const detail::FpGuardFor<D> fp_guard;  // the library's FP environment (fp_environment.hpp)
  if (!detail::plain_finite(x))
    detail::refuse_decomposition("modf", x, "the operand may be NaN or infinite");
  const SymbolicDomainError<D> t = trunc(x);
  SymbolicDomainError<D> f = x - t;
  // the fraction's zero has x's sign: −0 for a negative integer x
  if (f.fp.lower() <= 0 && f.fp.upper() >= 0) {
    if (x.fp.lower() < 0 || x.specials.may_be_neg_zero) f.specials.may_be_neg_zero = true;
    if (x.fp.upper() > 0 || x.specials.may_be_pos_zero) f.specials.may_be_pos_zero = true;
  }
  *integral = t;
  return f;
}

// The C names (the value's format decides, not the suffix).
///@{
/// The C names of frexp() and modf() (the value's format decides, not the suffix).
template <RealDomain D>
SymbolicDomainError<D> frexpf(const SymbolicDomainError<D>& x, int* exp) {
  return frexp(x, exp);
}
template <RealDomain D>
SymbolicDomainError<D> frexpl(const SymbolicDomainError<D>& x, int* exp) {
  return frexp(x, exp);
}
template <RealDomain D>
SymbolicDomainError<D> modff(const SymbolicDomainError<D>& x, SymbolicDomainError<D>* integral) {
  return modf(x, integral);
}
template <RealDomain D>
SymbolicDomainError<D> modfl(const SymbolicDomainError<D>& x, SymbolicDomainError<D>* integral) {
  return modf(x, integral);
}
///@}

}  // namespace symerr
