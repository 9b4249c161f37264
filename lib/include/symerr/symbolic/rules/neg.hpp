// Neg: z = −x, exact in every format (integers: −INT_MIN wraps).
//
// Error identity (exact): err_z = −e_x; propagated_z = −p_x, introduced_z = −i_x
// (+ the wrap −k·2^n for an integer format).
// Special values: every category mirrored (±inf ↔ ∓inf, ±0 ↔ ∓0, NaN stays).
#pragma once

#include <symerr/symbolic/quantity_recipe.hpp>
#include <symerr/symbolic.hpp>  // SymbolicDomainError and the driver's helpers (actual_real, FpGuardFor)

namespace symerr {

/// −x is exact: every field and category is mirrored (integers: −INT_MIN
/// wraps, and the wrap makes the operand's rel_err stale: recomputed).
template <RealDomain D>
SymbolicDomainError<D> operator-(const SymbolicDomainError<D>& x) {
  [[maybe_unused]] const detail::FpGuardFor<D> guard;
  SymbolicDomainError<D> z = x;
  z.source = symerr::detail::number_result(z, symerr::detail::kRecipeNeg, x);  // another quantity (SymbolicDomainError::source)
  z.real = -x.real;
  z.fp = -x.fp;
  z.err = -x.err;
  z.propagated = -x.propagated;
  z.introduced = -x.introduced;
  std::swap(z.specials.may_be_pos_inf, z.specials.may_be_neg_inf);
  if (x.is_float()) std::swap(z.specials.may_be_pos_zero, z.specials.may_be_neg_zero);
  if (const IntFormat* I = std::get_if<IntFormat>(&x.format)) {
    const auto w = detail::wrap_integers(z.fp, *I);
    z.fp = w.fp;
    z.introduced = z.introduced + w.introduced;
    z.err = z.err + w.introduced;
    z.rel_err = D::whole();
    z.specials.may_be_pos_zero = contains(z.fp, 0.0);
    z.specials.may_be_neg_zero = false;
  }
  z.reduce();
  return z;
}

}  // namespace symerr
