// Test support for the unary elementary functions with a restricted domain or
// poles (test_inverse_trig.cpp, test_hyperbolic.cpp): one function object per
// operator (its MPFR evaluation, its symbolic rule, the points where it is
// interesting), the implementation's result at t (NaN outside the domain, ±inf
// at a pole or on overflow, else the k-ulp model of unary_mpfr_support.hpp),
// the check of one execution against MPFR, and random boxes around the
// function's edges.
#pragma once

#include <cfenv>
#include <cmath>
#include <initializer_list>
#include <random>
#include <string>

#include "elementary/unary_mpfr_support.hpp"

namespace symerr::test {

struct UnaryFn {
  const char* name;
  OpId op;
  MpfrEval mpfr;
  std::initializer_list<double> edges;  // domain ends, poles, turning points (and their negatives when odd)
  // the rule: f(x, model) for the operator `op`, in every domain
  template <RealDomain D>
  SymbolicDomainError<D> operator()(const SymbolicDomainError<D>& x, const AccuracyModel& m) const {
    switch (op) {
      case OpId::Atan: return atan(x, m);
      case OpId::Asin: return asin(x, m);
      case OpId::Acos: return acos(x, m);
      case OpId::Sinh: return sinh(x, m);
      case OpId::Cosh: return cosh(x, m);
      case OpId::Asinh: return asinh(x, m);
      case OpId::Acosh: return acosh(x, m);
      case OpId::Atanh: return atanh(x, m);
      case OpId::Tan: return tan(x, m);
      case OpId::Cbrt: return cbrt(x, m);
      case OpId::Erfc: return erfc(x, m);
      default: throw std::invalid_argument(std::string("UnaryFn: no rule for ") + name);
    }
  }
};

// The implementation's result at a finite t: NaN outside f's domain, the
// signed infinity at a pole or when no finite value of F is within k ulps
// (overflow), else within k ulps; a zero result has the sign of f(t) (a
// k-ulp value rounded toward it may be a zero of the other sign: no libm
// returns −0 for atan of a positive t).
inline double unary_implementation(const UnaryFn& fn, double t, const FloatFormat& F, double k, int pick) {
  detail::MpfrNumber x(64, t), v(256), limit(256, F.max_finite());
  fn.mpfr(v.v, x.v, MPFR_RNDN);
  if (mpfr_nan_p(v.v)) return NAN;
  const double inf = mpfr_sgn(v.v) > 0 ? INFINITY : -INFINITY;
  mpfr_add_d(limit.v, limit.v, k * ulp(F.max_finite(), F), MPFR_RNDN);
  if (mpfr_inf_p(v.v) || mpfr_cmpabs(v.v, limit.v) > 0) return inf;
  const double y = k_ulp_implementation(fn.mpfr, t, F, k, pick);
  if (std::fabs(y) > F.max_finite()) return y > 0 ? INFINITY : -INFINITY;
  return y == 0 ? std::copysign(0.0, mpfr_sgn(v.v) != 0 ? inf : t) : y;
}

// "" if z encloses an execution with result y whose real value f(r) is in
// [lo, hi] (when real_defined), else what failed (`undefined`: the message
// for an undefined real value that z does not flag).
template <RealDomain D>
std::string check_result(const SymbolicDomainError<D>& z, bool real_defined, const char* undefined, mpfr_srcptr lo,
                         mpfr_srcptr hi, double y) {
  const SpecialStates& s = z.specials;
  if (!real_defined && !s.may_be_undefined) return undefined;
  if (real_defined) {
    if (!s.may_be_defined) return "defined real not flagged";
    if (mpfr_cmp_d(lo, z.real.lower()) < 0 || mpfr_cmp_d(hi, z.real.upper()) > 0) return "f(r) not in real";
  }
  if (std::isnan(y)) return s.may_be_nan ? "" : "NaN not flagged";
  if (std::isinf(y)) return (y < 0 ? s.may_be_neg_inf : s.may_be_pos_inf) ? "" : "inf not flagged";
  if (!s.may_be_finite || !contains(z.fp, y)) return "y not in fp";
  if (y == 0 && (std::signbit(y) ? !s.may_be_neg_zero : !s.may_be_pos_zero)) return "zero sign not flagged";
  return real_defined ? err_holds(z, y, lo, hi) : "";
}

// "" if z encloses the execution (machine input t, real input t − e, result
// y), else what failed. The real input is defined where f(r) is finite.
template <RealDomain D>
std::string check_unary_execution(const UnaryFn& fn, const SymbolicDomainError<D>& z, double t, double e, double y) {
  detail::MpfrNumber r(4096), tt(64, t), ee(64, e), lo(256), hi(256);
  mpfr_sub(r.v, tt.v, ee.v, MPFR_RNDN);  // exact at 4096 bits
  mpfr_clear_overflow();
  fn.mpfr(lo.v, r.v, MPFR_RNDD);
  fn.mpfr(hi.v, r.v, MPFR_RNDU);
  // f(r) beyond MPFR's range (sinh 1e38) is defined; an exact infinity is a pole
  const bool real_defined = !mpfr_nan_p(lo.v) && (!mpfr_inf_p(hi.v) || mpfr_overflow_p()) &&
                            (!mpfr_inf_p(lo.v) || mpfr_overflow_p());
  return check_result(z, real_defined, "real input outside the domain not flagged undefined", lo.v, hi.v, y);
}

// A random box of F for fn: tiny across 0, close to one of fn's edges (either
// side, also exactly on it), moderate, wide (across the domain's ends), huge
// (up to the format's maximum), log-uniform magnitudes.
inline void unary_random_box(const UnaryFn& fn, std::mt19937_64& g, const FloatFormat& F, double& lo, double& hi,
                             double& elo, double& ehi) {
  std::uniform_real_distribution<double> u(0, 1);
  const double sign = g() % 2 ? 1 : -1;
  auto shift = [&] { return std::ldexp(u(g), -static_cast<int>(g() % 24)); };
  double c = 0, w = 0;
  switch (g() % 6) {
    case 0: c = sign * F.min_normal() * u(g) * 4; w = F.min_normal() * u(g) * 2; break;
    case 1: {
      const double edge = fn.edges.begin()[g() % fn.edges.size()];
      c = g() % 3 == 0 ? edge : edge + sign * shift() * std::max(1.0, std::fabs(edge));
      w = g() % 3 == 0 ? 0 : shift() * std::max(1.0, std::fabs(edge));
      break;
    }
    case 2: c = sign * u(g) * 2; w = u(g) * shift(); break;
    case 3: c = sign * u(g) * 2; w = 0.5 + u(g) * 2; break;
    // huge: up to 0.45 of the maximum (the error, up to |c|, spans below the maximum)
    case 4: c = sign * F.max_finite() * 0.45 * u(g); w = std::fabs(c) * std::ldexp(u(g), -static_cast<int>(F.precision) + 2); break;
    default: c = sign * std::ldexp(1 + u(g), static_cast<int>(g() % 60) - 30); w = std::fabs(c) * shift(); break;
  }
  finish_box(g, F, c, w, lo, hi, elo, ehi);
}

// The soundness loop of fn in domain D over the four formats.
template <RealDomain D>
void unary_soundness(const UnaryFn& fn, std::span<const FloatFormat> formats, std::uint64_t seed, int boxes,
                     long& executions) {
  function_soundness<D>(
      fn, unary_implementation,
      [](const UnaryFn& f, const auto& z, double t, double e, double y) { return check_unary_execution(f, z, t, e, y); },
      [&](std::mt19937_64& g, const FloatFormat& F, double& lo, double& hi, double& elo, double& ehi) {
        unary_random_box(fn, g, F, lo, hi, elo, ehi);
      },
      formats, seed, boxes, executions);
}

// The planted-bug twin: fn over the FP32 box [lo, hi] with input error ±ea;
// its err narrowed (narrowed_err) is caught by executions, the unplanted
// result passes the same executions.
inline void check_planted_bug(const UnaryFn& fn, double lo, double hi, double ea) {
  const auto x = SymbolicError::input(lo, hi, -ea, ea, FP32);
  const auto good = fn(x, AccuracyModel::correctly_rounded());
  const auto bad = narrowed_err(good);
  auto caught = [&](const SymbolicError& z) {
    return caught_by_execution(lo, hi, ea, [&](double t, double e) {
      return check_unary_execution(fn, z, t, e, unary_implementation(fn, t, FP32, 0.5, 0));
    });
  };
  CHECK(caught(bad));
  CHECK_FALSE(caught(good));
}

// The propagated twin: real a, fp b (one point each, FP64): z.propagated holds
// f(b) − f(a) and is narrower than rel·|f(b) − f(a)|.
inline void check_propagated_twin(const UnaryFn& fn, double a, double b, double rel) {
  const auto z = fn(SymbolicError::input(a, a, b - a, b - a, FP64), AccuracyModel::correctly_rounded());
  detail::MpfrNumber xa(64, a), xb(64, b), fa(256), fb(256), d(256);
  fn.mpfr(fa.v, xa.v, MPFR_RNDN);
  fn.mpfr(fb.v, xb.v, MPFR_RNDN);
  mpfr_sub(d.v, fb.v, fa.v, MPFR_RNDN);  // 256 bits: far inside rel
  const double exact = mpfr_get_d(d.v, MPFR_RNDN);
  INFO(fn.name << " real " << a << " fp " << b << " propagated " << z.propagated << " exact " << exact);
  CHECK(mpfr_cmp_d(d.v, z.propagated.lower()) >= 0);
  CHECK(mpfr_cmp_d(d.v, z.propagated.upper()) <= 0);
  CHECK(width(z.propagated) <= rel * std::fabs(exact));
}

// A glibc witness: the FP32 libm function at x under the C rounding mode
// `fe_mode` (FE_TONEAREST, FE_UPWARD, …; volatile: GCC folds a call on a
// constant correctly rounded), its result and its distance to f(x) in ulps.
struct LibmWitness {
  double y;
  double ulps;
};
template <class T>
LibmWitness libm_witness(MpfrEval f, T (*libm)(T), T x, int fe_mode) {
  volatile T w = x;
  const int saved = std::fegetround();
  std::fesetround(fe_mode);
  const T y = libm(w);
  std::fesetround(saved);
  detail::MpfrNumber xx(64, static_cast<double>(x)), v(256), d(256);
  f(v.v, xx.v, MPFR_RNDN);
  mpfr_d_sub(d.v, static_cast<double>(y), v.v, MPFR_RNDN);
  const double u = ulp(std::fabs(mpfr_get_d(v.v, MPFR_RNDZ)), sizeof(T) == 4 ? FP32 : FP64);
  return {static_cast<double>(y), std::fabs(mpfr_get_d(d.v, MPFR_RNDN)) / u};
}

// A glibc function beyond its documented bound: the witness x in the C
// rounding mode fe_mode (RoundingMode `mode`), the documented and the
// measured (sweep) ulps. The model's bound must hold the libm result (and
// z.fp with it), be above the measured value and below it plus 1.
template <class T>
struct LibmCase {
  const UnaryFn* fn;
  T (*libm)(T);
  T x;
  int fe_mode;
  RoundingMode mode;
  double documented, measured;
};
template <class T>
void check_libm_case(const LibmCase<T>& w) {
  const FloatFormat& F = sizeof(T) == 4 ? FP32 : FP64;
  const LibmWitness r = libm_witness(w.fn->mpfr, w.libm, w.x, w.fe_mode);
  const double x = static_cast<double>(w.x);
  const double bound = AccuracyModel::glibc_x86_64().bound(w.fn->op, F, w.mode).ulps;
  INFO(w.fn->name << (sizeof(T) == 4 ? "f(" : "(") << std::hexfloat << x << ") = " << r.y << std::defaultfloat
                  << ": " << r.ulps << " ulps, documented " << w.documented << ", model " << bound);
  CHECK(r.ulps <= bound);  // with Debian 12's glibc 2.36: the measured value, above the documented one
  CHECK(bound > w.measured);
  // the table's tightness (each entry the largest measured error, + 1/16, rounded up;
  // a witness elsewhere may be the largest): tests/libm, an entry one ulp lower is caught
  const auto z = (*w.fn)(SymbolicError::input(x, x, 0, 0, F, w.mode), AccuracyModel::glibc_x86_64());
  CHECK(contains(z.fp, r.y));
}

// Affine inputs of the "f(x) − f(x) is exactly 0" checks (FP32, error ±1e-6)
// in a context of their own: a in [0.25, 0.75], c in [−1, 2].
struct AffineSelfDifference {
  using SA = SymbolicDomainError<Affine>;
  AffineContext ctx;
  AffineScope scope{ctx};
  const SA a = SA::input(0.25, 0.75, -1e-6, 1e-6, FP32), c = SA::input(-1, 2, -1e-6, 1e-6, FP32);
  // each difference f(x) − f(x) of one form: err exactly 0
  static void check_zero(std::initializer_list<SA> differences) {
    for (const SA& d : differences) {
      CHECK(d.err.lower() == 0);
      CHECK(d.err.upper() == 0);
    }
  }
};

}  // namespace symerr::test
