// The rigorous fast oracle of the exhaustive FP32 unary checks (unary.hpp).
//
// For an FP32 argument x, f(x) (Exp, Log, Tanh, Sigmoid, Erf, Sqrt, Abs, Neg)
// is evaluated in binary64 ball arithmetic: every intermediate value is a
// midpoint m and a radius r with |exact − m| <= r, the radius computed
// alongside from the standard model |fl(a op b) − (a op b)| <= 2^−53·|fl(a op b)|
// (plus 2^−1022 where a product may be subnormal), the truncation of every
// series bounded by an explicit remainder, every constant (ln 2 in two parts,
// 2^(j/256), 2/√π, the series coefficients) taken from MPFR at 256 bits with its
// representation error. The result is an enclosure [lo, hi] ∋ f(x) proven by
// construction (each evaluator's derivation opens it in unary_fast_oracle.cpp).
//
// Ziv's strategy: the FP32 rounding of f(x) is decided from the enclosure only
// when lo and hi round (RNE) to the same FP32 value — rounding is monotonic, so
// f(x) rounds to it too; the ulp error of a kernel's result only when the
// enclosure's width cannot move it across the bound being checked. Otherwise
// unary_truth falls back to MPFR (directed evaluations at growing precision).
#pragma once

#include <optional>

#include <symerr/verify/concrete/unary.hpp>

namespace symerr::verify {

/// lo <= f(x) <= hi (hi may be +inf: exp beyond FP32's overflow threshold) and
/// |f(x) − mid| <= rad exactly (rad: the proven radius, +inf with hi); lo and hi
/// are mid ∓ rad rounded one binary64 step outwards.
struct UnaryEnclosure {
  ///@{
  /// The bounds lo <= f(x) <= hi.
  double lo = 0, hi = 0;
  ///@}
  ///@{
  /// The ball: |f(x) − mid| <= rad.
  double mid = 0, rad = 0;
  ///@}
};

/// The enclosure of op(x) for an FP32 value x that is not special
/// (unary_special(op, x) is nullopt); nullopt if no evaluator applies.
/// radius_scale multiplies the proven radius: 1 in every real use; tests pass
/// 2^−10 to check that a shrunk bound is caught (the planted-bug twin).
std::optional<UnaryEnclosure> unary_fast_enclosure(OpId op, float x, double radius_scale = 1.0);

/// The FP32 rounding of op(x) and the ulp error of y, decided from the
/// enclosure; nullopt when the enclosure does not decide them (MPFR must).
/// decide_near: the ulp bound being checked (an ulp error this close to it,
/// within the enclosure's width, is left to MPFR).
std::optional<UnaryTruth> unary_fast_truth(OpId op, float x, double y, double decide_near);

}  // namespace symerr::verify
