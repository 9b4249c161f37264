// Arithmetic on SymbolicDomainError: the driver of the binary rules. For
// z = x ∘ y in format F and mode ρ:
//   real_z = real_x ∘ real_y,   t = fp_x ∘ fp_y,   fp_z = round_F,ρ(t),
//   err_z = fp_z − real_z by the operator's exact error identity on the
//   operands' errors plus the rounding round(t) − t.
// Each operator is one rule — its identity, special-value table, exactness
// conditions and scalar rule — in <symerr/symbolic/rules/{add,sub,mul,div}.hpp>,
// registered in the operator table (<symerr/operators.hpp>); this file only
// sequences the steps every rule shares.
//
// Whole-kernel split: with pr = real + propagated the real computation on the
// actual (erroneous) inputs, every value carries
//   propagated = pr − real   (K_real(x + e) − K_real(x)),
//   introduced = fp − pr     (K_fp(x + e) − K_real(x + e)),
// over the whole computation that produced it (input(): propagated = the
// input error, introduced = 0; literal(): introduced = its rounding). They
// follow the rule's identity (rules/binary_rule.hpp, ErrorTerms) with
// err → propagated, fp → pr, and with pr as the exact base for the
// introduced part before rounding, t − pr_z; err ⊆ propagated + introduced is
// intersected in. For operands fresh from input() (introduced = 0) they are
// the last operation's split. Every identity is exact, so intersecting
// several of them (and the direct differences) is sound and only tightens.
//
// Operand formats: two machine formats must agree (mixed precision goes
// through convert()). A real-format operand (std::monostate, e.g.
// constant(0.1)) combined with a machine format F is first converted into F
// — rounded in the other operand's mode as literal() rounds its value (into an
// integer format: to nearest, ties to even, then wrapped) — and its rounding
// error becomes that operand's introduced error; the operation then runs on
// two values of F. Exactly representable constants (0, 1, 0.5, 2) stay exact.
//
// Floating-point environment: arithmetic() sets round-to-nearest, no FTZ/DAZ
// and masked traps for its duration (FpEnvironmentGuard; a domain's fast path,
// FastArithmetic<D>, holds the same environment its own way: Interval's
// clears FTZ/DAZ in the same MXCSR write that sets its upward scope).
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_ARITH_HPP_INCLUDED
#define SYMERR_SYMBOLIC_ARITH_HPP_INCLUDED

#include <symerr/symbolic/detail.hpp>
#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic/fast_arithmetic.hpp>
#include <symerr/symbolic/rules/add.hpp>
#include <symerr/symbolic/rules/div.hpp>
#include <symerr/symbolic/rules/mul.hpp>
#include <symerr/symbolic/rules/sub.hpp>

