// Mul: z = x · y in format F and mode ρ, t = fp_x · fp_y, fp_z = round(t).
//
// Error identity (exact; e = fp − real), both forms evaluated and intersected:
//   err_z = real_x·e_y + e_x·fp_y + (round(t) − t)
//         = real_y·e_x + e_y·fp_x + (round(t) − t)
// the same on the split (pr = real + propagated):
//   propagated_z = real_x·p_y + p_x·pr_y  (= real_y·p_x + p_y·pr_x),
//   introduced_z = pr_x·i_y + i_x·fp_y (= pr_y·i_x + i_y·fp_x) + (round(t) − t).
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_MUL_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_MUL_HPP_INCLUDED

#include <symerr/symbolic/rules/binary_rule.hpp>

namespace symerr::detail {

struct MulRule : BinaryRuleDefaults<MulRule> {
  static constexpr ArithOp op = ArithOp::Mul;

  // Special values (IEEE 754 §6.1, §7.2: 0 · inf is invalid; sign = xor of signs).
  //       y:  −inf  <0  −0  +0  >0  +inf  NaN          (x down the side)
  static constexpr CategoryTable specials = [] {
    using namespace table;
    return CategoryTable{{
        {PI, PI, NaN, NaN, NI, NI, NaN},      // −inf
        {PI, no, no, no, no, NI, NaN},        // <0
        {NaN, no, no, no, no, NaN, NaN},      // −0
        {NaN, no, no, no, no, NaN, NaN},      // +0
        {NI, no, no, no, no, PI, NaN},        // >0
        {NI, NI, NaN, NaN, PI, PI, NaN},      // +inf
        {NaN, NaN, NaN, NaN, NaN, NaN, NaN},  // NaN
    }};
  }();

  template <RealDomain D>
  static D value(const D& a, const D& b) { return a * b; }
  static mpq_class value(const mpq_class& a, const mpq_class& b) { return a * b; }
  static mpz_class integer_value(const mpz_class& a, const mpz_class& b, IntegerDivision) { return a * b; }

  // (1 + r_x)(1 + r_y) − 1.
  template <RealDomain D>
  static D relative(const D&, const D&, const D& rx, const D& ry) {
    return compose_relative(rx, ry);
  }

  template <RealDomain D>
  static D error(const ErrorTerms<D>& o, const D& direct) {
    const D first = meet(direct, o.base_x * o.e_y + o.e_x * o.value_y);
    return meet(first, o.base_y * o.e_x + o.e_y * o.value_x);
  }

  // Exact: scaling by a power of two inside the normal range, or up-scaling
  // (by 2^k, k >= 0) without overflow.
  template <RealDomain D>
  static bool rounding_is_exact(const D& fx, const D& fy, const D& t, const FloatFormat& F) {
    return ((power_of_two_point(fx) || power_of_two_point(fy)) && scaling_is_exact(t, F)) ||
           upscaling_is_exact(fx, fy, t, F);
  }

  // IEEE 754 §6.3: a zero product has the xor of the operands' signs.
  template <RealDomain D>
  static void zero_signs(CategorySet cx, CategorySet cy, CategorySet special, const D& /*t*/,
                         const FloatFormat& /*F*/, SymbolicDomainError<D>& z) {
    SpecialStates& s = z.specials;
    const bool xn = cx & kNegative, xp = cx & kPositive, yn = cy & kNegative, yp = cy & kPositive;
    s.may_be_pos_zero = (xp && yp) || (xn && yn) || (special & kPosZero);
    s.may_be_neg_zero = (xp && yn) || (xn && yp) || (special & kNegZero);
  }
};

}  // namespace symerr::detail

#endif  // SYMERR_SYMBOLIC_RULES_MUL_HPP_INCLUDED
