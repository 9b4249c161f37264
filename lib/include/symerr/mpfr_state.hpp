// MPFR helpers shared by lib, the domains and verify's oracles: the guard of
// MPFR's per-thread state and an owning MPFR number. Neither touches the
// hardware rounding mode: MPFR rounds in software, in the direction named by
// its argument.
#pragma once

#include <mpfr.h>

namespace symerr::detail {

// MPFR's exponent range and sticky flags are per-thread global state that
// callers change (format emulation sets emin/emax). Inputs outside the current
// exponent range are undefined behaviour in MPFR, so every evaluation runs in
// the widest range, and leaves the caller's range and flags as they were.
// Results may lie outside a narrowed caller range.
class MpfrStateGuard {
 public:
  MpfrStateGuard() noexcept : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()), flags_(mpfr_flags_save()) {
    if (emin_ != mpfr_get_emin_min()) mpfr_set_emin(mpfr_get_emin_min());
    if (emax_ != mpfr_get_emax_max()) mpfr_set_emax(mpfr_get_emax_max());
  }
  ~MpfrStateGuard() {
    if (emin_ != mpfr_get_emin_min()) mpfr_set_emin(emin_);
    if (emax_ != mpfr_get_emax_max()) mpfr_set_emax(emax_);
    mpfr_flags_restore(flags_, MPFR_FLAGS_ALL);
  }
  MpfrStateGuard(const MpfrStateGuard&) = delete;
  MpfrStateGuard& operator=(const MpfrStateGuard&) = delete;

 private:
  mpfr_exp_t emin_;
  mpfr_exp_t emax_;
  mpfr_flags_t flags_;
};

// An MPFR number of a fixed precision, cleared on destruction.
struct MpfrNumber {
  mpfr_t v;
  explicit MpfrNumber(mpfr_prec_t precision) { mpfr_init2(v, precision); }
  // x exactly (precision >= 53).
  MpfrNumber(mpfr_prec_t precision, double x) {
    mpfr_init2(v, precision);
    mpfr_set_d(v, x, MPFR_RNDN);
  }
  ~MpfrNumber() { mpfr_clear(v); }
  MpfrNumber(const MpfrNumber&) = delete;
  MpfrNumber& operator=(const MpfrNumber&) = delete;
  mpfr_ptr get() noexcept { return v; }
  mpfr_srcptr get() const noexcept { return v; }
};

}  // namespace symerr::detail
