// Drop-in arithmetic: what generic numeric code writes, so that a kernel
// written for float/double compiles unchanged for SymbolicDomainError<D>.
//
// What a literal (an int/float/double operand or `T(v)`) means:
//   the REAL-format exact constant of its value (a double's value as the
//   compiler gave it). Combined with an operand of machine format F it is
//   first rounded into F in that operand's rounding mode; the rounding is that
//   operand's introduced error (err = round_F(v) − v), so a literal that is
//   not a value of F never silently becomes exact. Values of F (0, 1, 0.5,
//   2.0, ...) stay exact. In comparisons the literal is compared exactly (as
//   C and C++ compare a float with a double), except an integer beyond 2^p
//   beside a float value of precision p, which C converts to the float type
//   first: rounded in the computed program, exact in the ideal one
//   (detail::operand_literal). Mixing two different machine
//   formats without convert() stays a std::invalid_argument naming both
//   formats and the operation.
//
// min/max/fmin/fmax/clamp/select are exact on the symbolic level (no branch):
// max(f_a, f_b) − max(r_a, r_b) lies between min(e_a, e_b) and max(e_a, e_b)
// because max is monotone and commutes with adding a constant (same for min).
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_DROPIN_HPP_INCLUDED
#define SYMERR_SYMBOLIC_DROPIN_HPP_INCLUDED

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <symerr/symbolic/detail.hpp>

namespace symerr {

/// A number a symbolic value accepts as an operand: an arithmetic type other than bool.
template <class A>
concept DropInNumber = std::is_arithmetic_v<A> && !std::is_same_v<A, bool>;

// ---- the literal format -----------------------------------------------------
namespace detail {
struct LiteralFormatState {
  bool set = false;
  Format format{};
  RoundingMode mode = RoundingMode::NearestEven;
};
inline LiteralFormatState& literal_format_state() noexcept {
  thread_local LiteralFormatState s;
  return s;
}
}  // namespace detail

/// The format of drop-in numbers built on their own in this thread — `T x = 0;`,
/// `T(c)`, `(T)n`, `static_cast<T>(n)` — for its lifetime (nested scopes
/// restore the previous one). Without a scope such a number is an exact real
/// constant, and an operation of two of them is exact: in a C kernel written
/// for float, `const float s = 1.0f / sqrtf((float)d);` is then the real
/// 1/√d, rounded once when it meets a float value, where the compiled kernel
/// rounds sqrtf and the division (about a quarter of d = 1 … 4999 give another
/// float; d = 6: 0x1.a20bd6p-2, not 0x1.a20bd8p-2).
/// With ScopedLiteralFormat(FP32) `(float)d` is the FP32 value of d and sqrtf,
/// / are FP32 operations, as in the compiled kernel. A number next to a
/// symbolic operand (x + 0.1, x < 0.1, fmax(x, 0)) is not affected: it takes
/// the operand's format (or is compared exactly).
class ScopedLiteralFormat {
 public:
  /// Sets this thread's literal format to `format` (rounding mode `mode`) until the scope ends.
  explicit ScopedLiteralFormat(const Format& format, RoundingMode mode = RoundingMode::NearestEven)
      : saved_(detail::literal_format_state()) {
    detail::literal_format_state() = {true, format, mode};
  }
  ~ScopedLiteralFormat() { detail::literal_format_state() = saved_; }
  ScopedLiteralFormat(const ScopedLiteralFormat&) = delete;
  ScopedLiteralFormat& operator=(const ScopedLiteralFormat&) = delete;

 private:
  detail::LiteralFormatState saved_;
};

/// The literal format of this thread (nullptr: exact real constants).
inline const Format* literal_format() noexcept {
  const auto& s = detail::literal_format_state();
  return s.set ? &s.format : nullptr;
}

/// @cond
template <RealDomain D>
template <class A>
  requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
SymbolicDomainError<D> SymbolicDomainError<D>::from_number(A v) {
  const auto& lf = detail::literal_format_state();
  if (!lf.set || std::holds_alternative<std::monostate>(lf.format)) return exact_number(v);
  const Format& F = lf.format;
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(v)) return nan(F);
    if (std::isinf(v)) {
      const auto* FF = std::get_if<FloatFormat>(&F);
      return FF && FF->has_infinities() ? inf(v > 0 ? +1 : -1, F) : nan(F);
    }
  }
  if constexpr (std::is_floating_point_v<A>) {
    (void)exact_number(v);  // refuses a long double that is not a double
    return literal(exact_value(static_cast<double>(v)), F, lf.mode);
  } else {
    return literal(mpq_class(std::to_string(v)), F, lf.mode);  // exact, 64-bit integers included
  }
}

