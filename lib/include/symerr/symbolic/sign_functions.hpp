// C's sign and classification functions of a symbolic value: signbit,
// copysign, fdim, isnormal and fpclassify (and copysignf/l, fdimf/l in
// <symerr/symbolic/c_names.hpp>, the std:: spellings in std_math.hpp).
//
// What each means in the two programs:
//   * signbit(x): the computed program reads the sign bit of the computed
//     value (−0 and every NaN whose sign is unknown included); the ideal one
//     asks real < 0 (a real number has no signed zero). A Truth: decided
//     where every execution agrees, else a branch (UndecidedBranch outside
//     the driver; the driver forks, with the closed path conditions
//     real <= 0 / real >= 0 and fp <= 0 / fp >= 0, since −0 and +0 both lie
//     at 0, and tightens a non-const lvalue operand to them).
//   * copysign(x, y) = signbit(y) ? −|x| : |x|: a branch on y's sign (the
//     function is discontinuous in y where x != 0), exact otherwise. With y
//     a plain number, its sign bit decides (copysign(x, -0.0) = −|x|).
//   * fdim(x, y) = fmax(x − y, 0): the rounded difference where x > y, +0
//     elsewhere, NaN where an operand is NaN (C99 7.12.12.1). Continuous, so
//     no branch: fmax is exact on the symbolic level (dropin.hpp), and
//     fmax(fl(x − y), 0) equals fdim's computed result for every operand
//     pair (fl(x − y) <= 0 exactly where x <= y, by monotone rounding; equal
//     infinities give +0 both ways); x − y carries the subtraction's
//     rounding as introduced error.
//   * isnormal(x) = isfinite(x) && |x| >= the format's smallest normal: in
//     the ideal program the real value is classified by the same threshold
//     (a value with neither machine format nor subnormals, a real-format
//     constant, is normal when nonzero).
//   * fpclassify(x): FP_NAN, FP_INFINITE, FP_ZERO, FP_SUBNORMAL or FP_NORMAL,
//     by isnan, isinf, x == 0 and isnormal in that order; each undecided test
//     is a branch (an int result cannot be a range).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <symerr/symbolic.hpp>

