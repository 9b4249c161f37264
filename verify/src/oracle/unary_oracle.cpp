// The oracle of the unary concrete checks (unary.hpp): IEEE special values,
// MPFR with Ziv's strategy, and the binary64 fast path for FP32.
#include <symerr/verify/concrete/unary.hpp>

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

// op(x) in binary64 (glibc's double functions; error <= 2 ulps by its table).
double fast_value(OpId op, double x) {
  switch (op) {
    case OpId::Exp: return std::exp(x);
    case OpId::Log: return std::log(x);
    case OpId::Tanh: return std::tanh(x);
    case OpId::Erf: return std::erf(x);
    case OpId::Sqrt: return std::sqrt(x);
    case OpId::Abs: return std::fabs(x);
    case OpId::Neg: return -x;
    case OpId::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    default: return NAN;  // no binary64 function known: MPFR decides
  }
}

// The special result of an operator without a rule above, as MPFR defines it
// (IEEE 754 / C Annex F conventions): at ±inf every result, at ±0 a zero,
// infinite or NaN result (the sign of a zero kept), and a NaN (outside the
// domain) or infinite (pole) result anywhere.
std::optional<double> mpfr_special(OpId op, double x) {
  Mp a(64), r(64);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  eval(op, r.v, a.v, MPFR_RNDN);
  const double v = mpfr_get_d(r.v, MPFR_RNDN);
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

// 2^e for a normal binary64 exponent e.
inline double pow2(int e) {
  const std::uint64_t b = static_cast<std::uint64_t>(e + 1023) << 52;
  double r;
  std::memcpy(&r, &b, 8);
  return r;
}

// ilogb(|v|) for a finite nonzero normal double v (bit manipulation).
inline int exponent_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return static_cast<int>((b >> 52) & 0x7ff) - 1023;
}

UnaryTruth unary_truth(OpId op, double x, double y, const FloatFormat& F, bool fast, double decide_near) {
  if (!fast || !(F == FP32)) return mpfr_truth(op, x, y, F);
  const double v = fast_value(op, x);
  if (std::isnan(v)) return mpfr_truth(op, x, y, F);
  UnaryTruth t;
  if (std::isinf(v) || std::fabs(v) > 0x1p+200) {  // far beyond FP32's overflow threshold: ±inf
    t.rounded = std::copysign(INFINITY, v);
    if (y != t.rounded) return mpfr_truth(op, x, y, F);
    return t;
  }
  if (std::fabs(v) < 0x1p-1000) {  // |f(x)| < 2^−999: far below FP32's subnormals (exp, sigmoid: +0)
    if (!(op == OpId::Exp || op == OpId::Sigmoid) || !(y == 0 && !std::signbit(y)))
      return mpfr_truth(op, x, y, F);
    t.rounded = 0.0;
    return t;
  }
  // |v − f(x)| <= 2^−48 |v|: the interval below is wider by 2^−48 |v|, which covers the
  // (round-to-nearest) rounding of the two subtractions
  const double slack = std::fabs(v) * 0x1p-47;
  const double lo = v - slack, hi = v + slack;
  const float rl = static_cast<float>(lo), rh = static_cast<float>(hi);  // RNE (the worker's environment)
  if (rl != rh) return mpfr_truth(op, x, y, F);
  t.rounded = rl;
  if (std::isinf(rl)) {  // both ends overflow: the correctly rounded result is ±inf
    if (y != rl) return mpfr_truth(op, x, y, F);
    return t;
  }
  if (!std::isfinite(y)) {
    t.ulp_error = INFINITY;
    return t;
  }
  // ulp(f(x)) in FP32; f(x) may lie on either side of a power of two: its ulp
  // is then undecided, which matters only for a result that is not the
  // correctly rounded one
  const int el = exponent_of(lo), eh = exponent_of(hi);
  if (el != eh && y != t.rounded) return mpfr_truth(op, x, y, F);
  const double u = pow2(std::max(std::min(eh, F.emax), F.emin) - F.precision + 1);
  t.ulp_error = std::fabs(y - v) / u;
  if (std::fabs(t.ulp_error - decide_near) < 0x1p-20) return mpfr_truth(op, x, y, F);
  return t;
}

}  // namespace symerr::verify
