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

#include <symerr/format.hpp>
#include <symerr/operators.hpp>
#include <symerr/symbolic/accuracy.hpp>


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

// Any unary operator of the table (evaluate_mpfr at 64 bits, then a double
// in the same direction), and the same as a function of (x, d) for the image
// helpers of common.hpp: directed_d<OpId::Exp> is exp_d.
double directed(OpId op, double x, Dir d);
// … a binary operator of the table, its operands in the table's order
// (Hypot: x, y; Atan2: y, x).
double directed(OpId op, double x, double y, Dir d);

// [lo, hi] ⊇ {f(x) : x ∈ [a, b]} for f = Sin or Cos (a <= b, both finite):
// the directed values at the endpoints, and ±1 where the interval may hold a
// maximum or minimum (π(φ + 2k), decided in MPFR with π at enough bits for
// the arguments' magnitude; a doubt includes the extremum).
struct TrigRange {
  double lo, hi;
};
TrigRange trig_range(OpId f, double a, double b);
// … for tan: the directed endpoint values when [a, b] holds no pole π/2 + kπ
// (tan increases between poles), else [−inf, +inf] (a doubt counts as a pole).
TrigRange tan_range(double a, double b);
template <OpId op>
double directed_d(double x, Dir d) {
  return directed(op, x, d);
}

// The correctly rounded value of f(t) in F under `mode` (c: pow's exponent),
// by Ziv's strategy: evaluate f(t) rounded down and up at increasing
// precision until both round to the same value of F. Returns false if 4096
// bits do not decide (then the caller keeps its enclosure). t must be an
// ordinary argument (finite, inside f's domain, not a pole).
bool correctly_rounded_value(ElementaryFunction f, double t, double c, const FloatFormat& F, RoundingMode mode,
                             double& out);

}  // namespace symerr::elementary
