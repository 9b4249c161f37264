// Comparisons, ulp enclosures and printing of SymbolicDomainError; the unary
// operators are one rule each: rules/{neg,abs,sqrt,convert,integral}.hpp.
// This file completes SymbolicDomainError, and <symerr/symbolic.hpp> includes
// it after the class: included on its own, it includes symbolic.hpp, which
// includes it at its place (hence a guard, not #pragma once).
#include <symerr/symbolic.hpp>
#ifndef SYMERR_SYMBOLIC_UNARY_HPP_INCLUDED
#define SYMERR_SYMBOLIC_UNARY_HPP_INCLUDED

#include <bit>

#include <symerr/symbolic/detail.hpp>
#include <symerr/symbolic/rules/abs.hpp>
#include <symerr/symbolic/rules/convert.hpp>
#include <symerr/symbolic/rules/integral.hpp>
#include <symerr/symbolic/rules/neg.hpp>
#include <symerr/symbolic/rules/sqrt.hpp>

namespace symerr {

/// An enclosure of ulp(v) in F for v ∈ a (ulp is monotone in |v|).
template <RealDomain D>
D ulp(const D& a, const FloatFormat& F) {
  const double hi = std::min(mag(a), F.max_finite());
  return D::between(ulp(mig(a), F), ulp(hi, F));
}

// Comparisons of two values compare the computed values (what the program's
// branch does) and the real values (what the ideal program does): the answer
// is certain only when both agree on the whole enclosed set; otherwise a
// branch on it is undecided or unstable (docs/design.md §1).
namespace detail {
// Tightens `target` (an operand of `target rel other`, or of `other rel
// target`) to the executions in which the relation's ideal / computed outcome
// is the one given (a branch driver's path condition; see ComparisonInfo).
template <RealDomain D>
bool refine_operand(void* target, const ComparisonInfo& info, bool target_is_lhs, bool ideal_outcome,
                    bool computed_outcome, bool refine_ideal, bool refine_computed);

// +1 / −1 for an exact infinity: a float-format value that is certainly +inf
// (−inf) when computed and whose real value is undefined, as an infinite
// literal (`T m = -INFINITY;` under the driver's literal format, the identity
// of a max reduction; `x > -INFINITY`) or an operation on one (−inf + x) is;
// the ideal program holds the same infinity. 0 otherwise: an overflow (a
// defined real value) is not one, nor a real-format infinity (it may be a
// real division by zero, which has no ideal value), nor an integer format's
// undefined result.
template <RealDomain D>
int exact_infinity(const SymbolicDomainError<D>& v) noexcept {
  const SpecialStates& s = v.specials;
  if (!v.is_float() || s.may_be_finite || s.may_be_nan || s.may_be_defined || s.may_be_pos_inf == s.may_be_neg_inf) return 0;
  return s.may_be_pos_inf ? 1 : -1;
}

// A number compared with (or the other operand of max/min beside) x, exactly:
// an infinite one takes x's float format (an exact infinity of that format,
// as the program's literal is one), any other is exact_number(v) — except an
// integer beyond 2^p beside a value of a float format F of precision p: C and
// C++ convert it to F first ((float)16777217 is 16777216.0f), so the
// computed program sees it rounded into F and the ideal one the exact integer
// (literal(v, F): the comparison is unstable where they differ).
template <RealDomain D, class A>
SymbolicDomainError<D> operand_literal(A v, const SymbolicDomainError<D>& x) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isinf(v) && x.is_float() && std::get<FloatFormat>(x.format).has_infinities())
      return SymbolicDomainError<D>::inf(v > 0 ? +1 : -1, x.format);
  } else {
    if (x.is_float()) {
      const FloatFormat& F = std::get<FloatFormat>(x.format);
      unsigned long long m = static_cast<unsigned long long>(v);
      if constexpr (std::is_signed_v<A>)
        if (v < 0) m = 0ULL - m;
      if (F.precision < 64 && m > (1ULL << F.precision))
        return SymbolicDomainError<D>::literal(mpq_class(std::to_string(v)), x.format, x.mode);
    }
  }
  return SymbolicDomainError<D>::exact_number(v);
}

