// Add: z = x + y in format F and mode ρ, t = fp_x + fp_y, fp_z = round(t).
//
// Error identity (exact; e = fp − real):
//   err_z = e_x + e_y + (round(t) − t)
// the same on the split (pr = real + propagated): propagated_z = p_x + p_y,
// introduced_z = i_x + i_y + (round(t) − t).
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_ADD_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_ADD_HPP_INCLUDED

#include <symerr/symbolic/rules/binary_rule.hpp>

namespace symerr::detail {

struct AddRule : BinaryRuleDefaults<AddRule> {
  static constexpr ArithOp op = ArithOp::Add;

  // Special values (IEEE 754 §6.1, §7.2: +inf + −inf is invalid).
  //       y:  −inf  <0  −0  +0  >0  +inf  NaN          (x down the side)
  static constexpr CategoryTable specials = [] {
    using namespace table;
    return CategoryTable{{
        {NI, NI, NI, NI, NI, NaN, NaN},            // −inf
        {NI, no, no, no, no, PI, NaN},             // <0
        {NI, no, no, no, no, PI, NaN},             // −0
        {NI, no, no, no, no, PI, NaN},             // +0
        {NI, no, no, no, no, PI, NaN},             // >0
        {NaN, PI, PI, PI, PI, PI, NaN},            // +inf
        {NaN, NaN, NaN, NaN, NaN, NaN, NaN},       // NaN
    }};
  }();

  template <RealDomain D>
  static D value(const D& a, const D& b) { return a + b; }
  static mpq_class value(const mpq_class& a, const mpq_class& b) { return a + b; }
  static mpz_class integer_value(const mpz_class& a, const mpz_class& b, IntegerDivision) { return a + b; }

  template <RealDomain D>
  static D error(const ErrorTerms<D>& o, const D& direct) { return meet(direct, o.e_x + o.e_y); }

  // No cancellation (operands of one sign): between the operands' relative errors.
  template <RealDomain D>
  static D relative(const D& xr, const D& yr, const D& rx, const D& ry) {
    return relative_of_sum(xr, yr, rx, ry, false);
  }

  // Exact when t needs no more than p bits of the operands' common quantum
  // (Sterbenz, subnormal sums: sum_is_exact).
  template <RealDomain D>
  static bool rounding_is_exact(const D& fx, const D& fy, const D& t, const FloatFormat& F) {
    return sum_is_exact(fx, fy, t, F);
  }
  // Nearest rounding is at least as close as any value of F: x and y are
  // values of F at distance |y| and |x| from x + y, so |δ| <= min(|x|, |y|).
  template <RealDomain D>
  static D nearest_rounding(const D& rounding, const D& fx, const D& fy) {
    return meet(rounding, symmetric<D>(std::min(mag(fx), mag(fy))));
  }

  // IEEE 754 §6.3: with subnormals, a zero sum below the normal range is an
  // exact cancellation of nonzero values — +0, −0 in roundTowardNegative — or
  // a sum of zeros: (+0) + (+0) = +0, (−0) + (−0) = −0, mixed zeros as a
  // cancellation. Without subnormals a nonzero t below 2^emin may also round
  // to the zero of its own sign. `y_zeros`: the zero categories of the addend.
  template <RealDomain D>
  static void sum_zero_signs(CategorySet cx, CategorySet cy, CategorySet y_zeros, const D& t, const FloatFormat& F,
                             SymbolicDomainError<D>& z) {
    SpecialStates& s = z.specials;
    const bool down = z.mode == RoundingMode::Downward;
    const bool cancel = (cx & kNonZeroFinite) && (cy & kNonZeroFinite);
    const bool mixed = ((cx & kPosZero) && (y_zeros & kNegZero)) || ((cx & kNegZero) && (y_zeros & kPosZero));
    s.may_be_pos_zero = ((cancel || mixed) && !down) || ((cx & kPosZero) && (y_zeros & kPosZero));
    s.may_be_neg_zero = ((cancel || mixed) && down) || ((cx & kNegZero) && (y_zeros & kNegZero));
    if (!F.subnormals && t.upper() > 0) s.may_be_pos_zero = true;
    if (!F.subnormals && t.lower() < 0) s.may_be_neg_zero = true;
  }
  template <RealDomain D>
  static void zero_signs(CategorySet cx, CategorySet cy, CategorySet /*special*/, const D& t, const FloatFormat& F,
                         SymbolicDomainError<D>& z) {
    sum_zero_signs(cx, cy, cy & kAnyZero, t, F, z);
  }
};

}  // namespace symerr::detail

#endif  // SYMERR_SYMBOLIC_RULES_ADD_HPP_INCLUDED
