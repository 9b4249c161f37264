// MPFR helpers shared by the domains (the MPFR state guard is in
// <symerr/mpfr_state.hpp>): directed
// conversions of rationals to double, and outward decimal printing.
// None of them touches the hardware rounding mode: MPFR rounds in software,
// in the direction named by its argument.
#pragma once

#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/config.hpp>
#include <symerr/mpfr_state.hpp>  // MpfrStateGuard

namespace symerr::detail {

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
