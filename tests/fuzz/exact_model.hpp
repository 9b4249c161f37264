// The fuzzer's exact model of a concrete execution, independent of symerr's
// rounding code: values are GMP rationals / integers, rounding into a binary
// format is MPFR's (precision p, unbounded exponent in the normal range, the
// format's exponent range + mpfr_subnormalize below it), and the overflow,
// flush (no subnormals), signed-zero and integer-wrap rules are written out
// here from their definitions (IEEE 754 §4.3, §6.3, §7.4; README "Number
// formats" for Saturate / NaN overflow and formats without subnormals).
//
// An execution of a value carries three things: the ideal real value r (the
// kernel on the ideal inputs), pr (the real kernel on the actual inputs) and
// the computed value f (a value of the format, ±0 with its sign, ±inf, NaN).
#pragma once

#include "mixed_bound_check.hpp"
#include <cmath>
#include <optional>
#include <sstream>
#include <string>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/symbolic.hpp>

#include "formats/mpfr_emulation.hpp"

namespace symerr::fuzz {

enum class Kind { Finite, PosInf, NegInf, NaN };

struct Computed {
  Kind kind = Kind::Finite;
  mpq_class v;             // the value when finite
  bool neg_zero = false;   // v == 0 with the sign bit set (float formats)
};

struct Exec {
  bool real_defined = true;
  mpq_class r;
  bool pr_defined = true;
  mpq_class pr;
  bool computed_defined = true;  // false: integer x/0, or real-format x/0
  Computed f;
};

inline std::string str(const mpq_class& q) {
  std::ostringstream o;
  o << q.get_str();
  if (q.get_den() != 1) o << " (~" << q.get_d() << ")";
  return o.str();
}

inline std::string str(const Computed& c) {
  switch (c.kind) {
    case Kind::PosInf: return "+inf";
    case Kind::NegInf: return "-inf";
    case Kind::NaN: return "NaN";
    default: break;
  }
  if (sgn(c.v) == 0) return c.neg_zero ? "-0" : "+0";
  return str(c.v);
}

inline std::string str(const Exec& e) {
  std::string s = "r=" + (e.real_defined ? str(e.r) : std::string("undef"));
  s += " pr=" + (e.pr_defined ? str(e.pr) : std::string("undef"));
  s += " f=" + (e.computed_defined ? str(e.f) : std::string("undef"));
  return s;
}

inline mpq_class pow2q(long e) {
  mpq_class q(1);
  if (e >= 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return q;
}

// max finite from the definition: (2^p − 1 − r) · 2^(emax − p + 1).
inline mpq_class max_finite_q(const FloatFormat& F) {
  return mpq_class((mpz_class(1) << F.precision) - 1 - F.reserved_top) * pow2q(F.emax - F.precision + 1);
}

inline Computed finite_value(const mpq_class& v, bool neg_zero = false) { return {Kind::Finite, v, neg_zero}; }

// The special value replacing an overflow of F in mode m.
inline Computed overflow_result(bool negative, const FloatFormat& F, RoundingMode m) {
  const mpq_class max = max_finite_q(F);
  if (F.overflow == Overflow::NaN) return {Kind::NaN, 0, false};
  if (F.overflow == Overflow::Saturate) return finite_value(negative ? mpq_class(-max) : max);
  bool to_inf = m == RoundingMode::NearestEven || (m == RoundingMode::Upward && !negative) ||
                (m == RoundingMode::Downward && negative);
  if (to_inf) return {negative ? Kind::NegInf : Kind::PosInf, 0, false};
  return finite_value(negative ? mpq_class(-max) : max);
}

// A would-be infinite result in F (x/0, inf operands): formats without
// infinities turn it into NaN or ±max.
inline Computed infinite_result(bool negative, const FloatFormat& F) {
  if (F.has_infinities()) return {negative ? Kind::NegInf : Kind::PosInf, 0, false};
  if (F.overflow == Overflow::NaN) return {Kind::NaN, 0, false};
  const mpq_class max = max_finite_q(F);
  return finite_value(negative ? mpq_class(-max) : max);
}

// round_F,m(q); a zero q gives the zero of sign `neg_zero`, a nonzero q that
// rounds to zero the zero of its own sign.
inline Computed round_exact(const mpq_class& q, bool neg_zero, const FloatFormat& F, RoundingMode m) {
  const int s = sgn(q);
  if (s == 0) return finite_value(0, neg_zero);
  const bool negative = s < 0;
  const mpq_class a = abs(q);
  const mpq_class mn = pow2q(F.emin);
  mpq_class v;
  if (a < mn && !F.subnormals) {
    bool up = false;
    switch (m) {
      case RoundingMode::NearestEven: up = a > mn / 2; break;
      case RoundingMode::TowardZero: up = false; break;
      case RoundingMode::Upward: up = !negative; break;
      case RoundingMode::Downward: up = negative; break;
    }
    v = up ? mn : mpq_class(0);
    if (negative) v = -v;
  } else if (a < mn) {
    FloatFormat G = F;  // below the normal range: MPFR's subnormal emulation
    G.emax = F.emin + 1;
    test::EmulatedRange range(G);
    mpfr_t y;
    mpfr_init2(y, F.precision);
    const mpfr_rnd_t rnd = test::to_mpfr(m);
    int t = mpfr_set_q(y, q.get_mpq_t(), rnd);
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    mpfr_get_q(v.get_mpq_t(), y);
    mpfr_clear(y);
  } else {
    mpfr_t y;  // normal range and beyond: unbounded exponent, precision p
    mpfr_init2(y, F.precision);
    mpfr_set_q(y, q.get_mpq_t(), test::to_mpfr(m));
    mpfr_get_q(v.get_mpq_t(), y);
    mpfr_clear(y);
    if (abs(v) > max_finite_q(F)) return overflow_result(negative, F, m);
  }
  return finite_value(v, sgn(v) == 0 && negative);
}

inline mpz_class wrap(const mpz_class& v, const IntFormat& I) {
  const mpz_class M = mpz_class(1) << I.bits;
  mpz_class w = v % M;  // truncated remainder
  if (w < 0) w += M;
  if (I.is_signed && w >= (M >> 1)) w -= M;
  return w;
}

inline mpz_class round_half_even(const mpq_class& q) {
  mpz_class n;
  mpz_fdiv_q(n.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  const mpq_class frac = q - mpq_class(n);
  if (frac > mpq_class(1, 2) || (frac == mpq_class(1, 2) && mpz_odd_p(n.get_mpz_t()))) n += 1;
  return n;
}

// A computed value of `from` converted into `to` (the semantics of convert()
// and of a real-format operand in a machine-format operation).
inline Computed convert_computed(const Computed& c, const Format& from, const Format& to, RoundingMode m) {
  if (const FloatFormat* F = std::get_if<FloatFormat>(&to)) {
    if (c.kind == Kind::NaN) return c;
    if (c.kind != Kind::Finite) return infinite_result(c.kind == Kind::NegInf, *F);
    const bool nz = std::holds_alternative<FloatFormat>(from) && c.neg_zero;
    return round_exact(c.v, nz, *F, m);
  }
  if (const IntFormat* I = std::get_if<IntFormat>(&to)) {
    if (std::holds_alternative<IntFormat>(from)) return finite_value(mpq_class(wrap(c.v.get_num(), *I)));
    return finite_value(mpq_class(wrap(round_half_even(c.v), *I)));
  }
  return finite_value(c.v);
}

// ---- operations -------------------------------------------------------------

inline bool neg_of(const Computed& c) {
  if (c.kind == Kind::NegInf) return true;
  if (c.kind == Kind::PosInf || c.kind == Kind::NaN) return false;
  return sgn(c.v) < 0 || (sgn(c.v) == 0 && c.neg_zero);
}

inline Computed negate(const Computed& c) {
  switch (c.kind) {
    case Kind::PosInf: return {Kind::NegInf, 0, false};
    case Kind::NegInf: return {Kind::PosInf, 0, false};
    case Kind::NaN: return c;
    default: return finite_value(-c.v, sgn(c.v) == 0 && !c.neg_zero);
  }
}

// IEEE 754 arithmetic of two values of the float format F.
inline Computed float_op(ArithOp op, const Computed& x, Computed y, const FloatFormat& F, RoundingMode m) {
  if (x.kind == Kind::NaN || y.kind == Kind::NaN) return {Kind::NaN, 0, false};
  if (op == ArithOp::Sub) { y = negate(y); op = ArithOp::Add; }
  const bool xi = x.kind != Kind::Finite, yi = y.kind != Kind::Finite;
  const bool sx = neg_of(x), sy = neg_of(y);
  switch (op) {
    case ArithOp::Add: {
      if (xi && yi) return x.kind == y.kind ? infinite_result(sx, F) : Computed{Kind::NaN, 0, false};
      if (xi) return infinite_result(sx, F);
      if (yi) return infinite_result(sy, F);
      const mpq_class t = x.v + y.v;
      if (sgn(t) == 0) {
        // IEEE 754 §6.3: an exact zero sum of operands of opposite signs is
        // +0 except in roundTowardNegative (−0); x + x keeps the sign of x,
        // so (+0) + (+0) = +0 and (−0) + (−0) = −0 in every mode.
        if (sgn(x.v) == 0 && sgn(y.v) == 0 && x.neg_zero == y.neg_zero) return finite_value(0, x.neg_zero);
        return finite_value(0, m == RoundingMode::Downward);
      }
      return round_exact(t, false, F, m);
    }
    case ArithOp::Mul: {
      const bool xz = !xi && sgn(x.v) == 0, yz = !yi && sgn(y.v) == 0;
      if ((xi && yz) || (yi && xz)) return {Kind::NaN, 0, false};
      if (xi || yi) return infinite_result(sx != sy, F);
      return round_exact(x.v * y.v, sx != sy, F, m);
    }
    case ArithOp::Div: {
      const bool xz = !xi && sgn(x.v) == 0, yz = !yi && sgn(y.v) == 0;
      if ((xi && yi) || (xz && yz)) return {Kind::NaN, 0, false};
      if (xi) return infinite_result(sx != sy, F);
      if (yi) return finite_value(0, sx != sy);
      if (yz) return infinite_result(sx != sy, F);
      return round_exact(x.v / y.v, sx != sy, F, m);
    }
    default: break;
  }
  return {Kind::NaN, 0, false};
}

inline std::optional<mpq_class> real_op(ArithOp op, const mpq_class& a, const mpq_class& b) {
  switch (op) {
    case ArithOp::Add: return mpq_class(a + b);
    case ArithOp::Sub: return mpq_class(a - b);
    case ArithOp::Mul: return mpq_class(a * b);
    case ArithOp::Div:
      if (sgn(b) == 0) return std::nullopt;
      return mpq_class(a / b);
  }
  return std::nullopt;
}

// z = x ∘ y on executions of operands of formats fx, fy (equal, or one real).
inline Exec binary(ArithOp op, const Exec& x, const Exec& y, const Format& fx, const Format& fy,
                   RoundingMode m, IntegerDivision idiv) {
  Exec z;
  z.real_defined = x.real_defined && y.real_defined;
  if (z.real_defined) {
    const auto r = real_op(op, x.r, y.r);
    z.real_defined = r.has_value();
    if (r) z.r = *r;
  }
  z.pr_defined = x.pr_defined && y.pr_defined;
  if (z.pr_defined) {
    const auto p = real_op(op, x.pr, y.pr);
    z.pr_defined = p.has_value();
    if (p) z.pr = *p;
  }
  z.computed_defined = x.computed_defined && y.computed_defined;
  if (!z.computed_defined) return z;
  const bool xr = std::holds_alternative<std::monostate>(fx), yr = std::holds_alternative<std::monostate>(fy);
  const Format& f = xr ? fy : fx;
  const Computed cx = xr && !yr ? convert_computed(x.f, fx, f, m) : x.f;
  const Computed cy = yr && !xr ? convert_computed(y.f, fy, f, m) : y.f;
  if (const FloatFormat* F = std::get_if<FloatFormat>(&f)) {
    z.f = float_op(op, cx, cy, *F, m);
  } else if (const IntFormat* I = std::get_if<IntFormat>(&f)) {
    const mpz_class a = cx.v.get_num(), b = cy.v.get_num();
    mpz_class q;
    switch (op) {
      case ArithOp::Add: q = a + b; break;
      case ArithOp::Sub: q = a - b; break;
      case ArithOp::Mul: q = a * b; break;
      case ArithOp::Div:
        if (b == 0) { z.computed_defined = false; return z; }
        if (idiv == IntegerDivision::Floor) mpz_fdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
        else mpz_tdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
        break;
    }
    z.f = finite_value(mpq_class(wrap(q, *I)));
  } else {
    const auto v = real_op(op, cx.v, cy.v);
    if (!v) { z.computed_defined = false; return z; }
    z.f = finite_value(*v);
  }
  return z;
}

enum class Unary { Neg, Abs, Convert };

inline Exec unary(Unary op, const Exec& x, const Format& from, const Format& to, RoundingMode m) {
  Exec z = x;
  if (op == Unary::Convert) {
    if (x.computed_defined) z.f = convert_computed(x.f, from, to, m);
    return z;
  }
  const bool neg = op == Unary::Neg;
  if (neg) { z.r = -x.r; z.pr = -x.pr; }
  else { z.r = abs(x.r); z.pr = abs(x.pr); }
  if (!x.computed_defined) return z;
  if (const IntFormat* I = std::get_if<IntFormat>(&from)) {
    z.f = finite_value(mpq_class(wrap(neg ? mpz_class(-x.f.v.get_num()) : mpz_class(abs(x.f.v.get_num())), *I)));
  } else if (neg) {
    z.f = negate(x.f);
  } else {
    z.f = x.f;
    if (z.f.kind == Kind::NegInf) z.f.kind = Kind::PosInf;
    if (z.f.kind == Kind::Finite) { z.f.v = abs(x.f.v); z.f.neg_zero = false; }
  }
  return z;
}

// ---- checks -----------------------------------------------------------------

// Empty if the symbolic value z encloses the execution e, else what failed.
template <RealDomain D>
std::string check(const SymbolicDomainError<D>& z, const Exec& e) {
  const SpecialStates& s = z.specials;
  if (!e.computed_defined) {
    if (z.is_integer() && !s.may_be_undefined) return "integer x/0 not flagged undefined";
    return "";
  }
  if (e.real_defined) {
    if (!s.may_be_defined) return "defined real value flagged never defined";
  } else if (!s.may_be_undefined) {
    return "undefined real value not flagged";
  }
  const CategorySet c = z.categories();
  switch (e.f.kind) {
    case Kind::NaN: if (!s.may_be_nan) return "NaN not flagged"; return "";
    case Kind::PosInf: if (!s.may_be_pos_inf) return "+inf not flagged"; return "";
    case Kind::NegInf: if (!s.may_be_neg_inf) return "-inf not flagged"; return "";
    default: break;
  }
  if (!s.may_be_finite) return "finite result flagged never finite";
  if (!contains(z.fp, e.f.v)) return "f not in fp";
  if (sgn(e.f.v) == 0 && z.is_float() && !(c & (e.f.neg_zero ? kNegZero : kPosZero)))
    return e.f.neg_zero ? "-0 not flagged" : "+0 not flagged";
  if (!e.real_defined) return "";
  if (!contains(z.real, e.r)) return "r not in real";
  if (!contains(z.err, mpq_class(e.f.v - e.r))) return "f - r not in err";
  if (sgn(e.r) != 0 && !contains(z.rel_err, mpq_class((e.f.v - e.r) / e.r))) return "(f - r)/r not in rel_err";
  if (!test::mixed_holds(z.mixed, mpq_class(e.f.v - e.r), e.r)) return "|f - r| above mixed.rel |r| + mixed.abs";
  if (!e.pr_defined) return "";
  if (!contains(z.propagated, mpq_class(e.pr - e.r))) return "pr - r not in propagated";
  if (!contains(z.introduced, mpq_class(e.f.v - e.pr))) return "f - pr not in introduced";
  return "";
}

}  // namespace symerr::fuzz
