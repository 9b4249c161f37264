// One execution of a substituted kernel against its symbolic result: the
// computed value f (the kernel compiled as C) in the fp enclosure, the real
// value (a symref::Enclosure, 256-bit MPFR) inside the real enclosure, and
// f − r inside the err enclosure. `observed` keeps the largest |f − r| seen
// (from the reference's nearer endpoint: 0 when the reference straddles f).
#pragma once

#include <algorithm>
#include <cmath>

#include <mpfr.h>

#include <symerr/domains/symbolic_interval.hpp>

#include "substitute/enclosure_prelude.hpp"

namespace symref {

class ExecutionCheck {
 public:
  ExecutionCheck() { mpfr_init2(t_, kBits + 64); }
  ~ExecutionCheck() { mpfr_clear(t_); }
  ExecutionCheck(const ExecutionCheck&) = delete;
  ExecutionCheck& operator=(const ExecutionCheck&) = delete;

  bool operator()(const symerr::SymbolicError& s, double f, const Enclosure& r, double& observed) {
    bool ok = std::isfinite(f) && s.fp.lower() <= f && f <= s.fp.upper();
    ok = ok && mpfr_cmp_d(r.lower(), s.real.lower()) >= 0 && mpfr_cmp_d(r.upper(), s.real.upper()) <= 0;
    mpfr_d_sub(t_, f, r.upper(), MPFR_RNDD);  // f − r >= this
    ok = ok && mpfr_cmp_d(t_, s.err.lower()) >= 0;
    const double lo = mpfr_get_d(t_, MPFR_RNDD);
    mpfr_d_sub(t_, f, r.lower(), MPFR_RNDU);  // f − r <= this
    ok = ok && mpfr_cmp_d(t_, s.err.upper()) <= 0;
    const double hi = mpfr_get_d(t_, MPFR_RNDU);
    if (lo > 0) observed = std::max(observed, lo);
    if (hi < 0) observed = std::max(observed, -hi);
    return ok;
  }

 private:
  mpfr_t t_;
};

}  // namespace symref