template <RealDomain D>
template <class A>
  requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
SymbolicDomainError<D> SymbolicDomainError<D>::exact_number(A v) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(v)) return nan();
    if (std::isinf(v)) return inf(v > 0 ? +1 : -1);
    const double d = static_cast<double>(v);
    if (static_cast<A>(d) != v)
      throw std::invalid_argument("SymbolicDomainError: a long double literal that is not a double (" +
                                  detail::number_text(static_cast<double>(v)) + "...)");
    return constant(d);
  } else {
    const double d = static_cast<double>(v);
    if (std::fabs(d) <= 0x1p53) return constant(d);
    return literal(mpq_class(std::to_string(v)), Format{});  // exact, real format
  }
}
/// @endcond

namespace detail {
// Two machine formats must agree (mixed precision goes through convert()).
inline void require_same_format(const Format& a, const Format& b, const char* op) {
  if (!std::holds_alternative<std::monostate>(a) && !std::holds_alternative<std::monostate>(b) && a != b)
    throw std::invalid_argument(std::string(op) + ": operands have different formats " + format_name(a) +
                                " and " + format_name(b) + " (convert one explicitly)");
}
// A literal as an operand next to `x`: exact real constant, rounded into x's
// machine format (rounding = introduced error of the literal).
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> literal_for(A v, const SymbolicDomainError<D>& x) {
  const SymbolicDomainError<D> c = SymbolicDomainError<D>::exact_number(v);
  if (x.is_real() || !c.specials.may_be_finite) return c;
  return convert(c, x.format, x.mode);
}
// The real-format operand of a pair rounded into the other's machine format.
template <RealDomain D>
SymbolicDomainError<D> adopt_format(const SymbolicDomainError<D>& c, const SymbolicDomainError<D>& x) {
  if (!c.is_real() || x.is_real()) return c;
  return convert(c, x.format, x.mode);
}
}  // namespace detail

// ---- mixed arithmetic, either side ----------------------------------------
#define SYMERR_DROPIN_ARITH(op, cop)                                                          \
  template <RealDomain D, DropInNumber A>                                                     \
  SymbolicDomainError<D> operator op(const SymbolicDomainError<D>& x, A y) {                  \
    return x op detail::literal_for(y, x);                                                    \
  }                                                                                           \
  template <RealDomain D, DropInNumber A>                                                     \
  SymbolicDomainError<D> operator op(A x, const SymbolicDomainError<D>& y) {                  \
    return detail::literal_for(x, y) op y;                                                    \
  }                                                                                           \
  template <RealDomain D>                                                                     \
  SymbolicDomainError<D>& operator cop(SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) { \
    x = x op y;                                                                               \
    return x;                                                                                 \
  }                                                                                           \
  template <RealDomain D, DropInNumber A>                                                     \
  SymbolicDomainError<D>& operator cop(SymbolicDomainError<D>& x, A y) {                      \
    x = x op detail::literal_for(y, x);                                                       \
    return x;                                                                                 \
  }
///@{
/// Arithmetic of a symbolic value with a number (either side), and the compound
/// assignments: the number is the exact real constant of its value, rounded into
/// the symbolic operand's format in its mode (the rounding that operand's introduced error).
SYMERR_DROPIN_ARITH(+, +=)
SYMERR_DROPIN_ARITH(-, -=)
SYMERR_DROPIN_ARITH(*, *=)
SYMERR_DROPIN_ARITH(/, /=)
///@}
#undef SYMERR_DROPIN_ARITH

/// +x is x.
template <RealDomain D>
SymbolicDomainError<D> operator+(const SymbolicDomainError<D>& x) {
  return x;
}

// ---- comparisons with a literal on either side (the literal exactly) -------
#define SYMERR_DROPIN_CMP(op)                                                     \
  template <RealDomain D, DropInNumber A>                                         \
  Truth operator op(const SymbolicDomainError<D>& x, A y) {                       \
    return x op detail::operand_literal(y, x);                                    \
  }                                                                               \
  template <RealDomain D, DropInNumber A>                                         \
  Truth operator op(A x, const SymbolicDomainError<D>& y) {                       \
    return detail::operand_literal(x, y) op y;                                    \
  }
