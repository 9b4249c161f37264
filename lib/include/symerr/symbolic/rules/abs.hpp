// Abs: z = |x|, exact on the computed side.
//
// Error identity (exact): err_z = |fp_x| − |real_x|, enclosed by the reverse
// triangle inequality ||f| − |r|| <= |f − r| = |e_x| and exactly ±e_x where
// the signs are known; the split likewise (propagated |pr| − |r|,
// introduced |f| − |pr|).
// Special values: ±inf → +inf, ±0 → +0, NaN → NaN.
#pragma once

#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic.hpp>  // SymbolicDomainError and the driver's helpers (actual_real, FpGuardFor)

namespace symerr {

namespace detail {
// An enclosure of |a| − |b| given one of a − b (the reverse triangle
// inequality ||a| − |b|| <= |a − b|, and the exact cases of known signs).
template <RealDomain D>
D abs_difference(const D& a, const D& b, const D& a_minus_b) {
  if (certainly(cmp_ge(a, D::point(0))) && certainly(cmp_ge(b, D::point(0)))) return a_minus_b;
  if (certainly(cmp_le(a, D::point(0))) && certainly(cmp_le(b, D::point(0)))) return -a_minus_b;
  return meet(abs(a) - abs(b), symmetric<D>(mag(a_minus_b)));
}
}  // namespace detail

/// |x| is exact on the computed side; its error is |f| − |r|, and
/// ||f| − |r|| <= |f − r| (reverse triangle inequality); likewise the split:
/// propagated |pr| − |r|, introduced |f| − |pr|.
template <RealDomain D>
SymbolicDomainError<D> abs(const SymbolicDomainError<D>& x) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeAbs, x);  // another quantity (SymbolicDomainError::source)
  z.real = abs(x.real);
  z.fp = abs(x.fp);
  const D pr = detail::actual_real(x);
  z.err = detail::abs_difference(x.fp, x.real, x.err);
  z.propagated = detail::abs_difference(pr, x.real, x.propagated);
  z.introduced = detail::abs_difference(x.fp, pr, x.introduced);
  z.specials.may_be_pos_inf = x.specials.may_be_pos_inf || x.specials.may_be_neg_inf;
  z.specials.may_be_neg_inf = false;
  z.specials.may_be_pos_zero = x.specials.may_be_pos_zero || x.specials.may_be_neg_zero || !x.is_float();
  z.specials.may_be_neg_zero = false;
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {  // |INT_MIN| wraps
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = z.introduced + w.introduced;
    z.err = z.err + w.introduced;
    z.specials.may_be_pos_zero = contains(z.fp, 0.0);
  }
  z.err = detail::meet(z.err, z.propagated + z.introduced);
  // |f|/|r| − 1 = |1 + rel| − 1 = rel where f and r have one sign (rel > −1);
  // integers may wrap
  const bool rel_kept = !x.is_integer() && is_bounded(x.rel_err) && x.rel_err.lower() > -1;
  if (!rel_kept) z.rel_err = D::whole();
  z.reduce();
  return z;
}

}  // namespace symerr
