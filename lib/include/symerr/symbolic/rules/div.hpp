// Div: z = x / y in format F and mode ρ, t = fp_x / fp_y, fp_z = round(t)
// (integer formats: the quotient rounded by the chosen IntegerDivision, then
// wrapped).
//
// Error identity (exact where real_y ≠ 0 and fp_y ≠ 0; e = fp − real,
// real_z = real_x / real_y):
//   err_z = (e_x − real_z·e_y) / fp_y + (round(t) − t)
// (the form (e_x·real_y − real_x·e_y) / (real_y·fp_y) with real_y cancelled:
// in interval arithmetic never wider, so only this one is evaluated); the
// same on the split (pr = real + propagated, pr_z = pr_x / pr_y):
//   propagated_z = (p_x − real_z·p_y) / pr_y,
//   introduced_z = (i_x − pr_z·i_y) / fp_y + (round(t) − t).
// A domain keeping correlations (Affine) also evaluates
// e_x / fp_y − (real_z / fp_y)·e_y: their correlation survives. Where the
// divisor carries a relative error r_y (relative.hpp), err_z is also
// e_x / fp_y − real_z·r_y / (1 + r_y) (error_relative_divisor).
// The real quotient is undefined where real_y = 0; an integer quotient where fp_y = 0.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_DIV_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_DIV_HPP_INCLUDED

#include <cmath>

#include <symerr/symbolic/rules/mul.hpp>

namespace symerr::detail {

// The nonzero part of a divisor enclosure, excluding (−gap, gap): nonzero
// values of a float format are at least min subnormal in magnitude, nonzero
// integers at least 1; reals have no gap. nullopt if the divisor is only 0.
template <RealDomain D>
std::optional<D> nonzero_part(const D& y, double gap) {
  const bool neg = y.lower() < 0, pos = y.upper() > 0;
  if (!neg && !pos) return std::nullopt;
  if (!contains(y, 0.0)) return y;
  if (gap <= 0) return y;  // the domain's division returns whole() for it
  std::optional<D> r;
  if (neg && y.lower() <= -gap) r = D::between(y.lower(), -gap);
  if (pos && y.upper() >= gap) {
    const D p = D::between(gap, y.upper());
    r = r ? hull(*r, p) : p;
  }
  return r;
}

// Quotient of enclosures whose divisor straddles the gap: the hull of the two
// one-signed quotients, so the result stays bounded.
template <RealDomain D>
D divide_split(const D& x, const D& y, double gap) {
  if (!contains(y, 0.0) || gap <= 0) return x / y;
  D r = D::point(0);
  bool any = false;
  if (y.lower() <= -gap) { r = x / D::between(y.lower(), -gap); any = true; }
  if (y.upper() >= gap) {
    const D q = x / D::between(gap, y.upper());
    r = any ? hull(r, q) : q;
    any = true;
  }
  return any ? r : D::whole();
}

template <RealDomain D>
D integer_quotient(const D& t, IntegerDivision mode) {
  // floor and trunc are monotone, so Q ⊆ [q(inf T), q(sup T)].
  auto q = [&](double v) { return mode == IntegerDivision::Floor ? std::floor(v) : std::trunc(v); };
  return D::between(q(t.lower()), q(t.upper()));
}

template <RealDomain D>
D quotient_rounding_error(const D& t, IntegerDivision mode, const D& divisor) {
  // q − t ∈ (−1, 0] for floor; for truncation its sign is opposite to t's.
  // With integer a, b: t − floor(t) = (a mod b)/|b| is a multiple of 1/|b|,
  // so |q − t| <= 1 − 1/|b| <= 1 − 1/B for B >= max |b| (upper end rounded up).
  const double m = (D::point(1) - D::point(1) / D::point(std::max(1.0, mag(divisor)))).upper();
  if (mode == IntegerDivision::Floor || t.lower() >= 0) return D::between(-m, 0);
  if (t.upper() <= 0) return D::between(0, m);
  return D::between(-m, m);
}

struct DivRule : BinaryRuleDefaults<DivRule> {
  static constexpr ArithOp op = ArithOp::Div;
  static constexpr bool needs_integer_division = true;

