// Sub: z = x − y in format F and mode ρ, t = fp_x − fp_y, fp_z = round(t).
//
// Error identity (exact; e = fp − real):
//   err_z = e_x − e_y + (round(t) − t)
// the same on the split: propagated_z = p_x − p_y,
// introduced_z = i_x − i_y + (round(t) − t).
// x − y is x + (−y) in IEEE 754: the exactness conditions, the nearest bound
// and the zero signs are Add's with y negated.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_SUB_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_SUB_HPP_INCLUDED

#include <symerr/symbolic/rules/add.hpp>

namespace symerr::detail {

struct SubRule : BinaryRuleDefaults<SubRule> {
  static constexpr ArithOp op = ArithOp::Sub;

  // Special values (IEEE 754 §6.1, §7.2: +inf − +inf is invalid).
  //       y:  −inf  <0  −0  +0  >0  +inf  NaN          (x down the side)
  static constexpr CategoryTable specials = [] {
    using namespace table;
    return CategoryTable{{
        {NaN, NI, NI, NI, NI, NI, NaN},       // −inf
        {PI, no, no, no, no, NI, NaN},        // <0
        {PI, no, no, no, no, NI, NaN},        // −0
        {PI, no, no, no, no, NI, NaN},        // +0
        {PI, no, no, no, no, NI, NaN},        // >0
        {PI, PI, PI, PI, PI, NaN, NaN},       // +inf
        {NaN, NaN, NaN, NaN, NaN, NaN, NaN},  // NaN
    }};
  }();

  template <RealDomain D>
  static D value(const D& a, const D& b) { return a - b; }
  static mpq_class value(const mpq_class& a, const mpq_class& b) { return a - b; }
  static mpz_class integer_value(const mpz_class& a, const mpz_class& b, IntegerDivision) { return a - b; }

  // No cancellation (real_x and −real_y of one sign): between the operands'
  // relative errors.
  template <RealDomain D>
  static D relative(const D& xr, const D& yr, const D& rx, const D& ry) {
    return relative_of_sum(xr, yr, rx, ry, true);
  }

  template <RealDomain D>
  static D error(const ErrorTerms<D>& o, const D& direct) { return meet(direct, o.e_x - o.e_y); }

  template <RealDomain D>
  static bool rounding_is_exact(const D& fx, const D& fy, const D& t, const FloatFormat& F) {
    return sum_is_exact(fx, fy, t, F);
  }
  template <RealDomain D>
  static D nearest_rounding(const D& rounding, const D& fx, const D& fy) {
    return AddRule::nearest_rounding(rounding, fx, fy);
  }
  template <RealDomain D>
  static void zero_signs(CategorySet cx, CategorySet cy, CategorySet /*special*/, const D& t, const FloatFormat& F,
                         SymbolicDomainError<D>& z) {
    const CategorySet minus_y_zeros = ((cy & kPosZero) ? kNegZero : 0) | ((cy & kNegZero) ? kPosZero : 0);
    AddRule::sum_zero_signs(cx, cy, minus_y_zeros, t, F, z);
  }
};

}  // namespace symerr::detail

#endif  // SYMERR_SYMBOLIC_RULES_SUB_HPP_INCLUDED