///@{
/// Comparisons with a number (either side), with the number's exact value (an integer
/// beyond 2^p beside a float value of precision p converted first, as C does); a Truth.
SYMERR_DROPIN_CMP(<)
SYMERR_DROPIN_CMP(<=)
SYMERR_DROPIN_CMP(>)
SYMERR_DROPIN_CMP(>=)
SYMERR_DROPIN_CMP(==)
SYMERR_DROPIN_CMP(!=)
///@}
#undef SYMERR_DROPIN_CMP

// ---- math functions found by unqualified lookup ---------------------------
namespace detail {
// How a value becomes an integer: C's conversion (Trunc), lrint in a
// rounding mode, lround (NearestAway).
enum class ToInteger { Trunc, Floor, Ceil, NearestEven, NearestAway };
template <class I, RealDomain D>
I to_integer(const SymbolicDomainError<D>& x, ToInteger k);
}  // namespace detail

template <RealDomain D>
template <class I>
  requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
SymbolicDomainError<D>::operator I() const {
  return detail::to_integer<I>(*this, detail::ToInteger::Trunc);
}

/// fabs(x) is abs(x).
template <RealDomain D>
SymbolicDomainError<D> fabs(const SymbolicDomainError<D>& x) {
  return abs(x);
}

/// isnan / isinf / isfinite of the computed value (C's classification macros,
/// std::isnan, ...): a Truth decided by the special-value flags — false when the
/// value cannot be NaN (inf, finite), true when it can be nothing else, else
/// undecided (UndecidedBranch outside the driver). Under the driver an
/// undecided classification forks like a comparison, and on each path the
/// operand's flags are narrowed to the class the computed execution took (when
/// the operand is modifiable: a driver buffer element or a non-const lvalue,
/// compare_targets.hpp), so `if (isnan(y)) y = 0;` leaves no NaN flag behind.
enum class SpecialClass { Nan, Inf, Finite };
namespace detail {
template <RealDomain D, SpecialClass C>
bool refine_class(void* target, const ComparisonInfo& info, bool, bool, bool computed_outcome, bool,
                  bool refine_computed) {
  if (!refine_computed) return true;  // the flags describe the computed value only
  SpecialStates& s = static_cast<SymbolicDomainError<D>*>(target)->specials;
  // which classes stay possible: the one tested (x is of class C) or the others
  const bool in = computed_outcome != info.negated;  // `!isnan(x)` reports the negation's outcome
  const bool nan = (C == SpecialClass::Nan) == in, inf = (C == SpecialClass::Inf) == in,
             fin = (C == SpecialClass::Finite) == in;
  s.may_be_nan = s.may_be_nan && nan;
  s.may_be_pos_inf = s.may_be_pos_inf && inf;
  s.may_be_neg_inf = s.may_be_neg_inf && inf;
  if (!fin) s.may_be_finite = s.may_be_pos_zero = s.may_be_neg_zero = false;
  return s.may_be_nan || s.may_be_pos_inf || s.may_be_neg_inf || s.may_be_finite;  // else infeasible
}
template <RealDomain D, SpecialClass C>
Truth classify(const SymbolicDomainError<D>& x) {
  const Truth t = C == SpecialClass::Nan ? x.is_nan() : (C == SpecialClass::Inf ? x.is_inf() : x.is_finite());
  if (t.tri() != Tri::Unknown) return t;
  ComparisonInfo info;  // the ideal answer is left open (as undecided as the computed one)
  info.relation = Relation::Other;
  info.lane = x.origin;
  info.lhs = &x;
  info.refine = &refine_class<D, C>;
  info.serial = ++detail::comparison_serial();
  info.real[0][0] = x.real.lower(), info.real[0][1] = x.real.upper();
  info.fp[0][0] = x.fp.lower(), info.fp[0][1] = x.fp.upper();
  info.err[0][0] = x.err.lower(), info.err[0][1] = x.err.upper();
  return {Tri::Unknown, t.relation(), info};
}
}  // namespace detail

#define SYMERR_DROPIN_CLASSIFY(fn, cls)                                      \
  template <RealDomain D>                                                    \
  Truth fn(const SymbolicDomainError<D>& x) {                                \
    return detail::classify<D, SpecialClass::cls>(x);                        \
  }                                                                          \
  template <RealDomain D>                                                    \
  Truth fn(SymbolicDomainError<D>& x) { /* a non-const lvalue: modifiable */ \
    return detail::classify<D, SpecialClass::cls>(std::as_const(x)).with_targets(&x, nullptr); \
  }
