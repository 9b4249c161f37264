// Force-included before the C kernels compiled on symref::Enclosure: the
// exact reference of kernels whose real result is not a rational (softmax
// calls exp). An Enclosure is an interval with 256-bit MPFR endpoints
// (symerr::MpfrInterval), every operation rounded outward, so the real result
// of the C code on exact inputs lies in the final enclosure — a rigorous
// reference whose width (about 2^-250 relative) is the only uncertainty.
// A check "real in the symbolic enclosure" is then "the whole reference
// enclosure inside it", which cannot pass by rounding luck.
//
// Comparisons must be decided: on point inputs (the tests' executions) every
// comparison of the kernels is between exact or 2^-250-narrow values; an
// undecided one throws (it would mean the reference cannot follow the real
// control flow).
#pragma once

#include <stdexcept>
#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/mpfr_support.hpp>

namespace symref {

inline constexpr mpfr_prec_t kBits = 256;

class Enclosure {
 public:
  Enclosure() : v_(symerr::MpfrInterval::point(0.0, kBits)) {}
  Enclosure(int v) : v_(symerr::MpfrInterval::point(static_cast<double>(v), kBits)) {}  // NOLINT: C's int -> double
  Enclosure(double v) : v_(symerr::MpfrInterval::point(v, kBits)) {}                    // NOLINT
  explicit Enclosure(const mpq_class& q) : v_(symerr::MpfrInterval::from_rational(q, kBits)) {}
  explicit Enclosure(symerr::MpfrInterval v) : v_(std::move(v)) {}

  const symerr::MpfrInterval& interval() const { return v_; }
  mpfr_srcptr lower() const { return v_.lower_mpfr(); }
  mpfr_srcptr upper() const { return v_.upper_mpfr(); }

  Enclosure& operator+=(const Enclosure& o) { return *this = Enclosure(v_ + o.v_); }
  Enclosure& operator-=(const Enclosure& o) { return *this = Enclosure(v_ - o.v_); }
  Enclosure& operator*=(const Enclosure& o) { return *this = Enclosure(v_ * o.v_); }
  Enclosure& operator/=(const Enclosure& o) { return *this = Enclosure(v_ / o.v_); }

