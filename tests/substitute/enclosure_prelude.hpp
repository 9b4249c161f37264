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

}  // namespace symref