///@{
/// isnan, isinf, isfinite of the computed value: a Truth decided by the special-value
/// flags, undecided (a branch under the driver, UndecidedBranch outside) when the value
/// may or may not be of the class; the non-const overloads let a driver narrow the operand.
SYMERR_DROPIN_CLASSIFY(isnan, Nan)
SYMERR_DROPIN_CLASSIFY(isinf, Inf)
SYMERR_DROPIN_CLASSIFY(isfinite, Finite)
///@}
#undef SYMERR_DROPIN_CLASSIFY

namespace detail {

// The hull of two values as one (any execution of either); err unbounded
// when an operand may be special.
template <RealDomain D>
SymbolicDomainError<D> join_values(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  SymbolicDomainError<D> z = a;
  if (a.is_real() && !b.is_real()) z.format = b.format, z.mode = b.mode;  // e.g. a literal 0 result
  z.real = hull(a.real, b.real);
  z.fp = hull(a.fp, b.fp);
  z.err = hull(a.err, b.err);
  z.rel_err = hull(a.rel_err, b.rel_err);
  z.propagated = hull(a.propagated, b.propagated);
  z.introduced = hull(a.introduced, b.introduced);
  z.mixed = {std::max(a.mixed.rel, b.mixed.rel), std::max(a.mixed.abs, b.mixed.abs)};  // unknown if either is
  SpecialStates& s = z.specials;
  const SpecialStates& t = b.specials;
  s.may_be_finite |= t.may_be_finite, s.may_be_pos_inf |= t.may_be_pos_inf;
  s.may_be_neg_inf |= t.may_be_neg_inf, s.may_be_nan |= t.may_be_nan;
  s.may_be_pos_zero |= t.may_be_pos_zero, s.may_be_neg_zero |= t.may_be_neg_zero;
  s.may_be_defined |= t.may_be_defined, s.may_be_undefined |= t.may_be_undefined;
  s.may_overflow |= t.may_overflow;
  z.origin = merge_origin(a.origin, b.origin);
  z.source = a.source == b.source ? a.source : -1;  // one quantity only if both are
  return z;
}

template <RealDomain D>
bool maybe_special(const SymbolicDomainError<D>& x) {
  const SpecialStates& s = x.specials;
  return s.may_be_nan || s.may_be_pos_inf || s.may_be_neg_inf || !s.may_be_finite || s.may_be_undefined ||
         !s.may_be_defined;
}

// max (upper = true) or min of two values, without a branch.
template <RealDomain D>
SymbolicDomainError<D> extremum(const SymbolicDomainError<D>& a0, const SymbolicDomainError<D>& b0, bool upper) {
  require_same_format(a0.format, b0.format, upper ? "max" : "min");
  // an exact infinity (−inf: the identity of max; +inf: of min) against a
  // plain finite value: the same choice in both programs
  for (int k = 0; k < 2; ++k) {
    const SymbolicDomainError<D>& inf = k == 0 ? a0 : b0;
    const SymbolicDomainError<D>& other = k == 0 ? b0 : a0;
    if (const int s = exact_infinity(inf); s != 0 && plain_finite(other)) {
      SymbolicDomainError<D> z = (s > 0) == upper ? inf : adopt_format(other, inf);
      z.origin = merge_origin(a0.origin, b0.origin);
      return z;
    }
  }
  const SymbolicDomainError<D> a = adopt_format(a0, b0), b = adopt_format(b0, a0);
  if (maybe_special(a) || maybe_special(b)) {
    SymbolicDomainError<D> z = join_values(a, b);
    z.err = z.rel_err = z.propagated = D::whole();
    z.mixed = {};
    return z;
  }
  auto pick = [&](const SymbolicDomainError<D>& x) {
    SymbolicDomainError<D> z = x;
    z.origin = merge_origin(a.origin, b.origin);
    return z;
  };
  const Tri a_ge_b_real = upper ? cmp_ge(a.real, b.real) : cmp_le(a.real, b.real);
  const Tri a_ge_b_fp = upper ? cmp_ge(a.fp, b.fp) : cmp_le(a.fp, b.fp);
  if (a_ge_b_real == Tri::True && a_ge_b_fp == Tri::True) return pick(a);
  if (a_ge_b_real == Tri::False && a_ge_b_fp == Tri::False) return pick(b);
  auto ext = [upper](const D& x, const D& y) {
    // a domain with an extremum of its own (Affine: a recorded maximum, so
    // that x − max(…, x, …) <= 0 later) gives it; else the range's
    if constexpr (requires { { domain_extremum(x, y, upper) } -> std::same_as<D>; }) return domain_extremum(x, y, upper);
    else
      return upper ? D::between(std::max(x.lower(), y.lower()), std::max(x.upper(), y.upper()))
                   : D::between(std::min(x.lower(), y.lower()), std::min(x.upper(), y.upper()));
  };
  SymbolicDomainError<D> z = join_values(a, b);
  z.real = ext(a.real, b.real);
  z.fp = ext(a.fp, b.fp);
  z.err = meet(z.fp - z.real, hull(a.err, b.err));
  // The same bracket for the whole-kernel parts: with pr = real + propagated,
  // max(pr_a, pr_b) − max(r_a, r_b) lies between the operands' propagated
  // parts, and max(f_a, f_b) − max(pr_a, pr_b) between their introduced parts.
  z.propagated = hull(a.propagated, b.propagated);
  z.introduced = hull(a.introduced, b.introduced);
  z.rel_err = D::whole();
  z.reduce();
  // one function of the operands (a driver matches it across two paths);
  // max(x, x) is x (join_values kept its tag)
  if (a.source != b.source)
    z.source = symerr::detail::number_result(z, upper ? symerr::detail::kRecipeMax : symerr::detail::kRecipeMin, a, &b);
  return z;
}
}  // namespace detail

