// Test support for the unary operations of SymbolicDomainError (−x, abs, sqrt,
// convert): their exact outcome on one concrete execution. Rational values are
// exact (GMP); a square root is enclosed by MPFR at 512 bits rounded down and
// up, which brackets the irrational value (and equals it when it is rational).
#pragma once

#include <cmath>
#include <string>

#include <mpfr.h>

#include <symerr/symbolic.hpp>

namespace symerr::test {

enum class Unary { Neg, Abs, Sqrt, Convert };

inline const char* to_string(Unary op) {
  switch (op) {
    case Unary::Neg: return "neg";
    case Unary::Abs: return "abs";
    case Unary::Sqrt: return "sqrt";
    case Unary::Convert: return "convert";
  }
  return "?";
}

// An exact enclosure [lo, hi] of a real value (lo == hi when it is rational).
struct Enclosed {
  mpq_class lo, hi;
};

inline Enclosed exactly(const mpq_class& q) { return {q, q}; }

// sqrt(q) for q >= 0, bracketed by MPFR at 512 bits.
inline Enclosed sqrt_enclosed(const mpq_class& q) {
  mpfr_t s;
  mpfr_init2(s, 512);
  Enclosed e;
  mpfr_set_q(s, q.get_mpq_t(), MPFR_RNDD);  // q <= s: sqrt rounded down stays below
  mpfr_sqrt(s, s, MPFR_RNDD);
  mpfr_get_q(e.lo.get_mpq_t(), s);
  mpfr_set_q(s, q.get_mpq_t(), MPFR_RNDU);
  mpfr_sqrt(s, s, MPFR_RNDU);
  mpfr_get_q(e.hi.get_mpq_t(), s);
  mpfr_clear(s);
  return e;
}

// sqrt(x) of a double x >= 0 correctly rounded into F in `mode`: MPFR's
// 512-bit square root rounded once more is the correct rounding, since the
// square root of a p-bit number (p <= 53) is either exact or farther than
// 2^-512 relatively from every value and every midpoint of F.
inline double sqrt_rounded(double x, const FloatFormat& F, RoundingMode mode) {
  mpfr_t s;
  mpfr_init2(s, 512);
  mpfr_set_d(s, x, MPFR_RNDN);
  mpfr_sqrt(s, s, MPFR_RNDN);
  const double r = round_to(s, F, mode).value;
  mpfr_clear(s);
  return r;
}

// q modulo 2^n into the format's range (two's complement for signed formats).
inline double wrap(const mpq_class& q, const IntFormat& I) {
  mpz_class w;
  mpz_fdiv_r_2exp(w.get_mpz_t(), q.get_num_mpz_t(), static_cast<mp_bitcnt_t>(I.bits));
  if (I.is_signed && w >= (mpz_class(1) << (I.bits - 1))) w -= mpz_class(1) << I.bits;
  return w.get_d();  // exact for formats of at most 53 bits
}

// The exact outcome of one unary operation on an execution (r, f) of x.
struct UnaryOutcome {
  bool real_defined = true;
  Enclosed r;             // ideal result (if defined)
  double f = 0;           // computed result (may be ±inf, NaN, ±0)
  bool t_known = false;   // the exact result of the machine input exists and is finite
  Enclosed t;
  // t − r: exactly 0 when the machine input equals the ideal one (the two
  // enclosures of one square root would otherwise leave a sliver around 0).
  Enclosed t_minus_r() const {
    if (same_input) return exactly(0);
    if (t.lo == t.hi && r.lo == r.hi) return exactly(t.lo - r.lo);
    return {t.lo - r.hi, t.hi - r.lo};
  }
  bool same_input = false;
};

// `from` is x's format, `to` the result's (the same except for Convert);
// `mode` is x's rounding mode (for Convert: the conversion's).
inline UnaryOutcome unary_oracle(Unary op, const mpq_class& rx, double fx, const Format& from, const Format& to,
                                 RoundingMode mode) {
  UnaryOutcome o;
  const mpq_class qx = exact_value(fx);
  o.same_input = qx == rx;
  const IntFormat* I = std::get_if<IntFormat>(&to);
  const FloatFormat* F = std::get_if<FloatFormat>(&to);
  switch (op) {
    case Unary::Neg:
    case Unary::Abs: {
      const bool neg = op == Unary::Neg;
      o.r = exactly(neg ? mpq_class(-rx) : abs(rx));
      o.t = exactly(neg ? mpq_class(-qx) : abs(qx));
      o.t_known = true;
      o.f = I ? wrap(o.t.lo, *I) : (neg ? -fx : std::fabs(fx));
      return o;
    }
    case Unary::Sqrt:
      if (sgn(rx) < 0) o.real_defined = false;
      else o.r = sqrt_enclosed(rx);
      if (fx < 0) {
        o.f = NAN;
        return o;
      }
      o.t = sqrt_enclosed(qx);
      o.t_known = true;
      o.f = fx == 0 ? fx : sqrt_rounded(fx, *F, mode);  // sqrt(±0) = ±0
      return o;
    case Unary::Convert:
      o.r = exactly(rx);
      o.t = exactly(qx);
      o.t_known = true;
      if (I) o.f = wrap(qx, *I);
      else if (F) o.f = round_to(fx, *F, mode).value;
      else o.f = fx;
      (void)from;
      return o;
  }
  return o;
}

}  // namespace symerr::test
