// The oracle of the unary concrete checks (unary.hpp): IEEE special values,
// MPFR with Ziv's strategy; the rigorous fast path for FP32 is
// unary_fast_oracle.cpp.
#include <symerr/verify/concrete/unary.hpp>
#include <symerr/verify/oracle/unary_fast_oracle.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#include <mpfr.h>

#include <symerr/mpfr_state.hpp>
#include <symerr/operators.hpp>

namespace symerr::verify {
namespace {

using Mp = detail::MpfrNumber;

// op(x) rounded in direction d: the operator table's exact evaluation.
void eval(OpId op, mpfr_ptr out, mpfr_srcptr x, mpfr_rnd_t d) {
  const mpfr_srcptr args[] = {x};
  evaluate_mpfr(op, out, args, d);
}

// round(v) into F (RNE), guarding MPFR values far outside F's range.
double round_into(mpfr_srcptr v, const FloatFormat& F) {
  if (mpfr_nan_p(v)) return NAN;
  if (mpfr_inf_p(v)) return mpfr_sgn(v) > 0 ? INFINITY : -INFINITY;
  if (mpfr_zero_p(v)) return mpfr_signbit(v) ? -0.0 : 0.0;
  const mpfr_exp_t e = mpfr_get_exp(v);
  if (e > F.emax + 2) return mpfr_sgn(v) > 0 ? INFINITY : -INFINITY;
  if (e < F.emin - F.precision - 2) return mpfr_sgn(v) > 0 ? 0.0 : -0.0;
  return round_to(v, F, RoundingMode::NearestEven).value;
}

// |y − v| / ulp(v) in F, v at high precision, y finite.
double ulp_distance(double y, mpfr_srcptr v, const FloatFormat& F) {
  if (mpfr_inf_p(v)) return INFINITY;
  Mp d(mpfr_get_prec(v) + 64);
  mpfr_d_sub(d.v, y, v, MPFR_RNDN);
  mpfr_abs(d.v, d.v, MPFR_RNDN);
  const double near = std::min(std::fabs(mpfr_get_d(v, MPFR_RNDZ)), F.max_finite());
  return mpfr_get_d(d.v, MPFR_RNDN) / ulp(near, F);
}

UnaryTruth mpfr_truth(OpId op, double x, double y, const FloatFormat& F) {
  UnaryTruth t;
  t.used_mpfr = true;
  for (mpfr_prec_t p = 2 * F.precision + 32;; p *= 2) {
    Mp a(64), lo(p), hi(p);
    mpfr_set_d(a.v, x, MPFR_RNDN);
    eval(op, lo.v, a.v, MPFR_RNDD);
    eval(op, hi.v, a.v, MPFR_RNDU);
    const double rl = round_into(lo.v, F), rh = round_into(hi.v, F);
    if ((rl == rh && std::signbit(rl) == std::signbit(rh)) || p > 8192) {
      t.rounded = rl;
      if (std::isinf(y)) t.ulp_error = std::isinf(rl) && y == rl ? 0 : INFINITY;
      else if (std::isnan(y)) t.ulp_error = INFINITY;
      else t.ulp_error = ulp_distance(y, hi.v, F);
      return t;
    }
  }
}

// The special result of an operator without a rule above, as MPFR defines it
// (IEEE 754 / C Annex F conventions): at ±inf every result but an irrational
// limit, at ±0 a zero,
// infinite or NaN result (the sign of a zero kept), and a NaN (outside the
// domain) or infinite (pole) result anywhere.
std::optional<double> mpfr_special(OpId op, double x) {
  Mp a(64), r(64);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  const mpfr_srcptr args[] = {a.v};
  const int inexact = evaluate_mpfr(op, r.v, args, MPFR_RNDN);
  const double v = mpfr_get_d(r.v, MPFR_RNDN);
  // a finite limit at ±inf that no number equals (atan(±inf) = ±π/2) is an
  // ordinary result: judged by its ulp distance, as any other
  if (std::isinf(x) && mpfr_regular_p(r.v) && inexact != 0) return std::nullopt;
  if (std::isinf(x) || std::isnan(v) || mpfr_inf_p(r.v)) return v;
  if (x == 0 && mpfr_zero_p(r.v)) return v;
  return std::nullopt;
}

}  // namespace

std::optional<double> unary_special(OpId op, double x) {
  if (std::isnan(x)) return NAN;
  const bool neg = std::signbit(x);
  switch (op) {
    case OpId::Abs: return std::fabs(x);
    case OpId::Neg: return -x;
    case OpId::Exp:
      if (std::isinf(x)) return neg ? 0.0 : INFINITY;
      return std::nullopt;
    case OpId::Log:
      if (x == 0) return -INFINITY;
      if (x < 0) return NAN;
      if (std::isinf(x)) return INFINITY;
      return std::nullopt;
    case OpId::Tanh:
    case OpId::Erf:
      if (std::isinf(x)) return neg ? -1.0 : 1.0;
      if (x == 0) return x;
      return std::nullopt;
    case OpId::Sigmoid:
      if (std::isinf(x)) return neg ? 0.0 : 1.0;
      return std::nullopt;
    case OpId::Sqrt:
      if (x == 0) return x;
      if (x < 0) return NAN;
      if (std::isinf(x)) return INFINITY;
      return std::nullopt;
    default: return mpfr_special(op, x);
  }
}

bool unary_within_unit_roundoff(OpId op, double x, double y, const FloatFormat& F) {
  for (mpfr_prec_t p = 128; p <= 4096; p *= 4) {
    Mp a(64), lo(p), hi(p), dmax(p + 64), dmin(p + 64), b(p + 64), t(p + 64);
    mpfr_set_d(a.v, x, MPFR_RNDN);
    eval(op, lo.v, a.v, MPFR_RNDD);
    eval(op, hi.v, a.v, MPFR_RNDU);
    // |y − f| over f ∈ [lo, hi]: at most dmax, at least dmin
    mpfr_d_sub(dmax.v, y, lo.v, MPFR_RNDU);
    mpfr_abs(dmax.v, dmax.v, MPFR_RNDU);
    mpfr_d_sub(t.v, y, hi.v, MPFR_RNDU);
    mpfr_abs(t.v, t.v, MPFR_RNDU);
    mpfr_max(dmax.v, dmax.v, t.v, MPFR_RNDU);
    if (mpfr_cmp_d(lo.v, y) <= 0 && mpfr_cmp_d(hi.v, y) >= 0) mpfr_set_ui(dmin.v, 0, MPFR_RNDN);
    else {
      mpfr_d_sub(dmin.v, y, lo.v, MPFR_RNDD);
      mpfr_abs(dmin.v, dmin.v, MPFR_RNDD);
      mpfr_d_sub(t.v, y, hi.v, MPFR_RNDD);
      mpfr_abs(t.v, t.v, MPFR_RNDD);
      mpfr_min(dmin.v, dmin.v, t.v, MPFR_RNDD);
    }
    // the bound over f ∈ [lo, hi]: at least min(|lo|, |hi|) (0 if the set holds 0), at most max
    const bool straddles = mpfr_sgn(lo.v) <= 0 && mpfr_sgn(hi.v) >= 0;
    mpfr_abs(b.v, lo.v, MPFR_RNDD);
    mpfr_abs(t.v, hi.v, MPFR_RNDD);
    mpfr_min(b.v, b.v, t.v, MPFR_RNDD);
    if (straddles) mpfr_set_ui(b.v, 0, MPFR_RNDN);
    if (mpfr_cmp_d(b.v, F.min_normal()) < 0) mpfr_set_d(b.v, F.min_normal(), MPFR_RNDN);
    mpfr_mul_2si(b.v, b.v, -F.precision, MPFR_RNDD);
    if (mpfr_cmp(dmax.v, b.v) <= 0) return true;
    mpfr_abs(b.v, lo.v, MPFR_RNDU);
    mpfr_abs(t.v, hi.v, MPFR_RNDU);
    mpfr_max(b.v, b.v, t.v, MPFR_RNDU);
    if (mpfr_cmp_d(b.v, F.min_normal()) < 0) mpfr_set_d(b.v, F.min_normal(), MPFR_RNDN);
    mpfr_mul_2si(b.v, b.v, -F.precision, MPFR_RNDU);
    if (mpfr_cmp(dmin.v, b.v) > 0) return false;
  }
  return true;  // |y − f| = the bound to 4096 bits: the bound is inclusive
}

UnaryTruth unary_truth(OpId op, double x, double y, const FloatFormat& F, bool fast, double decide_near) {
  if (fast && F == FP32)
    if (std::optional<UnaryTruth> t = unary_fast_truth(op, static_cast<float>(x), y, decide_near)) return *t;
  return mpfr_truth(op, x, y, F);
}

}  // namespace symerr::verify