namespace symerr {

namespace detail {

// The origin (lane) of a result: see SymbolicDomainError::origin.
constexpr std::int32_t merge_origin(std::int32_t a, std::int32_t b) noexcept {
  if (a == -1) return b;
  if (b == -1 || a == b) return a;
  return -2;
}

// The operator's name in the operator table ("Add").
inline const char* op_name(ArithOp op) { return to_string(op_id(op)).data(); }

// The format of a result: a real (exact) operand adopts the other's format;
// two machine formats must agree (mixed precision goes through convert()).
inline Format result_format(const Format& a, const Format& b, ArithOp op) {
  if (std::holds_alternative<std::monostate>(a)) return b;
  if (std::holds_alternative<std::monostate>(b)) return a;
  if (a != b)
    throw std::invalid_argument(std::string(op_name(op)) + ": operands have different formats " +
                                format_name(a) + " and " + format_name(b) +
                                " (convert one explicitly)");
  return a;
}

// pr: the real computation on the actual inputs, pr = real + propagated =
// fp − introduced (the whole-kernel split; see the header comment).
template <RealDomain D>
D actual_real(const SymbolicDomainError<D>& x) {
  return meet(x.real + x.propagated, x.fp - x.introduced);
}

// a = {0} exactly (lower() and upper() are outward doubles: a tiny rational
// point has lower() == 0 but upper() > 0).
template <RealDomain D>
bool is_zero_point(const D& a) {
  return a.lower() == 0 && a.upper() == 0;
}

// round(t) in a float format, t enclosing fp_x ∘ fp_y of two values of F:
// sets fp, the finite / overflow flags and returns round(t) − t.
template <class Rule, RealDomain D>
D round_float_point(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, D& t, const FloatFormat& F,
                    SymbolicDomainError<D>& z) {
  // Point operands: the machine result is computed exactly (GMP), so fp is
  // the rounded point and the introduced error is exact.
  SpecialStates& s = z.specials;
  const mpq_class tq = Rule::value(exact_value(x.fp.lower()), exact_value(y.fp.lower()));
  const Rounded r = round_to(tq, F, z.mode);
  s.may_overflow = r.overflow;
  t = D::from_rational(tq);
  if (std::isnan(r.value) || std::isinf(r.value)) {
    if (std::isnan(r.value)) s.may_be_nan = true;
    else (r.value > 0 ? s.may_be_pos_inf : s.may_be_neg_inf) = true;
    z.fp = D::whole();
    return D::whole();
  }
  s.may_be_finite = true;
  z.fp = D::point(r.value);
  return D::from_rational(exact_value(r.value) - tq);
}

template <class Rule, RealDomain D>
D round_float_result(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, D& t, const FloatFormat& F,
                     SymbolicDomainError<D>& z) {
  if (is_point(x.fp) && is_point(y.fp)) return round_float_point<Rule>(x, y, t, F, z);
  SpecialStates& s = z.specials;
  const auto r = round_enclosure(t, F, z.mode);
  s.may_be_finite = r.may_be_finite;
  s.may_be_pos_inf = s.may_be_pos_inf || r.may_be_pos_inf;
  s.may_be_neg_inf = s.may_be_neg_inf || r.may_be_neg_inf;
  s.may_be_nan = s.may_be_nan || r.may_be_nan;
  s.may_overflow = r.may_overflow;
  z.fp = r.fp;
  if (Rule::rounding_is_exact(x.fp, y.fp, t, F)) {
    z.fp = meet(z.fp, t);
    return D::point(0);
  }
  const D rounding = introduced_float(t, z.fp, F, z.mode);
  return z.mode == RoundingMode::NearestEven ? Rule::nearest_rounding(rounding, x.fp, y.fp) : rounding;
}

// The integer result q (the rule's integer value, then wrap) of
// t = fp_x ∘ fp_y: sets fp and returns q − t. 64-bit values are exact: point
// operands through GMP, and the wrap's shift k·2^n in GMP (never a double bound).
template <class Rule, RealDomain D>
D integer_result(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, D& t, const IntFormat& I,
                 IntegerDivision int_division, SymbolicDomainError<D>& z) {
  z.specials.may_be_finite = true;
  if (is_point(x.fp) && is_point(y.fp) && x.fp.lower() == x.fp.upper() && y.fp.lower() == y.fp.upper()) {
    const mpz_class a(x.fp.lower()), b(y.fp.lower());  // integer-valued doubles: exact; Div: b != 0
    const mpq_class tq = Rule::value(mpq_class(a), mpq_class(b));
    const mpz_class w = wrap_exact(Rule::integer_value(a, b, int_division), I);
    t = D::from_rational(tq);
    z.fp = D::from_rational(mpq_class(w));
    return D::from_rational(mpq_class(w) - tq);
  }
  const auto [q, quotient_error] = Rule::integer_result(t, y.fp, int_division);
  const auto w = wrap_integers(q, I);
  z.fp = w.fp;
  return quotient_error + w.introduced;
}

// Formats without infinities: an IEEE infinite result becomes NaN or ±max.
template <RealDomain D>
void replace_infinities(const FloatFormat& F, SymbolicDomainError<D>& z) {
  SpecialStates& s = z.specials;
  if (F.has_infinities() || !(s.may_be_pos_inf || s.may_be_neg_inf)) return;
  if (F.overflow == Overflow::NaN) {
    s.may_be_nan = true;
  } else {
    const double max = max_finite(F);
    D sat = D::between(s.may_be_neg_inf ? -max : max, s.may_be_pos_inf ? max : -max);
    z.fp = s.may_be_finite ? hull(z.fp, sat) : sat;
    s.may_be_finite = true;
    z.err = z.propagated = z.introduced = D::whole();
  }
  s.may_be_pos_inf = s.may_be_neg_inf = false;
}

// err, propagated and introduced of z = x ∘ y from t = fp_x ∘ fp_y and its
// rounding round(t) − t: the rule's identity on the total error, and on the
// split (propagated: base real, value pr; introduced before rounding: base
// pr, value fp).
template <class Rule, RealDomain D>
void set_error_split(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y, const D& t,
                     const D& y_fp_nonzero, const D& rounding, SymbolicDomainError<D>& z) {
  D total = Rule::error(ErrorTerms<D>{x.real, y.real, z.real, x.err, y.err, x.fp, y_fp_nonzero}, t - z.real);
  if constexpr (requires { Rule::error_relative_divisor(total, x.err, y_fp_nonzero, y.real, z.real, y.rel_err); })
    if (!std::holds_alternative<IntFormat>(y.format))  // an integer wrap makes rel_err stale
      total = Rule::error_relative_divisor(total, x.err, y_fp_nonzero, y.real, z.real, y.rel_err);
  if (is_zero_point(x.introduced) && is_zero_point(y.introduced)) {
    // Operands with introduced = {0} have pr = fp in every execution, so
    // pr_z = t: propagated = t − real_z (`total`), introduced = the rounding.
    z.propagated = total;
    z.introduced = rounding;
    z.err = total + rounding;
    return;
  }
  const D prx = actual_real(x), pry = actual_real(y);
  const D pr_z = Rule::value(prx, pry);  // Div: whole() if pr_y may be 0
  z.propagated = Rule::error(ErrorTerms<D>{x.real, y.real, z.real, x.propagated, y.propagated, prx, pry},
                             pr_z - z.real);
  z.introduced = Rule::error(ErrorTerms<D>{prx, pry, pr_z, x.introduced, y.introduced, x.fp, y_fp_nonzero},
                             t - pr_z) + rounding;
  z.err = meet(total + rounding, z.propagated + z.introduced);
}

// The mixed relative/absolute pair of z = x ∘ y (mixed_error.hpp) for
// operands whose computed values are certainly finite and real values
// certainly defined, and a result that certainly does not overflow (the
// caller checks): the product, sum and quotient identities, then the
// rounding rr. Same function on the generic path and the Interval hot path.
template <ArithOp op, RealDomain D>
MixedError mixed_of_operation(const D& xr, const D& xf, MixedError xm, const D& yr, const D& yf, const D& y_rel,
                              MixedError ym, MixedRounding rr) {
  if constexpr (op == ArithOp::Mul) {
    return mixed_product<D>(xm, ym, mag(xf), mag(yf), rr);
  } else if constexpr (op == ArithOp::Add || op == ArithOp::Sub) {
    const bool y_nonneg = op == ArithOp::Add ? yr.lower() >= 0 : yr.upper() <= 0;
    const bool y_nonpos = op == ArithOp::Add ? yr.upper() <= 0 : yr.lower() >= 0;
    const bool one_sign = (xr.lower() >= 0 && y_nonneg) || (xr.upper() <= 0 && y_nonpos);
    return mixed_sum<D>(xm, ym, one_sign, mag(xr), mag(yr), rr);
  } else if constexpr (op == ArithOp::Div) {
    if (!certainly(cmp_ne(yr, D::point(0)))) return {};
    // y's relative error: its rel_err, or its own mixed pair's
    double rel_y = mixed_relative_bound<D>(ym, mig(yr));
    if (is_bounded(y_rel)) rel_y = std::min(rel_y, mag(y_rel));
    return mixed_quotient<D>(xm, rel_y, mig(yf), rr);
  } else {
    return {};
  }
}

inline bool plain_operand(const SpecialStates& s) noexcept {
  return s.may_be_finite && s.may_be_defined && !s.may_be_undefined && !s.may_be_nan && !s.may_be_pos_inf &&
         !s.may_be_neg_inf;
}

// The result's format, mode and division semantics (checked), the real
// value, the definedness flags and the special categories of the computed value.
template <class Rule, RealDomain D>
std::optional<IntegerDivision> set_format_and_real(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                                   std::optional<IntegerDivision> int_division,
                                                   SymbolicDomainError<D>& z) {
  z.format = result_format(x.format, y.format, Rule::op);
  if (!x.is_real() && !y.is_real() && x.mode != y.mode)
    throw std::invalid_argument(std::string(op_name(Rule::op)) + ": operands have different rounding modes " +
                                to_string(x.mode) + " and " + to_string(y.mode));
  z.mode = x.is_real() ? y.mode : x.mode;
  z.int_division = x.int_division ? x.int_division : y.int_division;
  const bool integer_format = std::holds_alternative<IntFormat>(z.format);
  if (integer_format && Rule::needs_integer_division) {
    if (!int_division) int_division = z.int_division;
    if (!int_division)
      throw std::logic_error(std::string(op_name(Rule::op)) + " on " + format_name(z.format) +
                             ": integer division semantics not chosen (use divide(a, b, "
                             "IntegerDivision::Floor|Truncate) or with_int_division())");
  }
  SpecialStates& s = z.specials;
  s = SpecialStates{};
  s.may_be_finite = false;
  s.may_be_pos_zero = false;
  s.may_be_defined = x.specials.may_be_defined && y.specials.may_be_defined;
  s.may_be_undefined = x.specials.may_be_undefined || y.specials.may_be_undefined;
  Rule::definedness(y, integer_format, s);
  z.real = Rule::value(x.real, y.real);
  return int_division;
}

// z = x ∘ y for operands of one format (or both real), by the rule.
template <class Rule, RealDomain D>
SymbolicDomainError<D> arithmetic_same_format(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                              std::optional<IntegerDivision> int_division) {
  SymbolicDomainError<D> z;
  int_division = set_format_and_real<Rule>(x, y, int_division, z);
  const FloatFormat* F = std::get_if<FloatFormat>(&z.format);
  const IntFormat* I = std::get_if<IntFormat>(&z.format);
  SpecialStates& s = z.specials;
  const CategorySet cx = x.categories(), cy = y.categories();
  const CategorySet special = special_results(Rule::specials, cx, cy);
  s.may_be_nan = (special & kNaN) != 0;
  s.may_be_pos_inf = (special & kPosInf) != 0;
  s.may_be_neg_inf = (special & kNegInf) != 0;

  // the finite path: t = fp_x ∘ fp_y for finite operands
  const double gap = F ? min_subnormal(*F) : (I ? 1.0 : 0.0);
  const std::optional<D> y_finite = Rule::finite_operand(y.fp, gap);
  D t = D::whole();
  D rel = D::whole();  // rel_err by the rule's relative identity (relative.hpp)
  if (x.specials.may_be_finite && y.specials.may_be_finite && y_finite) {
    t = Rule::finite_value(x.fp, *y_finite, gap);
    D rounding = D::point(0);  // round(t) − t
    if (F) {
      rounding = round_float_result<Rule>(x, y, t, *F, z);
    } else if (I) {
      rounding = integer_result<Rule>(x, y, t, *I, int_division.value_or(IntegerDivision::Floor), z);
    } else {
      s.may_be_finite = true;
      z.fp = t;
    }
    set_error_split<Rule>(x, y, t, *y_finite, rounding, z);
    if (!I) {
      const D rel_t = Rule::relative_of_operands(x.real, x.fp, x.rel_err, y.real, y.fp, y.rel_err);
      if (is_bounded(rel_t)) rel = compose_relative(rel_t, relative_rounding(t, rounding, F, z.mode));
    }
  } else {
    z.fp = z.err = z.propagated = z.introduced = D::whole();
  }
  // finite / ±inf = ±0: a finite result from a non-finite operand, whose
  // error against the real value is unbounded.
  if (special & kAnyZero) {
    z.fp = s.may_be_finite ? hull(z.fp, D::point(0)) : D::point(0);
    s.may_be_finite = true;
    z.err = z.propagated = z.introduced = D::whole();
  }
  if (F) replace_infinities(*F, z);
  if (s.may_be_finite && contains(z.fp, 0.0)) {
    if (F) Rule::zero_signs(cx, cy, special, t, *F, z);
    else s.may_be_pos_zero = true;
  }
  // a finite result of a non-finite operand or a saturated overflow has an
  // unbounded error (set above): no relative identity holds for it
  z.rel_err = is_bounded(z.err) ? rel : D::whole();
  // the mixed relative/absolute pair, where its rounding model holds
  const bool rule_mixed = !I && plain_operand(x.specials) && plain_operand(y.specials) && plain_operand(s) &&
                          !s.may_overflow && is_bounded(z.err);
  if (rule_mixed)
    z.mixed = mixed_of_operation<Rule::op>(x.real, x.fp, x.mixed, y.real, y.fp, y.rel_err, y.mixed,
                                           mixed_rounding(F, z.mode));
  z.reduce(rule_mixed);
  z.origin = merge_origin(x.origin, y.origin);
  z.source = -1;
  return z;
}

// z = x ∘ y by the rule: a real-format operand combined with a machine-format
// one is first converted into that format (rounded in the other operand's
// mode, like literal(); its rounding error becomes its introduced error).
template <class Rule, RealDomain D>
SymbolicDomainError<D> arithmetic_rule(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                       std::optional<IntegerDivision> int_division) {
  if (x.is_real() && !y.is_real()) return arithmetic_same_format<Rule>(convert(x, y.format, y.mode), y, int_division);
  if (y.is_real() && !x.is_real()) return arithmetic_same_format<Rule>(x, convert(y, x.format, x.mode), int_division);
  return arithmetic_same_format<Rule>(x, y, int_division);
}

// Calls f(Rule{}) with the rule type of the binary operator op (for code that
// holds op as a value, e.g. a domain's FastArithmetic).
template <class F>
decltype(auto) with_rule(ArithOp op, F&& f) {
  switch (op) {
    case ArithOp::Add: return f(AddRule{});
    case ArithOp::Sub: return f(SubRule{});
    case ArithOp::Mul: return f(MulRule{});
    case ArithOp::Div: return f(DivRule{});
  }
  throw std::invalid_argument("arithmetic: operator id " + std::to_string(static_cast<int>(op)) + " is not binary");
}

// The generic path of arithmetic(): the rule of op (without the environment guard).
template <RealDomain D>
SymbolicDomainError<D> arithmetic_impl(ArithOp op, const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                                       std::optional<IntegerDivision> int_division) {
  switch (op) {
    case ArithOp::Add: return arithmetic_rule<AddRule>(x, y, int_division);
    case ArithOp::Sub: return arithmetic_rule<SubRule>(x, y, int_division);
    case ArithOp::Mul: return arithmetic_rule<MulRule>(x, y, int_division);
    case ArithOp::Div: return arithmetic_rule<DivRule>(x, y, int_division);
  }
  throw std::invalid_argument("arithmetic: operator id " + std::to_string(static_cast<int>(op)) + " is not binary");
}

}  // namespace detail


namespace detail {
// x · x with both operands the same object (`d * d`, `a[i] * a[i]`, `s *= s`,
// arithmetic(Mul, v, v)): one value in every execution, so the real result r²
// is >= 0 and, in a floating format (or the real format), so is the computed
// one (rounding a nonnegative value in any mode gives a nonnegative value; an
// integer square may wrap to a negative value and is left alone). The product
// rule gave the err, propagated and introduced parts (its identity holds with
// x = y); the square only intersects real and fp with [0, +inf) and
// re-reduces — the difference that makes sqrt(Σ d·d / n + eps) defined where
// the interval product of two independent [−1, 1] would be [−1, 1].
// The square's sign rule on one enclosure [lo, hi] of a square (its real
// value, or its computed value in a floating format): whether it narrows, to
// [0, hi]. LeanError's square reads it too (<symerr/lean.hpp>).
constexpr bool square_narrows(double lo, double hi) noexcept { return lo < 0 && hi >= 0; }

template <RealDomain D>
void tighten_square(SymbolicDomainError<D>& z) {
  const bool float_format = !std::holds_alternative<IntFormat>(z.format);
  bool tightened = false;
  [[maybe_unused]] const FpGuardFor<D> guard;
  if (square_narrows(z.real.lower(), z.real.upper())) {
    z.real = meet(z.real, D::between(0, z.real.upper()));
    tightened = true;
  }
  if (float_format && square_narrows(z.fp.lower(), z.fp.upper())) {
    z.fp = meet(z.fp, D::between(0, z.fp.upper()));
    z.specials.may_be_neg_zero = false;  // (±v)² rounds to +0 at worst, never −0
    tightened = true;
  }
  if (tightened) z.reduce(true);  // the product's mixed pair holds for the square
}
}  // namespace detail

namespace detail {
// x and y are one value in every execution: the same object, two copies of
// one input of a branch driver's run (SymbolicDomainError::source), or — in a
// domain whose values are named quantities (D::keeps_correlations, e.g.
// Affine: a handle is a function of the noise symbols) — the same real and
// computed quantities, as two temporaries of one memoised expression
// `(x[i] - m) * (x[i] - m)` are. Then x · y is a square.
template <RealDomain D>
bool same_value(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  if (&x == &y) return true;
  // copies of one driver input (a driver's tag has a generation >= 1 in its
  // high half: zeroed memory, source 0, is no tag)
  if (x.source >= 0x10000 && x.source == y.source) return true;
  if constexpr (requires { requires D::keeps_correlations; same_handle(x.real, y.real); }) {
    // the whole handle (index and context: a context-free constant's index
    // may equal a form index of the current context), and bounded: one
    // handle may stand for several unknown quantities (Affine's context-free
    // unknown of undef() and infinite literals, a fresh unknown at each use)
    return same_handle(x.real, y.real) && same_handle(x.fp, y.fp) && is_bounded(x.real) && is_bounded(x.fp) &&
           x.format == y.format && x.mode == y.mode;
  } else {
    return false;
  }
}
}  // namespace detail

/// z = x ∘ y. `int_division` is required for an integer Div. Holds the
/// library's floating-point environment (FpEnvironmentGuard) for its duration.
template <RealDomain D>
SymbolicDomainError<D> arithmetic(ArithOp op, const SymbolicDomainError<D>& x,
                                  const SymbolicDomainError<D>& y,
                                  std::optional<IntegerDivision> int_division = std::nullopt) {
  // z is initialised by the operation, not assigned (no copy of the 160-byte value).
  SymbolicDomainError<D> z = [&] {
    if constexpr (FastArithmetic<D>::enabled) {
      return FastArithmetic<D>::apply(op, x, y, int_division);
    } else {
      [[maybe_unused]] const detail::FpGuardFor<D> guard;
      return detail::arithmetic_impl(op, x, y, int_division);
    }
  }();
  z.origin = detail::merge_origin(x.origin, y.origin);
  // a new quantity (SymbolicDomainError::source), with its recipe where a driver keeps them
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeArith + static_cast<std::uint32_t>(op), x, &y,
                                           int_division ? 1 + static_cast<std::uint64_t>(*int_division) : 0);
  if (op == ArithOp::Mul && detail::same_value(x, y)) detail::tighten_square(z);  // one value: a square
  return z;
}