///@{
/// The larger (smaller) of a and b without a branch: exact on the symbolic level,
/// the error lying between the operands' errors. Throws std::invalid_argument on
/// two different machine formats.
template <RealDomain D>
SymbolicDomainError<D> max(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  return detail::extremum(a, b, true);
}
template <RealDomain D>
SymbolicDomainError<D> min(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  return detail::extremum(a, b, false);
}
///@}
///@{
/// fmax/fmin: as max/min on finite values; with a possible NaN operand the
/// result is the hull of both (fmax(NaN, y) = y).
template <RealDomain D>
SymbolicDomainError<D> fmax(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  return detail::extremum(a, b, true);
}
template <RealDomain D>
SymbolicDomainError<D> fmin(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  return detail::extremum(a, b, false);
}
///@}
#define SYMERR_DROPIN_FN2(fn)                                                                \
  template <RealDomain D, DropInNumber A>                                                    \
  SymbolicDomainError<D> fn(const SymbolicDomainError<D>& a, A b) {                          \
    return fn(a, detail::operand_literal(b, a));                                             \
  }                                                                                          \
  template <RealDomain D, DropInNumber A>                                                    \
  SymbolicDomainError<D> fn(A a, const SymbolicDomainError<D>& b) {                          \
    return fn(detail::operand_literal(a, b), b);                                             \
  }
///@{
/// max, min, fmax, fmin with one number operand (an exact constant adopting the symbolic operand's format).
SYMERR_DROPIN_FN2(max)
SYMERR_DROPIN_FN2(min)
SYMERR_DROPIN_FN2(fmax)
SYMERR_DROPIN_FN2(fmin)
///@}
#undef SYMERR_DROPIN_FN2

/// clamp(x, lo, hi) = min(max(x, lo), hi) (precondition lo <= hi).
template <RealDomain D>
SymbolicDomainError<D> clamp(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& lo,
                             const SymbolicDomainError<D>& hi) {
  return min(max(x, lo), hi);
}