namespace symerr {

namespace detail {
// Tightens x to the outcome of signbit(x): the ideal one as real < 0 /
// real >= 0, the computed one as fp <= 0 / fp >= 0 (closed at 0: −0 has the
// sign bit, +0 not).
template <RealDomain D>
bool refine_signbit(void* target, const ComparisonInfo& info, bool, bool ideal_outcome, bool computed_outcome,
                    bool refine_ideal, bool refine_computed) {
  if (info.relation == Relation::Other) return true;
  ComparisonInfo i = info;
  i.negated = false;  // `!signbit(x)` reports the negation's outcome
  const bool ideal_set = ideal_outcome != info.negated, computed_set = computed_outcome != info.negated;
  i.relation = Relation::Lt;
  const bool ideal_ok =
      !refine_ideal || refine_operand<D>(target, i, true, ideal_set, computed_set, true, false);
  i.relation = computed_set ? Relation::Le : Relation::Lt;  // Lt's negation: fp >= 0
  const bool computed_ok =
      !refine_computed || refine_operand<D>(target, i, true, ideal_set, computed_set, false, true);
  return ideal_ok && computed_ok;
}

template <RealDomain D>
Truth signbit_of(const SymbolicDomainError<D>& x) {
  [[maybe_unused]] const FpGuardFor<D> guard;
  constexpr const char* what = "signbit(x)";
  if (const int s = exact_infinity(x); s != 0) return {s < 0 ? Tri::True : Tri::False, what};
  const SpecialStates& s = x.specials;
  const bool special = s.may_be_undefined || !s.may_be_defined || s.may_be_nan || !s.may_be_finite ||
                       s.may_be_pos_inf || s.may_be_neg_inf;
  const SymbolicDomainError<D> zero = SymbolicDomainError<D>::constant(0.0);
  Tri computed = special ? Tri::Unknown : cmp_lt(x.fp, zero.fp);
  // −0 has the sign bit: a computed zero range may hold it (only it, when +0 is excluded)
  const bool neg_zero = !special && s.may_be_neg_zero && x.fp.lower() <= 0 && x.fp.upper() >= 0;
  if (computed == Tri::False && neg_zero)
    computed = x.fp.upper() == 0 && !s.may_be_pos_zero ? Tri::True : Tri::Unknown;
  const Tri ideal = special ? Tri::Unknown : cmp_lt(x.real, zero.real);
  const Tri actual = special || computed != ideal ? Tri::Unknown : cmp_lt(actual_real(x), zero.real);
  const Tri t = computed == ideal && actual == ideal ? computed : Tri::Unknown;
  if (t != Tri::Unknown) return {t, what};
  ComparisonInfo info = comparison_info(x, zero, ideal, computed, special ? Relation::Other : Relation::Lt);
  info.rhs = nullptr;  // the local zero
  info.refine = &refine_signbit<D>;
  // A driver pairs ideal "real >= 0" with computed "sign bit set" only where
  // fp − real can be negative; −0 against a real 0 is that case at err = 0.
  if (neg_zero) info.err[0][0] = std::min(info.err[0][0], -std::numeric_limits<double>::denorm_min());
  return {Tri::Unknown, what, info};
}
}  // namespace detail

///@{
/// C signbit: the computed program reads the computed value's sign bit, the ideal one
/// asks real < 0; decided where every execution agrees, else a branch
/// (UndecidedBranch outside the driver, which forks and tightens a non-const lvalue).
template <RealDomain D>
Truth signbit(const SymbolicDomainError<D>& x) {
  return detail::signbit_of(x);
}
template <RealDomain D>
Truth signbit(SymbolicDomainError<D>& x) {  // a non-const lvalue: modifiable by a driver
  return detail::signbit_of(std::as_const(x)).with_targets(&x, nullptr);
}
///@}

///@{
/// C copysign(x, y) = signbit(y) ? −|x| : |x|: a branch on y's sign (a plain number's sign bit decides).
template <RealDomain D>
SymbolicDomainError<D> copysign(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  if (detail::signbit_of(y)) return -abs(x);
  return abs(x);
}
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> copysign(const SymbolicDomainError<D>& x, A y) {
  return std::signbit(static_cast<double>(y)) ? -abs(x) : abs(x);
}
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> copysign(A x, const SymbolicDomainError<D>& y) {
  return copysign(detail::literal_for(x, y), y);
}
///@}

///@{
/// C fdim(x, y) = fmax(x − y, 0), without a branch.
template <RealDomain D>
SymbolicDomainError<D> fdim(const SymbolicDomainError<D>& x, const SymbolicDomainError<D>& y) {
  return fmax(x - y, 0);
}
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> fdim(const SymbolicDomainError<D>& x, A y) {
  return fdim(x, detail::literal_for(y, x));
}
template <RealDomain D, DropInNumber A>
SymbolicDomainError<D> fdim(A x, const SymbolicDomainError<D>& y) {
  return fdim(detail::literal_for(x, y), y);
}
///@}

namespace detail {
// The smallest normal magnitude of x's format (0: every nonzero value is normal).
template <RealDomain D>
double smallest_normal(const SymbolicDomainError<D>& x) {
  if (const auto* F = std::get_if<FloatFormat>(&x.format)) return F->min_normal();
  return 0;
}
}  // namespace detail

/// C isnormal: finite and at least the format's smallest normal magnitude (nonzero for
/// integer and real formats); a Truth, undecided where executions disagree.
template <RealDomain D>
Truth isnormal(const SymbolicDomainError<D>& x) {
  const Truth finite = isfinite(x);
  if (finite.tri() == Tri::False) return finite;
  const double m = detail::smallest_normal(x);
  const SymbolicDomainError<D> a = abs(x);
  return finite && (m > 0 ? a >= m : a > 0);
}

/// C fpclassify (FP_NAN, FP_INFINITE, FP_ZERO, FP_SUBNORMAL, FP_NORMAL), by
/// comparisons that may branch (UndecidedBranch outside the driver).
template <RealDomain D>
int fpclassify(const SymbolicDomainError<D>& x) {
  if (isnan(x)) return FP_NAN;
  if (isinf(x)) return FP_INFINITE;
  if (x == 0) return FP_ZERO;
  const double m = detail::smallest_normal(x);
  return m > 0 && abs(x) < m ? FP_SUBNORMAL : FP_NORMAL;
}

}  // namespace symerr
