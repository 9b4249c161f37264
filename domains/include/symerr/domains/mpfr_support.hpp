// MPFR helpers shared by the domains: the MPFR state guard, directed
// conversions of rationals to double, and outward decimal printing.
// None of them touches the hardware rounding mode: MPFR rounds in software,
// in the direction named by its argument.
#pragma once

#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/config.hpp>

namespace symerr::detail {

// MPFR's exponent range and sticky flags are per-thread global state that
// callers change (format emulation sets emin/emax). Inputs outside the current
// exponent range are undefined behaviour in MPFR, so every domain operation
// runs in the widest range, and leaves the caller's range and flags as they were.
// Results may lie outside a narrowed caller range.
class MpfrStateGuard {
 public:
  MpfrStateGuard() noexcept
      : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()), flags_(mpfr_flags_save()) {
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

// The largest double <= q / the smallest double >= q (±inf / ±DBL_MAX on
// overflow, subnormals and signed zero as IEEE 754 roundTowardNegative/Positive).
double to_double_down(const mpq_class& q);
double to_double_up(const mpq_class& q);

// x (not NaN) in decimal with 17 significant digits, rounded toward -inf / +inf,
// so that the printed number is a bound in the same direction: "-inf", "inf",
// "0", "0.33333333333333331", "1.0000000000000001e-300".
std::string format_down(mpfr_srcptr x);
std::string format_up(mpfr_srcptr x);

// "[lo, hi]" with format_down(lo) and format_up(hi).
std::string format_interval(mpfr_srcptr lo, mpfr_srcptr hi);
std::string format_interval(double lo, double hi);

}  // namespace symerr::detail
