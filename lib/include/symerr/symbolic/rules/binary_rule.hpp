// What every binary arithmetic rule (add.hpp, sub.hpp, mul.hpp, div.hpp)
// shares: the terms its error identity is evaluated on, the special-value
// table type, and the default steps a rule may override.
//
// A rule is a struct of static members (the driver is detail::arithmetic_rule
// in <symerr/symbolic/arith.hpp>):
//   op                       ArithOp (and so its operator-table row)
//   specials                 CategoryTable: IEEE results of the special operand categories
//   value(a, b)              a ∘ b on a domain, and exactly on rationals
//   error(terms, direct)     the exact error identity, met with the direct difference
//   rounding_is_exact(...)   exactness conditions of round(fp_x ∘ fp_y) in a float format
//   zero_signs(...)          IEEE 754 §6.3 signs of a zero result
//   integer_value(a, b, d)   the exact integer result of two integers (before wrapping)
// and optionally (defaults in BinaryRuleDefaults) the divisor's nonzero part,
// the computed value of the finite path, the definedness of the real value,
// a tighter rounding bound under nearest, and the integer quotient.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_RULES_BINARY_RULE_HPP_INCLUDED
#define SYMERR_SYMBOLIC_RULES_BINARY_RULE_HPP_INCLUDED

#include <array>
#include <optional>
#include <utility>

#include <symerr/symbolic/detail.hpp>
#include <symerr/symbolic/fast_arithmetic.hpp>
#include <symerr/symbolic/relative.hpp>

namespace symerr::detail {

// The terms of the identity err_z(base, value): with e = value − base per
// operand, it gives value_x ∘ value_y − base_x ∘ base_y (base_z = base_x ∘ base_y).
// Evaluated three times (arith.hpp): on the total error (base real, value fp),
// on the propagated part (base real, value pr), on the introduced part
// before rounding (base pr, value fp); pr = real + propagated.
template <RealDomain D>
struct ErrorTerms {
  const D& base_x;
  const D& base_y;
  const D& base_z;
  const D& e_x;
  const D& e_y;
  const D& value_x;
  const D& value_y;  // Div: its nonzero part
};

// The IEEE 754 result categories of x ∘ y for x in category i and y in
// category j (bit positions of Category: −inf, <0, −0, +0, >0, +inf, NaN), for
// the pairs the finite path does not produce; 0 where it does.
using CategoryTable = std::array<std::array<CategorySet, 7>, 7>;

// Short names for the tables' entries.
namespace table {
inline constexpr CategorySet NI = kNegInf, PI = kPosInf, NZ = kNegZero, PZ = kPosZero, NaN = kNaN, no = 0;
}  // namespace table

// The union of the table's entries over every category pair of cx × cy.
constexpr CategorySet special_results(const CategoryTable& t, CategorySet cx, CategorySet cy) noexcept {
  CategorySet r = 0;
  for (unsigned i = 0; i < 7; ++i)
    if (cx & (1u << i))
      for (unsigned j = 0; j < 7; ++j)
        if (cy & (1u << j)) r |= t[i][j];
  return r;
}

// The steps only some operators need; a rule derives from
// BinaryRuleDefaults<itself> and overrides a step by declaring its own.
template <class Rule>
struct BinaryRuleDefaults {
  // An integer result needs a division semantics (IntegerDivision) chosen.
  static constexpr bool needs_integer_division = false;
  // The part of the second operand the finite path uses (all of it; Div:
  // its nonzero part, nullopt if there is none).
  template <RealDomain D>
  static std::optional<D> finite_operand(const D& y, double /*gap*/) { return y; }
  // t ⊇ {a ∘ b : a ∈ fx, b ∈ fy} on the finite path.
  template <RealDomain D>
  static D finite_value(const D& fx, const D& fy, double /*gap*/) { return Rule::value(fx, fy); }
  // Executions whose real or computed value is undefined (none beyond the operands').
  template <RealDomain D>
  static void definedness(const SymbolicDomainError<D>& /*y*/, bool /*integer_format*/, SpecialStates& /*s*/) {}
  // rel_err of t = fp_x ∘ fp_y against real_z from the operands' real
  // values and bounded relative errors (relative.hpp); none by default.
  template <RealDomain D>
  static D relative(const D& /*real_x*/, const D& /*real_y*/, const D& /*r_x*/, const D& /*r_y*/) {
    return D::whole();
  }
  // The relative identity applied to two operands (real, fp, rel_err each):
  // a sum with an exact zero (real and computed value 0, as `sum = 0` before
  // a loop of `sum += t`) has the other operand's relative error, whatever
  // the zero's rel_err (it has none: its real value is 0).
  template <RealDomain D>
  static D relative_of_operands(const D& xr, const D& xf, const D& rx, const D& yr, const D& yf, const D& ry) {
    if constexpr (Rule::op == ArithOp::Add || Rule::op == ArithOp::Sub) {
      if (is_exact_zero(xr) && is_exact_zero(xf)) return ry;
      if (is_exact_zero(yr) && is_exact_zero(yf)) return rx;
    }
    if (!is_bounded(rx) || !is_bounded(ry)) return D::whole();
    return Rule::relative(xr, yr, rx, ry);
  }
  // A tighter bound of the rounding under round-to-nearest (none).
  template <RealDomain D>
  static D nearest_rounding(const D& rounding, const D& /*fx*/, const D& /*fy*/) { return rounding; }
  // The integer result q of t ⊇ {fp_x ∘ fp_y} before wrapping, and q − t.
  template <RealDomain D>
  static std::pair<D, D> integer_result(const D& t, const D& /*y_fp*/, IntegerDivision) {
    return {t, D::point(0)};
  }
};

}  // namespace symerr::detail

#endif  // SYMERR_SYMBOLIC_RULES_BINARY_RULE_HPP_INCLUDED
