// Private to domains/src (not installed): the directed-rounding pieces shared
// by interval.cpp (one mode switch per Interval operation) and
// interval_batch.cpp (one upward scope per SymbolicDomainError operation).
// Both translation units are compiled with -frounding-math.
//
// Everything but IntervalAccess is in an unnamed namespace: each including
// translation unit gets its own copy, so the Boost templates instantiated with
// these policies have internal linkage and cannot be replaced, at link time, by
// an instantiation compiled without -frounding-math (see interval.cpp).
#pragma once

#include <cmath>

#include <boost/numeric/interval/hw_rounding.hpp>

#include <symerr/domains/interval.hpp>

namespace symerr {
namespace detail {
// The one way past Interval::between's checks, for results that already meet
// the invariant (no NaN, lower <= upper).
struct IntervalAccess {
  static Interval make(double lo, double hi) noexcept { return Interval(lo, hi); }
};
}  // namespace detail

namespace {

// Value barrier: the optimiser must treat v as produced here, so an operation
// on v cannot be evaluated before a preceding rounding-mode change (GCC
// bug 34678: -frounding-math does not order FP operations and fesetround).
inline double opaque(double v) noexcept {
#if defined(__x86_64__)
  __asm__ __volatile__("" : "+x"(v));
#else
  __asm__ __volatile__("" : "+m"(v));
#endif
  return v;
}

// Boost's rounded_arith_opp scheme while the mode is FE_UPWARD: a rounding up
// is the operation itself, a rounding down is -((-x) op y) rounded up.
// Operands pass a value barrier (read after the mode change); results pass
// Control::force_rounding (computed before the mode is restored). sqrt has
// no such identity and switches to FE_DOWNWARD and back.
template <class Control>
struct UpwardOppArith : Control {
  double add_down(double x, double y) { return -Control::force_rounding(-opaque(x) - opaque(y)); }
  double add_up(double x, double y) { return Control::force_rounding(opaque(x) + opaque(y)); }
  double sub_down(double x, double y) { return -Control::force_rounding(opaque(y) - opaque(x)); }
  double sub_up(double x, double y) { return Control::force_rounding(opaque(x) - opaque(y)); }
  double mul_down(double x, double y) { return -Control::force_rounding(opaque(x) * -opaque(y)); }
  double mul_up(double x, double y) { return Control::force_rounding(opaque(x) * opaque(y)); }
  double div_down(double x, double y) { return -Control::force_rounding(opaque(x) / -opaque(y)); }
  double div_up(double x, double y) { return Control::force_rounding(opaque(x) / opaque(y)); }
  double sqrt_down(double x) {
    this->downward();
    const double r = Control::force_rounding(std::sqrt(opaque(x)));
    this->upward();
    return r;
  }
  double sqrt_up(double x) { return Control::force_rounding(std::sqrt(opaque(x))); }
};

}  // namespace
}  // namespace symerr
