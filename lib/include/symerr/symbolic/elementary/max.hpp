// max(a, b) on SymbolicDomainError (ONNX Max of two values; needed by the
// running maximum of Softmax). No rounding: introduced error 0.
//
// Propagated error, exact bracket (e_a = f_a − r_a, e_b = f_b − r_b):
//   max(f_a, f_b) − max(r_a, r_b) ∈ [min(e_a, e_b), max(e_a, e_b)]
// (say r_a >= r_b: max f >= f_a gives >= e_a; max f − r_a is e_a or
// f_b − r_a <= f_b − r_b = e_b). With an infinite or NaN operand possible,
// only fp − real is used.
#pragma once

#include <symerr/symbolic/elementary/common.hpp>

namespace symerr {

template <RealDomain D>
SymbolicDomainError<D> max(const SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {
  if (a.format != b.format) throw std::invalid_argument("max: operands of different formats");
  const SpecialStates& sa = a.specials;
  const SpecialStates& sb = b.specials;
  SymbolicDomainError<D> z = a;
  SpecialStates& s = z.specials;
  s.may_be_nan = sa.may_be_nan || sb.may_be_nan;
  s.may_be_pos_inf = sa.may_be_pos_inf || sb.may_be_pos_inf;
  s.may_be_neg_inf = sa.may_be_neg_inf && sb.may_be_neg_inf;
  s.may_be_finite = (sa.may_be_finite && (sb.may_be_finite || sb.may_be_neg_inf)) ||
                    (sb.may_be_finite && sa.may_be_neg_inf);
  s.may_be_undefined = sa.may_be_undefined || sb.may_be_undefined;
  s.may_be_defined = sa.may_be_defined && sb.may_be_defined;
  s.may_be_pos_zero = sa.may_be_pos_zero || sb.may_be_pos_zero;
  s.may_be_neg_zero = sa.may_be_neg_zero || sb.may_be_neg_zero;
  s.may_overflow = false;
  auto upper_max = [](const D& x, const D& y) { return std::max(x.upper(), y.upper()); };
  z.real = D::between(std::max(a.real.lower(), b.real.lower()), upper_max(a.real, b.real));
  const double lo_a = sa.may_be_finite ? a.fp.lower() : INFINITY, lo_b = sb.may_be_finite ? b.fp.lower() : INFINITY;
  const double hi_a = sa.may_be_finite ? a.fp.upper() : -INFINITY, hi_b = sb.may_be_finite ? b.fp.upper() : -INFINITY;
  double lo = std::max(sa.may_be_neg_inf ? -INFINITY : lo_a, sb.may_be_neg_inf ? -INFINITY : lo_b);
  if (lo == -INFINITY) lo = std::min(lo_a, lo_b);
  const double hi = std::max(hi_a, hi_b);
  z.introduced = D::point(0);
  if (!s.may_be_finite || !(lo <= hi)) {
    z.fp = z.err = z.propagated = D::whole();
  } else {
    z.fp = D::between(lo, hi);
    const bool all_finite = !s.may_be_nan && !sa.may_be_pos_inf && !sa.may_be_neg_inf && !sb.may_be_pos_inf &&
                            !sb.may_be_neg_inf && sa.may_be_finite && sb.may_be_finite;
    z.err = all_finite ? hull(a.err, b.err) : z.fp - z.real;
    z.propagated = z.err;
  }
  z.rel_err = D::whole();
  z.reduce();
  return z;
}

}  // namespace symerr
