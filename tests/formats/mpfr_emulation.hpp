// The test oracle: MPFR emulating a binary format with its precision, exponent
// range and subnormals (mpfr_set_emin/emax + mpfr_subnormalize), the method
// MPFR's documentation gives for IEEE formats.
#pragma once

#include <mpfr.h>

#include <symerr/format.hpp>

namespace symerr::test {

inline mpfr_rnd_t to_mpfr(RoundingMode m) {
  switch (m) {
    case RoundingMode::NearestEven: return MPFR_RNDN;
    case RoundingMode::TowardZero: return MPFR_RNDZ;
    case RoundingMode::Upward: return MPFR_RNDU;
    case RoundingMode::Downward: return MPFR_RNDD;
  }
  return MPFR_RNDN;
}

// RAII: the exponent range of F for the lifetime of the object.
class EmulatedRange {
 public:
  explicit EmulatedRange(const FloatFormat& F)
      : old_emin_(mpfr_get_emin()), old_emax_(mpfr_get_emax()) {
    // MPFR significands are in [1/2, 1): x = 0.1b... * 2^E, so IEEE exponent e = E - 1.
    mpfr_set_emin(F.emin - F.precision + 2);
    mpfr_set_emax(F.emax + 1);
  }
  ~EmulatedRange() {
    mpfr_set_emin(old_emin_);
    mpfr_set_emax(old_emax_);
  }
  EmulatedRange(const EmulatedRange&) = delete;
  EmulatedRange& operator=(const EmulatedRange&) = delete;

 private:
  mpfr_exp_t old_emin_, old_emax_;
};

struct MpfrRounded {
  double value;
  int ternary;  // sign only
};

// Round the rational q into F with MPFR's emulation (F must have subnormals).
inline MpfrRounded emulated_round(const mpq_class& q, const FloatFormat& F, RoundingMode mode) {
  EmulatedRange range(F);
  mpfr_t y;
  mpfr_init2(y, F.precision);
  const mpfr_rnd_t rnd = to_mpfr(mode);
  int t = mpfr_set_q(y, q.get_mpq_t(), rnd);
  t = mpfr_check_range(y, t, rnd);
  t = mpfr_subnormalize(y, t, rnd);
  const double v = mpfr_get_d(y, MPFR_RNDN);  // exact: y is a value of F ⊂ double
  mpfr_clear(y);
  return {v, (t > 0) - (t < 0)};
}

}  // namespace symerr::test
