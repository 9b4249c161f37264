// The relative error y/f − 1 of a computed value y against every f in an
// MPFR enclosure [lo, hi] of one strict sign: shared by the unary oracles
// (elementary_oracle.hpp, unary_mpfr_support.hpp).
#pragma once

#include <algorithm>

#include <mpfr.h>

#include <symerr/symbolic/mixed_error.hpp>

namespace symerr::test {

// [qlo, qhi] ⊇ {y/f − 1 : f ∈ [lo, hi]} (y/f is monotone in f of one sign);
// qlo and qhi at least 512 bits.
inline void relative_error_range(double y, mpfr_srcptr lo, mpfr_srcptr hi, mpfr_ptr qlo, mpfr_ptr qhi) {
  mpfr_t q1, q2;
  mpfr_inits2(std::max<mpfr_prec_t>(512, mpfr_get_prec(qlo)), q1, q2, static_cast<mpfr_ptr>(nullptr));
  mpfr_d_div(q1, y, lo, MPFR_RNDD);
  mpfr_d_div(q2, y, hi, MPFR_RNDD);
  mpfr_min(qlo, q1, q2, MPFR_RNDD);
  mpfr_d_div(q1, y, lo, MPFR_RNDU);
  mpfr_d_div(q2, y, hi, MPFR_RNDU);
  mpfr_max(qhi, q1, q2, MPFR_RNDU);
  mpfr_sub_ui(qlo, qlo, 1, MPFR_RNDD);
  mpfr_sub_ui(qhi, qhi, 1, MPFR_RNDU);
  mpfr_clears(q1, q2, static_cast<mpfr_ptr>(nullptr));
}

// |y − f| ≤ m.rel·|f| + m.abs for every f in [lo, hi] (true when m is
// unknown): |y − f| − m.rel·|f| is piecewise linear in f, with kinks at y
// (a minimum) and 0, so its maximum is at lo, at hi or at 0.
inline bool mixed_holds(const MixedError& m, double y, mpfr_srcptr lo, mpfr_srcptr hi) {
  if (!m.known()) return true;
  mpfr_t d, f, zero;
  mpfr_inits2(std::max<mpfr_prec_t>(1024, mpfr_get_prec(lo) + 128), d, f, zero, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_zero(zero, 1);
  auto holds_at = [&](mpfr_srcptr v) {  // |y − v| <= rel·|v| + abs, exactly (1024 bits hold every term)
    mpfr_d_sub(d, y, v, MPFR_RNDU);
    mpfr_abs(d, d, MPFR_RNDU);
    mpfr_abs(f, v, MPFR_RNDD);
    mpfr_mul_d(f, f, static_cast<double>(m.rel), MPFR_RNDD);
    mpfr_add_d(f, f, static_cast<double>(m.abs), MPFR_RNDD);
    return mpfr_cmp(d, f) <= 0;
  };
  bool ok = holds_at(lo) && holds_at(hi);
  if (ok && mpfr_sgn(lo) <= 0 && mpfr_sgn(hi) >= 0) ok = holds_at(zero);
  mpfr_clears(d, f, zero, static_cast<mpfr_ptr>(nullptr));
  return ok;
}

}  // namespace symerr::test
