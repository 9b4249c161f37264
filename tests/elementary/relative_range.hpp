// The relative error y/f − 1 of a computed value y against every f in an
// MPFR enclosure [lo, hi] of one strict sign: shared by the unary oracles
// (elementary_oracle.hpp, unary_mpfr_support.hpp).
#pragma once

#include <mpfr.h>

namespace symerr::test {

// [qlo, qhi] ⊇ {y/f − 1 : f ∈ [lo, hi]} (y/f is monotone in f of one sign);
// qlo and qhi at least 512 bits.
inline void relative_error_range(double y, mpfr_srcptr lo, mpfr_srcptr hi, mpfr_ptr qlo, mpfr_ptr qhi) {
  mpfr_t q1, q2;
  mpfr_inits2(512, q1, q2, static_cast<mpfr_ptr>(nullptr));
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

}  // namespace symerr::test
