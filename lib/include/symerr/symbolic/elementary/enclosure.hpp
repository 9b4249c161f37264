// Directed evaluations of the elementary functions at double arguments
// (MPFR, correctly rounded toward −inf or +inf, then to a double in the same
// direction). The enclosures of images over intervals built from them are in
// <symerr/symbolic/elementary/common.hpp>.
//
// Preconditions: arguments are not NaN and lie in the closed domain of the
// function (log: x >= 0, log1p: x >= −1, pow: x >= 0); ±inf arguments are
// limits. The caller's MPFR exponent range, MPFR flags and the hardware
// rounding mode are left as they were.
#pragma once


namespace symerr::elementary {

enum class Dir { Down, Up };

double exp_d(double x, Dir d);
double expm1_d(double x, Dir d);
double log_d(double x, Dir d);
double log1p_d(double x, Dir d);
double tanh_d(double x, Dir d);
double sinh_d(double x, Dir d);
double cosh_d(double x, Dir d);
double erf_d(double x, Dir d);
double sigmoid_d(double x, Dir d);    // 1 / (1 + exp(−x))
double pow_d(double x, double c, Dir d);  // x^c for x >= 0 (0^c = +inf for c < 0)
double erf_slope_d(double m, Dir d);  // erf'(m) = 2/√π · exp(−m²), m >= 0

}  // namespace symerr::elementary