 private:
  symerr::MpfrInterval v_;
};

inline Enclosure operator+(const Enclosure& a, const Enclosure& b) { return Enclosure(a.interval() + b.interval()); }
inline Enclosure operator-(const Enclosure& a, const Enclosure& b) { return Enclosure(a.interval() - b.interval()); }
inline Enclosure operator*(const Enclosure& a, const Enclosure& b) { return Enclosure(a.interval() * b.interval()); }
inline Enclosure operator/(const Enclosure& a, const Enclosure& b) { return Enclosure(a.interval() / b.interval()); }
inline Enclosure operator-(const Enclosure& a) { return Enclosure(-a.interval()); }

inline bool decided(symerr::Tri t, const char* what) {
  if (t == symerr::Tri::Unknown)
    throw std::logic_error(std::string("exact reference: undecided comparison ") + what);
  return t == symerr::Tri::True;
}
inline bool operator<(const Enclosure& a, const Enclosure& b) { return decided(cmp_lt(a.interval(), b.interval()), "<"); }
inline bool operator>(const Enclosure& a, const Enclosure& b) { return decided(cmp_gt(a.interval(), b.interval()), ">"); }
inline bool operator<=(const Enclosure& a, const Enclosure& b) { return decided(cmp_le(a.interval(), b.interval()), "<="); }
inline bool operator>=(const Enclosure& a, const Enclosure& b) { return decided(cmp_ge(a.interval(), b.interval()), ">="); }

// Monotone functions: the image of [lo, hi] is [f(lo) rounded down, f(hi) rounded up].
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
Enclosure increasing(const Enclosure& a) {
  symerr::detail::MpfrStateGuard guard;
  mpfr_t lo, hi;
  mpfr_init2(lo, kBits);
  mpfr_init2(hi, kBits);
  F(lo, a.lower(), MPFR_RNDD);
  F(hi, a.upper(), MPFR_RNDU);
  Enclosure r(symerr::MpfrInterval::between(lo, hi, kBits));
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}
inline Enclosure exp(const Enclosure& a) { return increasing<mpfr_exp>(a); }
inline Enclosure sqrt(const Enclosure& a) { return Enclosure(sqrt(a.interval())); }
inline Enclosure fabs(const Enclosure& a) { return Enclosure(abs(a.interval())); }
inline Enclosure fma(const Enclosure& a, const Enclosure& b, const Enclosure& c) { return a * b + c; }
// copysign and fdim of the real values (their comparisons decided, as every comparison here)
inline Enclosure copysign(const Enclosure& a, const Enclosure& b) {
  return b < Enclosure(0.0) ? -fabs(a) : fabs(a);
}
inline Enclosure fdim(const Enclosure& a, const Enclosure& b) { return a > b ? a - b : Enclosure(0.0); }

// max/min of two enclosures: [max(lo), max(hi)] (exact on point values).
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)>
Enclosure endpointwise(const Enclosure& a, const Enclosure& b) {
  symerr::detail::MpfrStateGuard guard;
  mpfr_t lo, hi;
  mpfr_init2(lo, kBits);
  mpfr_init2(hi, kBits);
  F(lo, a.lower(), b.lower(), MPFR_RNDD);
  F(hi, a.upper(), b.upper(), MPFR_RNDU);
  Enclosure r(symerr::MpfrInterval::between(lo, hi, kBits));
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}
inline Enclosure fmax(const Enclosure& a, const Enclosure& b) { return endpointwise<mpfr_max>(a, b); }
inline Enclosure fmin(const Enclosure& a, const Enclosure& b) { return endpointwise<mpfr_min>(a, b); }