  // Special values (IEEE 754 §6.1, §7.2, §7.3: 0/0 and inf/inf are invalid,
  // nonzero/0 = ±inf (division by zero), inf/0 = ±inf; sign = xor of signs).
  //       y:  −inf  <0  −0  +0  >0  +inf  NaN          (x down the side)
  static constexpr CategoryTable specials = [] {
    using namespace table;
    return CategoryTable{{
        {NaN, PI, PI, NI, NI, NaN, NaN},      // −inf
        {PZ, no, PI, NI, no, NZ, NaN},        // <0
        {PZ, no, NaN, NaN, no, NZ, NaN},      // −0
        {NZ, no, NaN, NaN, no, PZ, NaN},      // +0
        {NZ, no, NI, PI, no, PZ, NaN},        // >0
        {NaN, NI, NI, PI, PI, NaN, NaN},      // +inf
        {NaN, NaN, NaN, NaN, NaN, NaN, NaN},  // NaN
    }};
  }();

  template <RealDomain D>
  static D value(const D& a, const D& b) { return a / b; }  // whole() if b may be 0
  static mpq_class value(const mpq_class& a, const mpq_class& b) { return a / b; }  // b ≠ 0
  static mpz_class integer_value(const mpz_class& a, const mpz_class& b, IntegerDivision mode) {
    mpz_class q;  // b ≠ 0
    if (mode == IntegerDivision::Floor) mpz_fdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
    else mpz_tdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
    return q;
  }

  // (1 + r_x)/(1 + r_y) − 1 = (r_x − r_y)/(1 + r_y), fp_y ≠ 0 (1 + r_y > 0).
  template <RealDomain D>
  static D relative(const D&, const D&, const D& rx, const D& ry) {
    const D d = D::point(1) + ry;
    if (!(d.lower() > 0)) return D::whole();
    return (rx - ry) / d;
  }

  template <RealDomain D>
  static D error(const ErrorTerms<D>& o, const D& direct) {
    if (!certainly(cmp_ne(o.base_y, D::point(0))) || contains(o.value_y, 0.0)) return direct;
    D r = meet(direct, (o.e_x - o.base_z * o.e_y) / o.value_y);
    if constexpr (requires { requires D::keeps_correlations; })
      r = meet(r, o.e_x / o.value_y - (o.base_z / o.value_y) * o.e_y);
    return r;
  }

  // The total error with the divisor's relative error r_y (e_y = real_y·r_y,
  // fp_y = real_y·(1 + r_y), real_y ≠ 0):
  //   (e_x − real_z·e_y) / fp_y = e_x / fp_y − real_z · r_y / (1 + r_y),
  // where the divisor's error enters relative to the quotient, not as e_y
  // over the divisor's smallest value: x / √(Σx²/n + ε) with Σx²/n + ε in
  // [ε, 1] had the error of the sum over ε (~10^5 too wide for ε = 1e-5).
  template <RealDomain D>
  static D error_relative_divisor(const D& total, const D& e_x, const D& value_y, const D& real_y, const D& base_z,
                                  const D& r_y) {
    if (!is_bounded(r_y) || contains(real_y, 0.0) || contains(value_y, 0.0)) return total;
    const D d = D::point(1) + r_y;
    if (!(d.lower() > 0)) return total;
    return meet(total, e_x / value_y - base_z * (r_y / d));
  }

  // Exact: division by a power of two inside the normal range.
  template <RealDomain D>
  static bool rounding_is_exact(const D& /*fx*/, const D& fy, const D& t, const FloatFormat& F) {
    return power_of_two_point(fy) && scaling_is_exact(t, F);
  }

  template <RealDomain D>
  static void zero_signs(CategorySet cx, CategorySet cy, CategorySet special, const D& t, const FloatFormat& F,
                         SymbolicDomainError<D>& z) {
    MulRule::zero_signs(cx, cy, special, t, F, z);  // xor of the signs, as for a product
  }

  template <RealDomain D>
  static std::optional<D> finite_operand(const D& y, double gap) { return nonzero_part(y, gap); }
  template <RealDomain D>
  static D finite_value(const D& fx, const D& fy_nonzero, double gap) { return divide_split(fx, fy_nonzero, gap); }
  template <RealDomain D>
  static void definedness(const SymbolicDomainError<D>& y, bool integer_format, SpecialStates& s) {
    if (cmp_eq(y.real, D::point(0)) == Tri::True) s.may_be_defined = false;
    if (contains(y.real, 0.0)) s.may_be_undefined = true;
    // integer x / 0: undefined in the computed semantics too
    if (integer_format && y.specials.may_be_finite && contains(y.fp, 0.0)) s.may_be_undefined = true;
  }
  template <RealDomain D>
  static std::pair<D, D> integer_result(const D& t, const D& y_fp, IntegerDivision mode) {
    const D q = integer_quotient(t, mode);
    return {q, meet(q - t, quotient_rounding_error(t, mode, y_fp))};
  }
};

}  // namespace symerr::detail

#endif  // SYMERR_SYMBOLIC_RULES_DIV_HPP_INCLUDED
