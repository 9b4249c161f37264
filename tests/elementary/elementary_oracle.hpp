// Test support for the elementary functions: the functions under test, the
// exact oracle (MPFR at 256 bits, directed rounding both ways, so every
// exact value is held in a two-sided enclosure), an implementation that obeys
// the declared accuracy model (correctly rounded, or a format value within
// k ulps of f(t), chosen at the extremes of what the model allows), and the
// containment checks of a SymbolicDomainError against one execution.
#pragma once

#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include <mpfr.h>

#include <symerr/domains/affine.hpp>
#include <symerr/elementary.hpp>

#include "core/symbolic_oracle.hpp"
#include "domain_scope.hpp"
#include "elementary/relative_range.hpp"

namespace symerr::test {

enum class Fn { Exp, Expm1, Log, Log1p, Tanh, Sigmoid, Erf, Pow, Sqrt, Abs };
inline constexpr Fn kAllFns[] = {Fn::Exp,     Fn::Expm1, Fn::Log, Fn::Log1p, Fn::Tanh,
                                 Fn::Sigmoid, Fn::Erf,   Fn::Pow, Fn::Sqrt,  Fn::Abs};

inline const char* fn_name(Fn f) {
  switch (f) {
    case Fn::Exp: return "exp";
    case Fn::Expm1: return "expm1";
    case Fn::Log: return "log";
    case Fn::Log1p: return "log1p";
    case Fn::Tanh: return "tanh";
    case Fn::Sigmoid: return "sigmoid";
    case Fn::Erf: return "erf";
    case Fn::Pow: return "pow";
    case Fn::Sqrt: return "sqrt";
    case Fn::Abs: return "abs";
  }
  return "?";
}

inline ElementaryFunction library_fn(Fn f) {
  switch (f) {
    case Fn::Exp: return ElementaryFunction::Exp;
    case Fn::Expm1: return ElementaryFunction::Expm1;
    case Fn::Log: return ElementaryFunction::Log;
    case Fn::Log1p: return ElementaryFunction::Log1p;
    case Fn::Tanh: return ElementaryFunction::Tanh;
    case Fn::Sigmoid: return ElementaryFunction::Sigmoid;
    case Fn::Erf: return ElementaryFunction::Erf;
    case Fn::Pow: return ElementaryFunction::Pow;
    default: return ElementaryFunction::Sqrt;
  }
}

// The symbolic operation under test.
template <class D>
SymbolicDomainError<D> apply(Fn f, const SymbolicDomainError<D>& x, double c, const AccuracyModel& m) {
  switch (f) {
    case Fn::Exp: return exp(x, m);
    case Fn::Expm1: return expm1(x, m);
    case Fn::Log: return log(x, m);
    case Fn::Log1p: return log1p(x, m);
    case Fn::Tanh: return tanh(x, m);
    case Fn::Sigmoid: return sigmoid(x, m);
    case Fn::Erf: return erf(x, m);
    case Fn::Pow: return pow(x, c, m);
    case Fn::Sqrt: return sqrt(x);
    case Fn::Abs: return abs(x);
  }
  return x;
}

// An MPFR number at a given precision (RAII).
struct Mp {
  mpfr_t v;
  explicit Mp(mpfr_prec_t p = 256) { mpfr_init2(v, p); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// f(a) rounded in direction rnd at the precision of out. Returns false where f
// is undefined at a (real semantics: log of a <= 0, pow's undefined cases).
inline bool eval_mpfr(Fn f, mpfr_ptr out, mpfr_srcptr a, double c, mpfr_rnd_t rnd) {
  const mpfr_rnd_t opp = rnd == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD;
  switch (f) {
    case Fn::Exp: mpfr_exp(out, a, rnd); return true;
    case Fn::Expm1: mpfr_expm1(out, a, rnd); return true;
    case Fn::Log:
      if (mpfr_sgn(a) <= 0) return false;
      mpfr_log(out, a, rnd); return true;
    case Fn::Log1p:
      if (mpfr_cmp_si(a, -1) <= 0) return false;
      mpfr_log1p(out, a, rnd); return true;
    case Fn::Tanh: mpfr_tanh(out, a, rnd); return true;
    case Fn::Erf: mpfr_erf(out, a, rnd); return true;
    case Fn::Sigmoid: {
      Mp t(mpfr_get_prec(out) + 10);
      mpfr_neg(t.v, a, MPFR_RNDN);
      mpfr_exp(t.v, t.v, opp);
      mpfr_add_ui(t.v, t.v, 1, opp);
      mpfr_ui_div(out, 1, t.v, rnd);
      return true;
    }
    case Fn::Pow: {
      const bool integer = std::trunc(c) == c;
      if (c == 0) { mpfr_set_ui(out, 1, rnd); return true; }
      if (mpfr_sgn(a) < 0 && !integer) return false;
      if (mpfr_zero_p(a) && c < 0) return false;
      Mp cc(64);
      mpfr_set_d(cc.v, c, MPFR_RNDN);
      mpfr_pow(out, a, cc.v, rnd);
      return true;
    }
    case Fn::Sqrt:
      if (mpfr_sgn(a) < 0) return false;
      mpfr_sqrt(out, a, rnd); return true;
    case Fn::Abs: mpfr_abs(out, a, rnd); return true;
  }
  return false;
}

// IEEE 754 / Annex F result of the machine function at a special or pole
// argument t (±0, ±inf, outside the domain); nullopt when t is ordinary.
inline std::optional<double> ieee_special(Fn f, double t, double c) {
  const bool neg = std::signbit(t);
  switch (f) {
    case Fn::Exp:
      if (std::isinf(t)) return neg ? 0.0 : INFINITY;
      return std::nullopt;
    case Fn::Expm1:
      if (std::isinf(t)) return neg ? -1.0 : INFINITY;
      if (t == 0) return t;
      return std::nullopt;
    case Fn::Log:
      if (t == 0) return -INFINITY;
      if (t < 0) return NAN;
      if (std::isinf(t)) return INFINITY;
      return std::nullopt;
    case Fn::Log1p:
      if (t == -1) return -INFINITY;
      if (t < -1) return NAN;
      if (std::isinf(t)) return INFINITY;
      if (t == 0) return t;
      return std::nullopt;
    case Fn::Tanh:
    case Fn::Erf:
      if (std::isinf(t)) return neg ? -1.0 : 1.0;
      if (t == 0) return t;
      return std::nullopt;
    case Fn::Sigmoid:
      if (std::isinf(t)) return neg ? 0.0 : 1.0;
      return std::nullopt;
    case Fn::Pow: {
      if (c == 0) return 1.0;
      const bool integer = std::trunc(c) == c, odd = integer && std::fmod(c, 2.0) != 0;
      if (t == 0) return c < 0 ? (odd && neg ? -INFINITY : INFINITY) : (odd && neg ? -0.0 : 0.0);
      if (std::isinf(t)) {
        if (!neg) return c > 0 ? INFINITY : 0.0;
        return odd ? (c > 0 ? -INFINITY : -0.0) : (c > 0 ? INFINITY : 0.0);
      }
      if (t < 0 && !integer) return NAN;
      return std::nullopt;
    }
    case Fn::Sqrt:
      if (t == 0) return t;
      if (t < 0) return NAN;
      if (std::isinf(t)) return INFINITY;
      return std::nullopt;
    case Fn::Abs:
      if (t == 0) return 0.0;
      return std::nullopt;
  }
  return std::nullopt;
}

// The machine result y of f at t (a value of F) under the model: correctly
// rounded, or one of the extreme format values within k·ulp(f(t)) of f(t)
// (pick selects which: 0 nearest, 1 lowest, 2 highest). ft: f(t) at 256 bits.
// `inner`: the end of f(t)'s enclosure nearer to 0 (default ft): the slack
// takes its ulp, so that an enclosure straddling a power of 2 does not take
// the larger ulp of the binade above f(t).
inline double model_result(mpfr_srcptr ft, const FloatFormat& F, const UlpBound& b, RoundingMode mode, int pick,
                           mpfr_srcptr inner = nullptr) {
  // far outside the format's range (round_to would build huge integers): ±inf or ±0 in RNE
  if (mode == RoundingMode::NearestEven && mpfr_number_p(ft) && !mpfr_zero_p(ft)) {
    const mpfr_exp_t e = mpfr_get_exp(ft);
    if (e > F.emax + 2) return mpfr_sgn(ft) > 0 ? INFINITY : -INFINITY;
    if (e < F.emin - F.precision - 2 - static_cast<mpfr_exp_t>(b.correctly_rounded ? 0 : b.ulps + 2))
      return mpfr_sgn(ft) > 0 ? 0.0 : -0.0;
  }
  if (b.correctly_rounded || pick == 0) return round_to(ft, F, b.correctly_rounded ? mode : RoundingMode::NearestEven).value;
  Mp z(256), w(300);
  mpfr_set(z.v, inner ? inner : ft, MPFR_RNDZ);
  const double near = mpfr_get_d(z.v, MPFR_RNDZ);  // same binade as f(t)
  // the model's ulp: in the gap of a format without subnormals, the gap 2^emin
  // (symerr::ulp gives the subnormal spacing 2^(emin-p+1) there)
  const double u = !F.subnormals && std::fabs(near) < F.min_normal()
                       ? F.min_normal()
                       : ulp(std::isinf(near) ? std::copysign(F.max_finite(), near) : near, F);
  const double slack = b.ulps * u;
  // beyond max finite + k ulps no finite value is within the bound: the result overflows
  Mp limit(256);
  mpfr_set_d(limit.v, F.max_finite(), MPFR_RNDN);
  mpfr_add_d(limit.v, limit.v, slack, MPFR_RNDN);  // exact at 256 bits
  if (mpfr_cmpabs(z.v, limit.v) > 0) return round_to(ft, F, RoundingMode::NearestEven).value;
  if (pick == 1) {
    mpfr_sub_d(w.v, ft, slack, MPFR_RNDU);
    return round_to(w.v, F, RoundingMode::Upward).value;
  }
  mpfr_add_d(w.v, ft, slack, MPFR_RNDD);
  return round_to(w.v, F, RoundingMode::Downward).value;
}

// v ⊆ enclosure, for v = [lo, hi] (MPFR endpoints).
template <class D>
bool encloses(const D& a, mpfr_srcptr lo, mpfr_srcptr hi) {
  return mpfr_cmp_d(lo, a.lower()) >= 0 && mpfr_cmp_d(hi, a.upper()) <= 0;
}

inline const std::string kUndecided = "oracle undecided";

// [lo, hi] ∋ erf(t) − erf(r) through erfc when t and r are nonzero with one
// sign and |t|, |r| >= 1 (else lo, hi are left as they are): for t, r > 0,
// erf(t) − erf(r) = erfc(r) − erfc(t); for t, r < 0, erfc(−t) − erfc(−r).
inline void erfc_difference(mpfr_ptr lo, mpfr_ptr hi, mpfr_srcptr t, mpfr_srcptr r) {
  if (mpfr_sgn(t) * mpfr_sgn(r) <= 0 || mpfr_cmpabs_ui(t, 1) < 0 || mpfr_cmpabs_ui(r, 1) < 0) return;
  const bool neg = mpfr_sgn(t) < 0;
  Mp u(mpfr_get_prec(t)), v(mpfr_get_prec(r)), u_lo(256), u_hi(256), v_lo(256), v_hi(256);
  // first = erfc of (r, or −t), second = erfc of (t, or −r): the difference is first − second
  if (neg) {
    mpfr_neg(u.v, t, MPFR_RNDN);  // exact
    mpfr_neg(v.v, r, MPFR_RNDN);
  } else {
    mpfr_set(u.v, r, MPFR_RNDN);
    mpfr_set(v.v, t, MPFR_RNDN);
  }
  const bool underflow_before = mpfr_underflow_p();
  mpfr_clear_underflow();
  mpfr_erfc(u_lo.v, u.v, MPFR_RNDD);
  mpfr_erfc(u_hi.v, u.v, MPFR_RNDU);
  mpfr_erfc(v_lo.v, v.v, MPFR_RNDD);
  mpfr_erfc(v_hi.v, v.v, MPFR_RNDU);
  const bool underflow = mpfr_underflow_p();
  mpfr_clear_underflow();
  if (underflow_before) mpfr_set_underflow();
  if (underflow) return;  // erfc below MPFR's exponent range: not decided here
  mpfr_sub(lo, u_lo.v, v_hi.v, MPFR_RNDD);
  mpfr_sub(hi, u_hi.v, v_lo.v, MPFR_RNDU);
}

struct UnaryExecution {
  mpq_class r;  // the real input
  double t;     // the machine input (a value of F, or ±0)
  // the operand's real value on the actual inputs (arith.hpp's whole-kernel
  // split) when it differs from t: propagated ∋ f(pr) − f(r), introduced ∋ y − f(pr)
  std::optional<mpq_class> pr = std::nullopt;
  // the implementation's result at t (e.g. the installed libm's); else model_result's
  std::optional<double> machine = std::nullopt;
};

// check_unary at precision P for the values of f (see below).
template <class D>
std::string check_unary_at(Fn f, double c, const SymbolicDomainError<D>& z, const UnaryExecution& ex,
                           const FloatFormat& F, const UlpBound& b, RoundingMode mode, int pick, bool* special,
                           mpfr_prec_t P) {
  const SpecialStates& s = z.specials;
  // the real value
  Mp r(4096), fr_lo(P), fr_hi(P);
  if (mpfr_set_q(r.v, ex.r.get_mpq_t(), MPFR_RNDN) != 0) return kUndecided;  // r needs > 4096 bits
  mpfr_clear_flags();
  const bool real_defined = eval_mpfr(f, fr_lo.v, r.v, c, MPFR_RNDD) && eval_mpfr(f, fr_hi.v, r.v, c, MPFR_RNDU);
  if (mpfr_overflow_p() || mpfr_underflow_p()) return kUndecided;  // beyond MPFR's exponent range
  if (!real_defined && !s.may_be_undefined) return "undefined real result not flagged";
  // the machine result
  double y;
  Mp ft_lo(P), ft_hi(P), tt(64);
  bool t_ordinary = false;
  if (auto sp = ieee_special(f, ex.t, c)) {
    y = *sp;
  } else {
    mpfr_set_d(tt.v, ex.t, MPFR_RNDN);
    eval_mpfr(f, ft_lo.v, tt.v, c, MPFR_RNDD);
    eval_mpfr(f, ft_hi.v, tt.v, c, MPFR_RNDU);
    if (mpfr_overflow_p() || mpfr_underflow_p()) return kUndecided;
    t_ordinary = true;
    // a correctly rounded (or nearest) result needs both ends of f(t) to round
    // alike: Ziv's retries to 4096 bits (exp(−2^−1000) at 256 bits is 1 upward)
    for (mpfr_prec_t prec = std::max<mpfr_prec_t>(1024, P); (b.correctly_rounded || pick == 0) && prec <= 4096 && !ex.machine;
         prec *= 4) {
      const RoundingMode m = b.correctly_rounded ? mode : RoundingMode::NearestEven;
      if (round_to(ft_lo.v, F, m).value == round_to(ft_hi.v, F, m).value) break;
      if (prec <= P) return kUndecided;  // already at 4096 bits
      for (mpfr_ptr v : {ft_lo.v, ft_hi.v}) mpfr_set_prec(v, prec);
      eval_mpfr(f, ft_lo.v, tt.v, c, MPFR_RNDD);
      eval_mpfr(f, ft_hi.v, tt.v, c, MPFR_RNDU);
      if (prec == 4096 && round_to(ft_lo.v, F, m).value != round_to(ft_hi.v, F, m).value) return kUndecided;
    }
    // the ulp of the end nearer to 0: never the larger ulp of a binade above f(t)
    mpfr_srcptr inner = mpfr_cmpabs(ft_lo.v, ft_hi.v) <= 0 ? ft_lo.v : ft_hi.v;
    y = ex.machine ? *ex.machine : model_result(pick == 2 ? ft_lo.v : ft_hi.v, F, b, mode, pick, inner);
    if (f == Fn::Abs) y = std::fabs(ex.t);
    // a zero result carries the sign IEEE gives f: that of t for odd f, else +0
    const bool odd = f == Fn::Expm1 || f == Fn::Log1p || f == Fn::Tanh || f == Fn::Erf ||
                     (f == Fn::Pow && std::trunc(c) == c && std::fmod(c, 2.0) != 0);
    if (y == 0 && !ex.machine) y = odd ? std::copysign(0.0, ex.t) : 0.0;
  }
  if (special) *special = !std::isfinite(y) || y == 0;
  if (std::isnan(y)) return s.may_be_nan ? "" : "NaN result not flagged";
  if (std::isinf(y)) {
    if (y > 0 && !s.may_be_pos_inf) return "+inf result not flagged";
    if (y < 0 && !s.may_be_neg_inf) return "-inf result not flagged";
    return "";
  }
  if (!s.may_be_finite) return "finite result but may_be_finite is false";
  if (!contains(z.fp, y)) return "y not in fp";
  if (y == 0 && std::signbit(y) && !s.may_be_neg_zero) return "-0 result not flagged";
  if (y == 0 && !std::signbit(y) && !s.may_be_pos_zero) return "+0 result not flagged";
  // the split's reference point: pr where it differs from t (f(pr) defined), else t
  Mp pr(4096), fp_lo(P), fp_hi(P);
  const bool split = t_ordinary && ex.pr && *ex.pr != exact_value(ex.t);
  if (split) {
    if (mpfr_set_q(pr.v, ex.pr->get_mpq_t(), MPFR_RNDN) != 0) return kUndecided;
    if (!eval_mpfr(f, fp_lo.v, pr.v, c, MPFR_RNDD) || !eval_mpfr(f, fp_hi.v, pr.v, c, MPFR_RNDU)) t_ordinary = false;
    if (mpfr_overflow_p() || mpfr_underflow_p()) return kUndecided;
  }
  mpfr_srcptr ref = split ? pr.v : tt.v, ref_lo = split ? fp_lo.v : ft_lo.v, ref_hi = split ? fp_hi.v : ft_hi.v;
  Mp a(512), bb(512);
  if (t_ordinary && f != Fn::Abs) {
    mpfr_d_sub(a.v, y, ref_hi, MPFR_RNDD);
    mpfr_d_sub(bb.v, y, ref_lo, MPFR_RNDU);
    if (!encloses(z.introduced, a.v, bb.v)) return split ? "y - f(pr) not in introduced" : "y - f(t) not in introduced";
  }
  if (!real_defined) return "";
  if (!s.may_be_defined) return "real defined but may_be_defined is false";
  if (!encloses(z.real, fr_lo.v, fr_hi.v)) return "f(r) not in real";
  mpfr_d_sub(a.v, y, fr_hi.v, MPFR_RNDD);
  mpfr_d_sub(bb.v, y, fr_lo.v, MPFR_RNDU);
  if (!encloses(z.err, a.v, bb.v)) return "y - f(r) not in err";
  if (t_ordinary && f != Fn::Abs) {
    if (ex.r == (split ? *ex.pr : exact_value(ex.t))) {  // f(t) − f(r) = 0 exactly
      mpfr_set_zero(a.v, 1);
      mpfr_set_zero(bb.v, 1);
    } else {
      mpfr_sub(a.v, ref_lo, fr_hi.v, MPFR_RNDD);
      mpfr_sub(bb.v, ref_hi, fr_lo.v, MPFR_RNDU);
    }
    // erf far out: erf(t) − erf(r) = erfc(r) − erfc(t) (t, r > 0; mirrored for t, r < 0),
    // a difference of two tiny numbers that MPFR's erfc gives to 256 bits relative,
    // where erf itself would need thousands of bits (1 − erf(20) < 2^−580)
    if (f == Fn::Erf && !encloses(z.propagated, a.v, bb.v)) erfc_difference(a.v, bb.v, ref, r.v);
    // f(t) − f(r) may cancel below 256 bits (expm1 near −1): Ziv-style retries
    for (mpfr_prec_t prec = 1024; !encloses(z.propagated, a.v, bb.v) && prec <= 4096; prec *= 4) {
      Mp p1(prec), p2(prec), p3(prec), p4(prec);
      eval_mpfr(f, p1.v, ref, c, MPFR_RNDD);
      eval_mpfr(f, p2.v, ref, c, MPFR_RNDU);
      eval_mpfr(f, p3.v, r.v, c, MPFR_RNDD);
      eval_mpfr(f, p4.v, r.v, c, MPFR_RNDU);
      mpfr_sub(a.v, p1.v, p4.v, MPFR_RNDD);
      mpfr_sub(bb.v, p2.v, p3.v, MPFR_RNDU);
    }
    if (!encloses(z.propagated, a.v, bb.v)) {
      // still straddling 0 at 4096 bits (erf, tanh far out: |f(t) − f(r)| < 2^−4096·|f|):
      // the oracle cannot judge this execution
      if (mpfr_sgn(a.v) < 0 && mpfr_sgn(bb.v) > 0) return kUndecided;
      return "f(t) - f(r) not in propagated";
    }
  }
  if (mpfr_sgn(fr_lo.v) > 0 || mpfr_sgn(fr_hi.v) < 0) {  // f(r) != 0: (y − f(r))/f(r) = y/f(r) − 1, monotone in f(r)
    Mp lo(4300), hi(4300);
    relative_error_range(y, fr_lo.v, fr_hi.v, lo.v, hi.v);
    // f(r) at 256 bits may be too wide next to y/f(r) − 1 ≈ −r (exp of a tiny r): 4096 bits
    if (!encloses(z.rel_err, lo.v, hi.v)) {
      Mp f_lo(4096), f_hi(4096);
      eval_mpfr(f, f_lo.v, r.v, c, MPFR_RNDD);
      eval_mpfr(f, f_hi.v, r.v, c, MPFR_RNDU);
      relative_error_range(y, f_lo.v, f_hi.v, lo.v, hi.v);
    }
    if (!encloses(z.rel_err, lo.v, hi.v)) {
      std::ostringstream o;
      o << "(y - f(r))/f(r) not in rel_err: y = " << std::hexfloat << y << ", (y - f(r))/f(r) in ["
        << mpfr_get_d(lo.v, MPFR_RNDD) << ", " << mpfr_get_d(hi.v, MPFR_RNDU) << "], rel_err [" << z.rel_err.lower()
        << ", " << z.rel_err.upper() << "]";
      return o.str();
    }
  }
  if (!mixed_holds(z.mixed, y, fr_lo.v, fr_hi.v)) {  // again with f(r) at 4096 bits (see rel_err)
    Mp f_lo(4096), f_hi(4096);
    eval_mpfr(f, f_lo.v, r.v, c, MPFR_RNDD);
    eval_mpfr(f, f_hi.v, r.v, c, MPFR_RNDU);
    if (!mixed_holds(z.mixed, y, f_lo.v, f_hi.v)) return "|y - f(r)| above mixed.rel |f(r)| + mixed.abs";
  }
  return "";
}

// Checks z against one execution of f: returns "" or what failed. The values
// of f are taken at 256 bits, and a failure is judged again at 4096 bits: next
// to a value such as exp(2^-1060) = 1 + 2^-1060, 256 bits cannot tell y − f(r)
// from 0 (the Ziv retries of the difference below cover f(t) − f(r) only).
template <class D>
std::string check_unary(Fn f, double c, const SymbolicDomainError<D>& z, const UnaryExecution& ex,
                        const FloatFormat& F, const UlpBound& b, RoundingMode mode, int pick, bool* special = nullptr) {
  const std::string first = check_unary_at(f, c, z, ex, F, b, mode, pick, special, 256);
  if (first.empty() || first == kUndecided) return first;
  return check_unary_at(f, c, z, ex, F, b, mode, pick, special, 4096);
}

}  // namespace symerr::test