/// select(c, a, b) = c ? a : b without a branch. When c is undecided, the ideal
/// value may take one operand and the computed value the other: err is then
/// fp of the computed choice minus real of the ideal choice.
template <RealDomain D>
SymbolicDomainError<D> select(const Truth& c, const SymbolicDomainError<D>& a0, const SymbolicDomainError<D>& b0) {
  detail::require_same_format(a0.format, b0.format, "select");
  const SymbolicDomainError<D> a = detail::adopt_format(a0, b0), b = detail::adopt_format(b0, a0);
  if (c.tri() == Tri::True) return a;
  if (c.tri() == Tri::False) return b;
  SymbolicDomainError<D> z = detail::join_values(a, b);
  if (detail::maybe_special(a) || detail::maybe_special(b)) {
    z.err = z.rel_err = z.propagated = D::whole();
    z.mixed = {};
    return z;
  }
  const Tri ti = c.ideal(), tc = c.computed();
  const bool i_true = ti != Tri::False, i_false = ti != Tri::True;
  const bool c_true = tc != Tri::False, c_false = tc != Tri::True;
  std::optional<D> real, fp, err;
  auto add = [](std::optional<D>& acc, const D& v) { acc = acc ? hull(*acc, v) : v; };
  if (i_true) add(real, a.real);
  if (i_false) add(real, b.real);
  if (c_true) add(fp, a.fp);
  if (c_false) add(fp, b.fp);
  if (i_true && c_true) add(err, a.err);
  if (i_false && c_false) add(err, b.err);
  if (i_true && c_false) add(err, b.fp - a.real);
  if (i_false && c_true) add(err, a.fp - b.real);
  z.real = *real;
  z.fp = *fp;
  z.err = *err;
  // The real computation on the actual inputs (pr) may take either operand
  // whatever the ideal and computed choices: no split is claimed.
  z.propagated = z.introduced = D::whole();
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

// ---- refinement of a compared operand (for branch drivers) -----------------
namespace detail {
template <RealDomain D>
bool refine_operand(void* target_ptr, const ComparisonInfo& info, bool target_is_lhs, bool ideal_outcome,
                    bool computed_outcome, bool refine_ideal, bool refine_computed) {
  auto& x = *static_cast<SymbolicDomainError<D>*>(target_ptr);
  if (maybe_special(x) || info.relation == Relation::Other) return true;
  const int other = target_is_lhs ? 1 : 0;
  // The relation seen from the target: target R other.
  Relation r = info.relation;
  if (!target_is_lhs) {
    switch (r) {
      case Relation::Lt: r = Relation::Gt; break;
      case Relation::Le: r = Relation::Ge; break;
      case Relation::Gt: r = Relation::Lt; break;
      case Relation::Ge: r = Relation::Le; break;
      default: break;
    }
  }
  auto holds = [](Relation rel, bool outcome) { return outcome ? rel : negated(rel); };
  // v's range narrowed, by meet: in the Affine domain the same form (its
  // symbols, so its relation to the operand's other fields and to the other
  // values of the kernel) with a narrower range; a fresh form
  // D::between(...) would lose that relation (a value chosen by
  // comparisons, y = x[argmax], would get err [-1, 1] on a box whose
  // inputs' ranges differ, against e).
  auto tighten = [](const D& v, Relation rel, const double (&o)[2]) {
    switch (rel) {
      case Relation::Lt:
      case Relation::Le:  // v <= other's upper bound (an empty result: the path is infeasible, keep v)
        return v.upper() > o[1] && o[1] >= v.lower() ? meet(v, D::between(v.lower(), o[1])) : v;
      case Relation::Gt:
      case Relation::Ge: return v.lower() < o[0] && o[0] <= v.upper() ? meet(v, D::between(o[0], v.upper())) : v;
      case Relation::Eq: return intersect(v, D::between(o[0], o[1])) ? meet(v, D::between(o[0], o[1])) : v;
      default: return v;
    }
  };
  // Some v in the enclosure stands in relation `rel` to some value of the other's.
  auto feasible = [](const D& v, Relation rel, const double (&o)[2]) {
    switch (rel) {
      case Relation::Lt: return v.lower() < o[1];
      case Relation::Le: return v.lower() <= o[1];
      case Relation::Gt: return v.upper() > o[0];
      case Relation::Ge: return v.upper() >= o[0];
      case Relation::Eq: return v.lower() <= o[1] && o[0] <= v.upper();
      case Relation::Ne: return !(v.lower() == v.upper() && o[0] == o[1] && v.lower() == o[0]);
      default: return true;
    }
  };
  const Relation ri = holds(r, ideal_outcome), rc = holds(r, computed_outcome);
  if (refine_ideal) x.real = tighten(x.real, ri, info.real[other]);
  if (refine_computed) x.fp = tighten(x.fp, rc, info.fp[other]);
  x.reduce(true);  // the same quantity on fewer executions: its mixed pair holds
  return (!refine_ideal || feasible(x.real, ri, info.real[other])) &&
         (!refine_computed || feasible(x.fp, rc, info.fp[other]));
}
}  // namespace detail

}  // namespace symerr

#include <symerr/symbolic/to_integer.hpp>  // operator I(), lrint, lround: their definitions

#endif  // SYMERR_SYMBOLIC_DROPIN_HPP_INCLUDED