// Certainly finite, not NaN, with a defined real value.
template <RealDomain D>
bool plain_finite(const SymbolicDomainError<D>& v) noexcept {
  const SpecialStates& s = v.specials;
  return s.may_be_finite && !s.may_be_nan && !s.may_be_pos_inf && !s.may_be_neg_inf && s.may_be_defined &&
         !s.may_be_undefined;
}

// The relation between an exact infinity and a plain finite value, or two
// exact infinities: the same in the ideal program (which holds the same
// infinite constant) and the computed one. Unknown otherwise.
template <RealDomain D>
Tri infinite_outcome(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b, Relation rel) {
  const int ia = exact_infinity(a), ib = exact_infinity(b);
  if ((ia == 0 && ib == 0) || (ia == 0 && !plain_finite(a)) || (ib == 0 && !plain_finite(b))) return Tri::Unknown;
  const int c = ia != ib ? (ia < ib ? -1 : 1) : 0;  // a finite operand lies between −inf and +inf
  switch (rel) {
    case Relation::Lt: return c < 0 ? Tri::True : Tri::False;
    case Relation::Le: return c <= 0 ? Tri::True : Tri::False;
    case Relation::Gt: return c > 0 ? Tri::True : Tri::False;
    case Relation::Ge: return c >= 0 ? Tri::True : Tri::False;
    case Relation::Eq: return c == 0 ? Tri::True : Tri::False;
    case Relation::Ne: return c != 0 ? Tri::True : Tri::False;
    case Relation::Other: break;
  }
  return Tri::Unknown;
}

// What an undecided comparison of a and b records for a driver (see
// ComparisonInfo): both answers, the operands' enclosures, lane, input tags,
// forms (Affine), and refine_operand as the way to tighten an operand.
template <RealDomain D>
ComparisonInfo comparison_info(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b, Tri ideal,
                               Tri computed, Relation rel) {
  ComparisonInfo info;
  info.ideal = ideal;
  info.computed = computed;
  info.relation = rel;
  info.lane = merge_origin(a.origin, b.origin);
  // Points cannot be tightened, and are often temporaries (literals) that are
  // gone by the time the Truth is converted: not exposed.
  info.lhs = is_point(a.real) && is_point(a.fp) ? nullptr : &a;
  info.rhs = is_point(b.real) && is_point(b.fp) ? nullptr : &b;
  info.refine = &refine_operand<D>;
  info.serial = ++detail::comparison_serial();
  info.source[0] = a.source, info.source[1] = b.source;
  if constexpr (requires { D::keeps_correlations; } && std::is_trivially_copyable_v<D> && sizeof(D) == 8) {
    info.forms[0][0] = std::bit_cast<std::uint64_t>(a.real), info.forms[0][1] = std::bit_cast<std::uint64_t>(a.fp);
    info.forms[1][0] = std::bit_cast<std::uint64_t>(b.real), info.forms[1][1] = std::bit_cast<std::uint64_t>(b.fp);
    info.has_forms = true;
  }
  info.real[0][0] = a.real.lower(), info.real[0][1] = a.real.upper();
  info.real[1][0] = b.real.lower(), info.real[1][1] = b.real.upper();
  info.fp[0][0] = a.fp.lower(), info.fp[0][1] = a.fp.upper();
  info.fp[1][0] = b.fp.lower(), info.fp[1][1] = b.fp.upper();
  info.err[0][0] = a.err.lower(), info.err[0][1] = a.err.upper();
  info.err[1][0] = b.err.lower(), info.err[1][1] = b.err.upper();
  return info;
}