///@{
/// x + y, x − y, x · y, x / y of two symbolic values: the operator's exact error
/// identity on the operands' errors plus the rounding of the result (arithmetic()).
/// A real-format operand adopts the other's machine format.
/// @throws std::invalid_argument on two different machine formats, and for an integer
/// division without chosen semantics (with_int_division(), or divide()).
template <RealDomain D>
SymbolicDomainError<D> operator+(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Add, x, y);
}
template <RealDomain D>
SymbolicDomainError<D> operator-(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Sub, x, y);
}

template <RealDomain D>
SymbolicDomainError<D> operator*(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Mul, x, y);
}
template <RealDomain D>
SymbolicDomainError<D> operator/(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return arithmetic(ArithOp::Div, x, y);
}
///@}
// The ADL extension point of the generic Div operator (<symerr/ops/div.hpp>).
/// x / y of integer (or float) values with the integer quotient rounded as `mode` says;
/// the ADL extension point of the generic Div operator (<symerr/ops/div.hpp>).
template <RealDomain D>
SymbolicDomainError<D> divide(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y,
                              IntegerDivision mode) {
  return arithmetic(ArithOp::Div, x, y, mode);
}

}  // namespace symerr

#include <symerr/symbolic/unary.hpp>

#endif  // SYMERR_SYMBOLIC_ARITH_HPP_INCLUDED