// The increasing functions of the float kernels (float_kernels.c), and the
// C99 float names they are called by.
inline Enclosure erf(const Enclosure& a) { return increasing<mpfr_erf>(a); }
inline Enclosure tanh(const Enclosure& a) { return increasing<mpfr_tanh>(a); }
inline Enclosure log(const Enclosure& a) { return increasing<mpfr_log>(a); }
inline Enclosure log1p(const Enclosure& a) { return increasing<mpfr_log1p>(a); }
inline Enclosure expm1(const Enclosure& a) { return increasing<mpfr_expm1>(a); }
inline Enclosure exp2(const Enclosure& a) { return increasing<mpfr_exp2>(a); }
inline Enclosure cbrt(const Enclosure& a) { return increasing<mpfr_cbrt>(a); }
// a^c for a >= 0 and c > 0 (increasing in a)
inline Enclosure pow(const Enclosure& a, double c) {
  if (mpfr_sgn(a.lower()) < 0 || !(c > 0)) throw std::logic_error("exact reference: pow needs a >= 0, c > 0");
  symerr::detail::MpfrStateGuard guard;
  mpfr_t lo, hi, e;
  mpfr_inits2(kBits, lo, hi, e, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(e, c, MPFR_RNDN);  // exact
  mpfr_pow(lo, a.lower(), e, MPFR_RNDD);
  mpfr_pow(hi, a.upper(), e, MPFR_RNDU);
  Enclosure r(symerr::MpfrInterval::between(lo, hi, kBits));
  mpfr_clears(lo, hi, e, static_cast<mpfr_ptr>(nullptr));
  return r;
}
// a^c for a point exponent c (a double): pow(a, c) above for c > 0; for a
// point base a > 0 any c (RoPE's 10000^(-2i/n)), rounded down and up.
inline Enclosure pow(const Enclosure& a, const Enclosure& c) {
  if (mpfr_cmp(c.lower(), c.upper()) != 0) throw std::logic_error("exact reference: pow needs a point exponent");
  const double cd = mpfr_get_d(c.lower(), MPFR_RNDN);
  if (mpfr_cmp_d(c.lower(), cd) != 0) throw std::logic_error("exact reference: pow's exponent is not a double");
  if (cd > 0) return pow(a, cd);
  if (mpfr_cmp(a.lower(), a.upper()) != 0 || mpfr_sgn(a.lower()) <= 0)
    throw std::logic_error("exact reference: pow with c <= 0 needs a positive point base");
  symerr::detail::MpfrStateGuard guard;
  mpfr_t lo, hi;
  mpfr_inits2(kBits, lo, hi, static_cast<mpfr_ptr>(nullptr));
  mpfr_pow(lo, a.lower(), c.lower(), MPFR_RNDD);
  mpfr_pow(hi, a.lower(), c.lower(), MPFR_RNDU);
  Enclosure r(symerr::MpfrInterval::between(lo, hi, kBits));
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  return r;
}
// sin and cos of an enclosure narrower than 2^-100 away from their extrema
// (where they are monotone: the derivative keeps its sign over it), rounded
// outward; anything else is refused (the reference needs no more).
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), int (*Slope)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
Enclosure monotone_near(const Enclosure& a) {
  symerr::detail::MpfrStateGuard guard;
  mpfr_t w, s, lo, hi, l2, h2;
  mpfr_inits2(kBits, w, s, lo, hi, l2, h2, static_cast<mpfr_ptr>(nullptr));
  mpfr_sub(w, a.upper(), a.lower(), MPFR_RNDU);
  Slope(s, a.lower(), MPFR_RNDN);
  if (mpfr_cmp_d(w, 0x1p-100) > 0 || mpfr_cmpabs_ui(s, 0) == 0 || mpfr_get_exp(s) < -60) {
    mpfr_clears(w, s, lo, hi, l2, h2, static_cast<mpfr_ptr>(nullptr));
    throw std::logic_error("exact reference: sin/cos of a wide enclosure or near an extremum");
  }
  F(lo, a.lower(), MPFR_RNDD);
  F(l2, a.upper(), MPFR_RNDD);
  F(hi, a.lower(), MPFR_RNDU);
  F(h2, a.upper(), MPFR_RNDU);
  mpfr_min(lo, lo, l2, MPFR_RNDD);
  mpfr_max(hi, hi, h2, MPFR_RNDU);
  Enclosure r(symerr::MpfrInterval::between(lo, hi, kBits));
  mpfr_clears(w, s, lo, hi, l2, h2, static_cast<mpfr_ptr>(nullptr));
  return r;
}
inline Enclosure sin(const Enclosure& a) { return monotone_near<mpfr_sin, mpfr_cos>(a); }
inline Enclosure cos(const Enclosure& a) { return monotone_near<mpfr_cos, mpfr_sin>(a); }
inline Enclosure sinf(const Enclosure& a) { return sin(a); }
inline Enclosure cosf(const Enclosure& a) { return cos(a); }
inline Enclosure powf(const Enclosure& a, const Enclosure& c) { return pow(a, c); }
// the real values the reference computes are finite
inline bool isnan(const Enclosure&) { return false; }
inline bool isinf(const Enclosure&) { return false; }
inline Enclosure expf(const Enclosure& a) { return exp(a); }
inline Enclosure sqrtf(const Enclosure& a) { return sqrt(a); }
inline Enclosure fabsf(const Enclosure& a) { return fabs(a); }
inline Enclosure erff(const Enclosure& a) { return erf(a); }
inline Enclosure tanhf(const Enclosure& a) { return tanh(a); }
inline Enclosure logf(const Enclosure& a) { return log(a); }
inline Enclosure log1pf(const Enclosure& a) { return log1p(a); }
inline Enclosure expm1f(const Enclosure& a) { return expm1(a); }
inline Enclosure powf(const Enclosure& a, double c) { return pow(a, c); }
inline Enclosure fmaxf(const Enclosure& a, const Enclosure& b) { return fmax(a, b); }
inline Enclosure fminf(const Enclosure& a, const Enclosure& b) { return fmin(a, b); }

}  // namespace symref