template <RealDomain D>
Truth compare(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b,
              Tri (*cmp)(const D&, const D&), const char* what, Relation rel = Relation::Other) {
  [[maybe_unused]] const FpGuardFor<D> guard;
  if (const Tri t = infinite_outcome(a, b, rel); t != Tri::Unknown) return {t, what};
  // One object compared with itself (`x != x`, C's NaN test): equal in both
  // programs unless the computed value may be NaN (or the real undefined).
  if (&a == &b && rel != Relation::Other && !a.specials.may_be_nan && a.specials.may_be_defined &&
      !a.specials.may_be_undefined) {
    const bool equal_holds = rel == Relation::Le || rel == Relation::Ge || rel == Relation::Eq;
    return {equal_holds ? Tri::True : Tri::False, what};
  }
  // A value that may be non-finite, or whose real (or, for integers, computed)
  // value may be undefined, has no certain answer.
  const bool special = a.specials.may_be_undefined || b.specials.may_be_undefined ||
                       a.specials.may_be_nan || b.specials.may_be_nan || !a.specials.may_be_finite ||
                       !b.specials.may_be_finite || a.specials.may_be_pos_inf || a.specials.may_be_neg_inf ||
                       b.specials.may_be_pos_inf || b.specials.may_be_neg_inf;
  const Tri computed = special ? Tri::Unknown : cmp(a.fp, b.fp);
  const Tri ideal = special ? Tri::Unknown : cmp(a.real, b.real);
  // Certain only if the real computation on the actual inputs (pr = real +
  // propagated) decides it the same way too: the whole-kernel split of what
  // follows the branch assumes all three programs took it.
  const Tri actual = special || computed != ideal ? Tri::Unknown : cmp(actual_real(a), actual_real(b));
  const Tri t = computed == ideal && actual == ideal ? computed : Tri::Unknown;
  if (t != Tri::Unknown) return {t, what};
  return {Tri::Unknown, what, comparison_info(a, b, ideal, computed, special ? Relation::Other : rel)};
}
}  // namespace detail

#define SYMERR_SDE_CMP(op, fn, rel)                                                                      \
  template <RealDomain D>                                                                                \
  Truth operator op(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {                  \
    return detail::compare<D>(a, b, [](const D& p, const D& q) { return fn(p, q); }, "a " #op " b",      \
                              Relation::rel);                                                            \
  }                                                                                                      \
  template <RealDomain D>                                                                                \
  Truth operator op(const SymbolicDomainError<D>& a, double b) {                                         \
    return a op detail::operand_literal(b, a);                                                           \
  }
///@{
/// Comparisons of symbolic values (or with a double, compared exactly): a Truth,
/// certain only when the ideal, the computed and the actual-input real computation
/// decide alike for every execution (and no operand may be special); otherwise
/// Unknown, with the operands' information for a branch driver (converted to bool
/// outside a driver it throws UndecidedBranch).
SYMERR_SDE_CMP(<, cmp_lt, Lt)
SYMERR_SDE_CMP(<=, cmp_le, Le)
SYMERR_SDE_CMP(>, cmp_gt, Gt)
SYMERR_SDE_CMP(>=, cmp_ge, Ge)
SYMERR_SDE_CMP(==, cmp_eq, Eq)
SYMERR_SDE_CMP(!=, cmp_ne, Ne)
///@}
#undef SYMERR_SDE_CMP

/// Prints the value's format, enclosures and special flags (for messages and debugging).
template <RealDomain D>
std::ostream& operator<<(std::ostream& os, const SymbolicDomainError<D>& x) {
  const SpecialStates& s = x.specials;
  os << "{" << format_name(x.format) << " real " << x.real << " fp " << x.fp << " err " << x.err
     << " rel_err " << x.rel_err;
  if (s.may_be_nan) os << " may-NaN";
  if (s.may_be_pos_inf) os << " may+inf";
  if (s.may_be_neg_inf) os << " may-inf";
  if (!s.may_be_finite) os << " never-finite";
  if (s.may_be_undefined) os << (s.may_be_defined ? " may-undef" : " undef");
  return os << "}";
}

}  // namespace symerr

#endif  // SYMERR_SYMBOLIC_UNARY_HPP_INCLUDED
